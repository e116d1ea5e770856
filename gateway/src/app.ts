// Starts the gateway: gRPC clients, key cache, proxy, the public HTTP listener with its limits,
// and the ops listener (liveness, readiness, metrics). No state at import time.
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '../../services/shared/src/log.js';
import { isPluginPath, PLUGIN_CORS_HEADERS } from '../../services/shared/src/plugin-cors.js';
import { createReadiness } from '../../services/shared/src/observability/health.js';
import { createServiceMetrics } from '../../services/shared/src/observability/metrics.js';
import { startOpsServer, type OpsServer } from '../../services/shared/src/observability/ops-server.js';
import { DRAIN_MS } from '../../services/shared/src/shutdown.js';
import { createAuthenticator } from './auth/authenticator.js';
import type { GatewayConfig } from './config.js';
import { createBackends } from './grpc/clients.js';
import { createClientResolver } from './http/client-address.js';
import { createFailureLimiter, createTokenBucket } from './http/rate-limit.js';
import { MESSAGES } from './messages.js';
import { createPublicProxy } from './routes/public-proxy.js';
import { loadConsolePages } from './routes/console-pages.js';
import { createServer } from './server.js';

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

/**
 * The headers of a refusal the gateway writes before Express sees the request: JSON, never cached,
 * the connection closed, and the plugin's CORS headers unless the path is known not to be /public
 * (a browser would otherwise see a network error instead of the status). A parser error (headers
 * too large, malformed) comes before the path is known; the headers then go on: they expose a
 * fixed message, to callers without credentials.
 */
function refusalHeaders(url: string | undefined): Record<string, string> {
  const plugin = url === undefined || isPluginPath(url.split('?')[0]);
  return { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Connection: 'close', ...(plugin ? PLUGIN_CORS_HEADERS : {}) };
}

/** A refusal written straight to the socket, for requests that never reach Express. */
function rawJsonAnswer(status: number, reason: string, message: string, url: string | undefined): string {
  const body = JSON.stringify({ message });
  const headers = { ...refusalHeaders(url), 'Content-Length': String(Buffer.byteLength(body)) };
  return `HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}

/** Node's parser errors the gateway names (anything else malformed is 400 `Bad request`). */
function clientErrorAnswer(err: NodeJS.ErrnoException, url: string | undefined): string {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawJsonAnswer(408, 'Request Timeout', MESSAGES.requestTimeout, url);
  // Headers over Node's limit (maxHeaderSize, 16 kB): 431 says which part was too large.
  if (err.code === 'HPE_HEADER_OVERFLOW') return rawJsonAnswer(431, 'Request Header Fields Too Large', MESSAGES.headersTooLarge, url);
  return rawJsonAnswer(400, 'Bad Request', MESSAGES.badRequest, url);
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
  const app = createServer({
    backends,
    authenticator: createAuthenticator(backends.campaigns, { ttlMs: config.authCacheTtlMs }),
    publicProxy: proxy.middleware,
    contractYaml: readFileSync(CONTRACT_FILE, 'utf8'),
    publicUrl: config.publicUrl,
    consolePages,
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

  const limits = config.server;
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // Covers the whole request, body included: a slow body is cut off like slow headers.
      requestTimeout: limits.requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default, which would let a slow
      // client stay that much longer than configured).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    app,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A client that stops reading (or sending) altogether loses its socket.
  server.timeout = limits.socketIdleTimeoutMs;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  // Malformed requests and timed-out ones never reach Express; still answer in JSON.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    // A request being answered (a timed-out body) is known by its response: its path decides CORS.
    const pending = (socket as { _httpMessage?: { headersSent?: boolean; req?: IncomingMessage } })._httpMessage;
    if (!socket.writable || pending?.headersSent === true) return void socket.destroy();
    socket.end(clientErrorAnswer(err, pending?.req?.url));
  });
  // An Expect other than 100-continue: Node would answer an empty 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ message: MESSAGES.expectationFailed });
    res.writeHead(417, { ...refusalHeaders(req.url), 'Content-Length': String(Buffer.byteLength(body)) }).end(body);
  });
  let ops: OpsServer | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    ops = await startOpsServer({
      ...config.ops,
      readiness,
      reported: { campaign: () => backends.connected('campaign', 1000), delivery: () => backends.connected('delivery', 1000) },
      metrics,
      log: logger,
    });
  } catch (err) {
    if (server.listening) server.close();
    backends.close();
    proxy.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
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
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // In-flight requests (an export's stream) get the drain time (shutdown.ts), then go.
        const timer = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
        await closed;
        clearTimeout(timer);
        proxy.close();
        backends.close();
        await opsServer.stop();
      })();
      return stopping;
    },
  };
}
