// Starts the gateway: gRPC clients, key cache, proxy, HTTP listener. No state at import time.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { createLogger, type Logger } from '../../services/shared/src/log.js';
import { createReadiness } from '../../services/shared/src/observability/health.js';
import { createServiceMetrics } from '../../services/shared/src/observability/metrics.js';
import { createAuthenticator } from './auth/authenticator.js';
import type { GatewayConfig } from './config.js';
import { createBackends } from './grpc/clients.js';
import { createPublicProxy } from './routes/public-proxy.js';
import type { ContractFiles } from './routes/static.js';
import { createServer } from './server.js';

export const CONTRACT_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../openapi/openapi.yaml');

export interface RunningGateway {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export function loadContractFiles(file = CONTRACT_FILE): ContractFiles {
  const yaml = readFileSync(file, 'utf8');
  return { yaml, json: JSON.stringify(parse(yaml)) };
}

export async function startGateway(config: Readonly<GatewayConfig>, deps: { logger?: Logger } = {}): Promise<RunningGateway> {
  const logger = deps.logger ?? createLogger('gateway', config.logLevel);
  const backends = createBackends({ campaign: config.campaignGrpcTarget, audience: config.audienceGrpcTarget }, config.grpcDeadlineMs, config.internalToken);
  const proxy = createPublicProxy(config.deliveryHttpUrl, logger);
  const app = createServer({
    backends,
    authenticator: createAuthenticator(backends.campaigns, { ttlMs: config.authCacheTtlMs }),
    publicProxy: proxy.middleware,
    contract: loadContractFiles(),
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
    ops: {
      metrics: createServiceMetrics('gateway'),
      // Ready when both backends' channels connect; the gateway itself keeps no other state.
      readiness: createReadiness({ campaign: () => backends.connected('campaign', 1000), delivery: () => backends.connected('delivery', 1000) }, { log: logger }),
    },
  });

  const server = http.createServer(app);
  // A malformed request line or header never reaches Express; still answer in JSON.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) {
      const body = JSON.stringify({ message: 'Bad request' });
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    } else socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    backends.close();
    proxy.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  logger.info('gateway listening', { host: config.host, port });

  let stopping: Promise<void> | undefined;
  return {
    port,
    url: `http://${host}:${port}`,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // In-flight calls get a short grace (their gRPC deadline bounds them anyway), then go.
        const timer = setTimeout(() => server.closeAllConnections(), 5000);
        await closed;
        clearTimeout(timer);
        proxy.close();
        backends.close();
      })();
      return stopping;
    },
  };
}
