// /public/* belongs to the delivery service (site plugin: subscribe, tracking, sw.js). The body
// is streamed through untouched, so nothing may parse it before this middleware.
import http from 'node:http';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from '../../../services/shared/src/log.js';
import { MESSAGES } from '../messages.js';

// A delivery service that accepts a connection and never answers must not hold a browser forever.
const UPSTREAM_TIMEOUT_MS = 30_000;

export function createPublicProxy(target: string, logger: Logger) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const middleware = createProxyMiddleware<Request, Response>({
    target,
    agent,
    pathFilter: (pathname) => pathname === '/public' || pathname.startsWith('/public/'),
    proxyTimeout: UPSTREAM_TIMEOUT_MS,
    on: {
      proxyReq(proxyReq, req, res) {
        // The gateway is the public edge: the address it saw is the client's. A client-sent
        // X-Forwarded-For is replaced, not appended to, so per-address limits cannot be dodged.
        proxyReq.setHeader('X-Forwarded-For', req.socket.remoteAddress ?? '');
        proxyReq.setHeader('X-Forwarded-Proto', 'http');
        if (req.headers.host) proxyReq.setHeader('X-Forwarded-Host', req.headers.host);
        proxyReq.setHeader('X-Request-Id', String(res.locals.requestId));
      },
      error(err, req, res) {
        logger.warn('delivery service unreachable', { path: (req as Request).path, code: (err as NodeJS.ErrnoException).code });
        if (!('writeHead' in res)) return void res.destroy();
        if (res.headersSent) return void res.destroy();
        res.writeHead(502, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ message: MESSAGES.upstreamUnavailable }));
      },
    },
  });
  return { middleware, close: () => agent.destroy() };
}
