// /public/* belongs to the delivery service (site plugin: subscribe, tracking, sw.js), reached
// through httpxy (the proxy of http-proxy-middleware 4; http-proxy, under http-proxy-middleware 3,
// called the deprecated util._extend on every request, DEP0060). The gateway is the edge, so
// before anything is proxied it normalises the request (docs/security.md, "No smuggling through
// /public"):
//
// - It reads the body itself, within the delivery service's own 16 kB limit (413 beyond), and
//   forwards it with an exact Content-Length and no Transfer-Encoding. Methods without a body
//   (GET, HEAD, OPTIONS) are forwarded without one, whatever the client sent.
// - Conflicting or unusual framing is refused with 400: Content-Length with Transfer-Encoding
//   (Node's parser already refuses it; this keeps the rule here if a parser option ever relaxes
//   it), and any transfer coding but plain `chunked` (RFC 9112 lets a server refuse codings it
//   does not implement; forwarding `gzip, chunked` bytes without their coding would change them).
// - Every client-sent internal or forwarding header is dropped, with hop-by-hop headers and
//   credentials the plugin endpoints never take; the gateway then sets its token, the client's
//   address and country as it decided them (http/client-address.ts), and the request id.
//
// Why not let the proxy stream the body: proxies rewrite framing (http-proxy sent a DELETE's
// chunked body under `Content-Length: 0`, which the delivery service read as further requests;
// httpxy still adds that header to a DELETE or OPTIONS without one). Reading the body here makes
// the forwarded framing ours whatever the proxy library does, and lets a request be sent again:
//
// Lost reports (docs/architecture.md, "A click, from the notification to the campaign's
// counts"): the pooled connections to the delivery service are closed after
// UPSTREAM_IDLE_TIMEOUT_MS idle, before the delivery service's own keep-alive (Node's 5 s)
// closes them, so a request is not written into a connection the other side is closing. If a
// reused connection is reset anyway before any answer came (ECONNRESET or EPIPE), the request is
// sent once more on a fresh connection (the plugin's requests are idempotent, and the gateway
// holds the whole body). Every answer the gateway makes itself on /public carries the plugin's
// CORS headers, so a browser sees the status, not a network error.
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { createProxyServer } from 'httpxy';
import { CLIENT_ADDRESS_HEADER, CLIENT_COUNTRY_HEADER } from '@webpush/shared/edge-headers.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';
import type { Logger } from '@webpush/shared/log.js';
import { isPluginPath, PLUGIN_CORS_HEADERS } from '@webpush/shared/plugin-cors.js';
import type { ClientResolver } from '../http/client-address.js';
import { requestIdOf } from '../http/request-id.js';
import { MESSAGES } from '../texts.js';

// A delivery service that accepts a connection and never answers must not hold a browser forever.
const UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * How long a pooled connection to the delivery service may stay idle: below its keep-alive
 * (Node's default 5 s, announced as `Keep-Alive: timeout=5`; Node closes it a second later), so
 * the gateway always closes first. Node's agent ignores that announcement when it has no timeout
 * of its own, which is how connections were reused as the delivery service closed them.
 */
export const UPSTREAM_IDLE_TIMEOUT_MS = 4000;

/** The delivery service's body limit on its plugin endpoints (services/delivery/src/routes/subscriptions.ts). */
const PUBLIC_BODY_LIMIT_BYTES = 16 * 1024;

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A reset of a connection that was reused: the other side closed it as the request went out. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

// Headers a client may not pass on: framing and hop-by-hop headers (the gateway frames the
// forwarded request itself), internal headers only the gateway sets, forwarding headers only a
// trusted proxy may set (and which the gateway has already read), and credentials.
const DROPPED = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
  INTERNAL_AUTH_HEADER,
  CLIENT_ADDRESS_HEADER,
  CLIENT_COUNTRY_HEADER,
  'forwarded',
  'x-real-ip',
  'x-request-id',
  'authorization',
  'proxy-authorization',
  'cookie',
]);

export interface PublicProxyOptions {
  target: string;
  internalToken: string;
  clientOf: ClientResolver;
  /** The configured country header (lowercase; '' = none): never forwarded. */
  countryHeader: string;
  logger: Logger;
}

class BodyTooLarge extends Error {}

/** One client request on its way to the delivery service: its body and its attempts. */
interface Exchange {
  body: Buffer;
  attempts: number;
  /** The current attempt's upstream request (once it has a connection). */
  upstream?: ClientRequest;
  responded: boolean;
  timedOut: boolean;
}

