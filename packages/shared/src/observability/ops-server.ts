// The operations listener of an HTTP service (gateway, delivery): liveness, readiness and
// Prometheus metrics on a port of their own, bound to an internal address, so none of them is
// reachable through the public port (docs/security.md). No credentials: what it shows is for
// the orchestrator and the scraper, and the port is kept off the internet by binding and by
// NetworkPolicy.
//
// Readiness answers "should traffic be routed to this process?". `readiness` holds the checks
// that decide it; `reported` ones (a peer the process can serve without, e.g. the campaign
// service for the gateway) are shown in the body but never make it 503, so an outage behind a
// process does not pull every replica of it out of rotation.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Logger } from '../log.js';
import { releaseVersion } from '../version.js';
import { createReadiness, type Check, type Readiness } from './health.js';
import type { ServiceMetrics } from './metrics.js';

export interface OpsServerOptions {
  host: string;
  port: number;
  readiness: Readiness;
  reported?: Record<string, Check>;
  metrics: ServiceMetrics;
  log?: Logger;
}

export interface OpsServer {
  port: number;
  stop(): Promise<void>;
}

export function createOpsApp(opts: Omit<OpsServerOptions, 'host' | 'port'>): express.Express {
  const reported = createReadiness(opts.reported ?? {}, { timeoutMs: 1000, log: opts.log });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Liveness, and which release answers: during a rolling upgrade, per pod (never on a public port).
  app.get('/healthz', (_req, res) => void res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok', version: releaseVersion() }));
  app.get('/readyz', async (_req, res) => {
    const [own, others] = await Promise.all([opts.readiness.check(), reported.check()]);
    res
      .status(own.ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: own.ready ? 'ready' : 'not ready', checks: own.checks, ...(opts.reported ? { reported: others.checks } : {}) });
  });
  app.get('/metrics', opts.metrics.scrape);
  app.use((_req, res) => void res.status(404).json({ message: 'Not found' }));
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (res.headersSent) return void res.destroy();
    res.status(500).json({ message: 'Internal server error' });
  });
  return app;
}

export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  const server = http.createServer(createOpsApp(opts));
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
