// /public/* belongs to the delivery service (site plugin: subscribe, tracking, sw.js), reached
// through http-proxy-middleware. The gateway is the edge, so before anything is proxied it
// normalises the request (docs/security.md, "No smuggling through /public"):
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
// Why not let the proxy stream the body: http-proxy 1.18.1 (under http-proxy-middleware 3)
// rewrites a DELETE or OPTIONS without Content-Length to `Content-Length: 0` and drops its
// Transfer-Encoding while still streaming the chunked body (its `deleteLength` pass, an open
// upstream issue), so the delivery service read the body as further requests. http-proxy-
// middleware 4 replaced http-proxy by httpxy, which no longer does that (it needs Node ≥ 22.15,
// which we now run, but moving to it means rewriting this proxy's use of http-proxy). Reading the body here
// makes the forwarded framing ours whatever the proxy library does: http-proxy never reads the
// client's stream, it sends the buffered body (its `buffer` option, set per request below).
import http, { type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { CLIENT_ADDRESS_HEADER, CLIENT_COUNTRY_HEADER } from '../../../services/shared/src/edge-headers.js';
import { INTERNAL_AUTH_HEADER } from '../../../services/shared/src/internal-auth.js';
import type { Logger } from '../../../services/shared/src/log.js';
import type { ClientResolver } from '../http/client-address.js';
import { requestIdOf } from '../http/request-id.js';
import { MESSAGES } from '../messages.js';

// A delivery service that accepts a connection and never answers must not hold a browser forever.
const UPSTREAM_TIMEOUT_MS = 30_000;

/** The delivery service's body limit on its plugin endpoints (services/delivery/src/routes/subscriptions.ts). */
const PUBLIC_BODY_LIMIT_BYTES = 16 * 1024;

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

/** http-proxy's pass API (ProxyServer#before), which its published types leave out. */
interface WithPasses {
  before(type: 'web', pass: 'stream', fn: (req: IncomingMessage, res: unknown, options: { buffer?: Readable }) => void): void;
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

function isPublicPath(path: string): boolean {
  return path === '/public' || path.startsWith('/public/');
}

/** `maxSockets`: connections to the delivery service (more requests wait for one). */
export function createPublicProxy(opts: PublicProxyOptions & { maxSockets?: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256 });
  const bodies = new WeakMap<IncomingMessage, Buffer>();
  const proxy = createProxyMiddleware<Request, Response>({
    target: opts.target,
    agent,
    proxyTimeout: UPSTREAM_TIMEOUT_MS,
    plugins: [
      (proxyServer) => {
        // Just before http-proxy's last pass pipes `options.buffer || req` into the upstream
        // request: the body read above, exactly Content-Length bytes. (Writing it from the
        // proxyReq event instead fails for requests queued for a pooled connection: that event
        // comes only once a socket is free, after the pipe of the ended request has ended them.)
        (proxyServer as unknown as WithPasses).before('web', 'stream', (req, _res, options) => {
          const body = bodies.get(req);
          options.buffer = Readable.from(body && body.length > 0 ? [body] : []);
        });
      },
    ],
    on: {
      proxyRes(proxyRes, _req, res) {
        // The delivery service's Connection and Keep-Alive describe the gateway's pooled
        // connection to it, not the client's: the client's own request decides whether its
        // connection stays open (http-proxy would otherwise write `keep-alive` over a `close`).
        delete proxyRes.headers['keep-alive'];
        proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
      },
      error(err, req, res) {
        opts.logger.warn('delivery service unreachable', { path: (req as Request).path, code: (err as NodeJS.ErrnoException).code });
        if (!('writeHead' in res)) return void res.destroy();
        if (res.headersSent) return void res.destroy();
        res.writeHead(502, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ message: MESSAGES.upstreamUnavailable }));
      },
    },
  });

  async function middleware(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!isPublicPath(req.path)) return next();
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
    bodies.set(req, body);
    await proxy(req, res, next);
  }

  return { middleware, close: () => agent.destroy() };
}
