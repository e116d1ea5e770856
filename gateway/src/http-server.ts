// The gateway's public HTTP listener around the Express app (express-app.ts): slow-client and
// connection limits, JSON answers to requests that never reach Express (malformed, timed out, an
// unsupported Expect), listen, and a stop that gives in-flight requests the drain time.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import { isPluginPath, PLUGIN_CORS_HEADERS } from '@webpush/shared/plugin-cors.js';
import { DRAIN_MS } from '@webpush/shared/shutdown.js';
import type { GatewayConfig } from './config.js';
import { MESSAGES } from './texts.js';

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

export interface HttpServer {
  port: number;
  /** Stops accepting, closes idle connections, and cuts the rest after the drain time. */
  stop(): Promise<void>;
}

export async function startHttpServer(app: RequestListener, address: { host: string; port: number }, limits: GatewayConfig['server']): Promise<HttpServer> {
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests (an export's stream) get the drain time (shutdown.ts), then go.
      const timer = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
      await closed;
      clearTimeout(timer);
    },
  };
}
