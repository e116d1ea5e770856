// Wires and starts the gateway: gRPC clients, key cache, proxy, the Express app (express-app.ts)
// on the public listener (http-server.ts), and the ops listener (liveness, readiness, metrics).
// No state at import time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '@webpush/shared/log.js';
import { createReadiness } from '@webpush/shared/observability/health.js';
import { createServiceMetrics } from '@webpush/shared/observability/metrics.js';
import { startOpsServer, type OpsServer } from '@webpush/shared/observability/ops-server.js';
import { createAuthenticator } from './auth/authenticator.js';
import type { GatewayConfig } from './config.js';
import { createBackends } from './grpc/clients.js';
import { createClientResolver } from './http/client-address.js';
import { createFailureLimiter, createTokenBucket } from '@webpush/shared/rate-limit.js';
import { createPublicProxy } from './routes/public-proxy.js';
import { loadConsolePages } from './console/index.js';
import { createExpressApp } from './express-app.js';
import { createAuditTrail } from './routes/audit-trail.js';
import { startHttpServer } from './http-server.js';

const CONTRACT_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../openapi/openapi.yaml');
/** The console's pages as scripts/build.mjs builds them (Vite, from console/): dist/gateway/console-pages/. */
const CONSOLE_PAGES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../console-pages');

export interface RunningGateway {
  port: number;
  url: string;
  /** The ops listener: /healthz, /readyz, /metrics. */
  opsPort: number;
  opsUrl: string;
  stop(): Promise<void>;
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startGateway(config: Readonly<GatewayConfig>, deps: { logger?: Logger } = {}): Promise<RunningGateway> {
  const logger = deps.logger ?? createLogger('gateway', config.logLevel);
  const backends = createBackends({ campaign: config.campaignGrpcTarget, audience: config.audienceGrpcTarget }, config.grpcDeadlineMs, config.internalToken);
  const clientOf = createClientResolver({ trustedProxies: config.trustedProxies, countryHeader: config.countryHeader });
  const proxy = createPublicProxy({ target: config.deliveryHttpUrl, internalToken: config.internalToken, clientOf, countryHeader: config.countryHeader, logger });
  const metrics = createServiceMetrics('gateway');
  // Ready while it listens and is not stopping. The backends are reported, not gating: the
  // public endpoints need only the delivery service, subscribes and click redirects never the
  // campaign service, and with a backend down /v2 answers the spec's 500s at once. Taking the
  // gateway out of rotation would turn one backend's outage into an outage of everything.
  const readiness = createReadiness({}, { log: logger });
  const consolePages = loadConsolePages(CONSOLE_PAGES_DIR);
  if (!consolePages) logger.warn('console pages not built: /console/ answers 503 (run npm run build)', { dir: CONSOLE_PAGES_DIR });
  const app = createExpressApp({
    backends,
    authenticator: createAuthenticator(backends.campaigns, { ttlMs: config.authCacheTtlMs }),
    publicProxy: proxy.middleware,
    contractYaml: readFileSync(CONTRACT_FILE, 'utf8'),
    publicUrl: config.publicUrl,
    consolePages,
    audit: createAuditTrail(backends.auditLog, logger, metrics.registry),
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
    metrics,
    console: {
      backend: backends.console,
      data: backends.consoleData,
      clientOf,
      secureCookie: config.console.secureCookie,
      publicUrl: config.publicUrl,
    },
    limits: {
      clientOf,
      perKey: createTokenBucket({ perMinute: config.rateLimits.perKeyPerMinute, burst: config.rateLimits.perKeyBurst }),
      keyFailures: createFailureLimiter({ limit: config.rateLimits.keyFailuresPerMinute }),
    },
  });

  const server = await startHttpServer(app, { host: config.host, port: config.port }, config.server).catch((err: unknown) => {
    backends.close();
    proxy.close();
    throw err;
  });
  let ops: OpsServer;
  try {
    ops = await startOpsServer({
      ...config.ops,
      readiness,
      reported: { campaign: () => backends.connected('campaign', 1000), delivery: () => backends.connected('delivery', 1000) },
      metrics,
      log: logger,
    });
  } catch (err) {
    await server.stop();
    backends.close();
    proxy.close();
    throw err;
  }
  const { port } = server;
  const opsServer = ops;
  logger.info('gateway listening', { host: config.host, port, opsHost: config.ops.host, opsPort: opsServer.port });

  let stopping: Promise<void> | undefined;
  return {
    port,
    url: urlOf(config.host, port),
    opsPort: opsServer.port,
    opsUrl: urlOf(config.ops.host, opsServer.port),
    stop() {
      stopping ??= (async () => {
        readiness.drain();
        await server.stop();
        proxy.close();
        backends.close();
        await opsServer.stop();
      })();
      return stopping;
    },
  };
}