/** The whole body, refused beyond `limit` bytes; rejects (without answering) if the client goes away. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return done(new BodyTooLarge());
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = (err: Error) => done(err);
    const onClose = () => done(new Error('client went away'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function refuse(res: Response, status: number, message: string): void {
  // The rest of what the client sent is not read: the connection cannot be reused.
  res.status(status).set({ 'Cache-Control': 'no-store', Connection: 'close' }).json({ message });
}

/** req.headers as the delivery service must see them (http-proxy copies req.headers as they are). */
function normaliseHeaders(req: Request, res: Response, body: Buffer, opts: PublicProxyOptions): void {
  // Read before the forwarding and country headers it reads are dropped.
  const client = opts.clientOf(req);
  const headers = req.headers;
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of Object.keys(headers)) {
    if (DROPPED.has(name) || name.startsWith('x-forwarded-') || name === opts.countryHeader || listed.includes(name)) delete headers[name];
  }
  if (!BODYLESS.has(req.method)) headers['content-length'] = String(body.length);
  headers[INTERNAL_AUTH_HEADER] = opts.internalToken;
  headers[CLIENT_ADDRESS_HEADER] = client.address;
  if (client.country) headers[CLIENT_COUNTRY_HEADER] = client.country;
  headers['x-request-id'] = requestIdOf(res);
}

/** `maxSockets`: connections to the delivery service (more requests wait for one). */
export function createPublicProxy(opts: PublicProxyOptions & { maxSockets?: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256, timeout: UPSTREAM_IDLE_TIMEOUT_MS });
  const exchanges = new WeakMap<IncomingMessage, Exchange>();
  const proxy = createProxyServer({});

  function forward(req: IncomingMessage, res: http.ServerResponse, exchange: Exchange): void {
    exchange.attempts += 1;
    exchange.upstream = undefined;
    // httpxy pipes `buffer` (not the client's stream, already read) into the upstream request:
    // exactly Content-Length bytes, and a fresh stream for each attempt.
    const buffer = Readable.from(exchange.body.length > 0 ? [exchange.body] : []);
    // Failures are answered by the 'error' listener below; the promise only says the answer ended.
    void proxy.web(req, res, { target: opts.target, agent, buffer }).catch(() => {});
  }

  proxy.on('proxyReq', (upstream, req) => {
    const exchange = exchanges.get(req);
    if (!exchange) return;
    exchange.upstream = upstream;
    upstream.setTimeout(UPSTREAM_TIMEOUT_MS, () => {
      exchange.timedOut = true;
      upstream.destroy();
    });
  });
  proxy.on('proxyRes', (proxyRes, req, res) => {
    const exchange = exchanges.get(req);
    if (exchange) exchange.responded = true;
    // The delivery service's Connection and Keep-Alive describe the gateway's pooled
    // connection to it, not the client's: the client's own request decides whether its
    // connection stays open.
    delete proxyRes.headers['keep-alive'];
    proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
  });
  proxy.on('error', (err, req, res) => {
    const code = (err as NodeJS.ErrnoException).code;
    const exchange = req ? exchanges.get(req) : undefined;
    if (!req || !exchange || !res || !('writeHead' in res)) return void res?.destroy();
    if (res.headersSent || res.destroyed || req.socket.destroyed) return void res.destroy();
    const stale = exchange.upstream?.reusedSocket === true && STALE_CONNECTION.has(code ?? '') && !exchange.responded && !exchange.timedOut;
    if (stale && exchange.attempts === 1) return forward(req, res, exchange);
    opts.logger.warn('delivery service unreachable', { path: (req as Request).path, code, attempts: exchange.attempts, timedOut: exchange.timedOut });
    res.writeHead(502, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ message: MESSAGES.upstreamUnavailable }));
  });

  async function middleware(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!isPluginPath(req.path)) return next();
    // Before anything can answer: every answer the gateway makes here carries them too (the
    // delivery service's answers set the same values again).
    res.set(PLUGIN_CORS_HEADERS);
    const te = req.headers['transfer-encoding'];
    if (te !== undefined && (req.headers['content-length'] !== undefined || te.trim().toLowerCase() !== 'chunked')) return refuse(res, 400, MESSAGES.badRequest);
    let body: Buffer;
    try {
      body = await readBody(req, PUBLIC_BODY_LIMIT_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLarge) return refuse(res, 413, MESSAGES.bodyTooLarge);
      return void res.destroy(); // the client is gone (or timed out): nobody to answer
    }
    if (BODYLESS.has(req.method)) body = Buffer.alloc(0);
    normaliseHeaders(req, res, body, opts);
    const exchange: Exchange = { body, attempts: 0, responded: false, timedOut: false };
    exchanges.set(req, exchange);
    forward(req, res, exchange);
  }

  return { middleware, close: () => agent.destroy() };
}
