// The console's pages (docs/console.md): the files Vite built from console/ (scripts/build.mjs
// writes them to dist/gateway/console-pages/), served at /console/. One page (index.html, routes
// are in the hash), its hashed assets, the console's service worker (sw.js, from console/public:
// a service worker's URL cannot change from build to build) and nothing else; /console/api/* is
// the console API's, not ours. Everything is read into memory at start (about 200 KB) and compressed once (brotli, gzip).
//
// Caching: index.html and sw.js `no-cache` with an ETag (revalidated on every load, so a new build
// is seen at once); files under assets/ carry a content hash in their name and are `immutable`
// for a year.
// Every answer carries a strict Content-Security-Policy: scripts, styles, fonts and fetches from
// this origin only, no inline script or style, no framing. Images may also come from https: URLs,
// for one reason: the composer previews the notification's own icon and image, which live on the
// customer's servers (shown without a referrer).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { CONSOLE_API_PREFIX } from '../console/route.js';
import { MESSAGES } from '../texts.js';
import { sendJson, sendMethodNotAllowed } from '../http/json.js';

export const CONSOLE_PREFIX = '/console';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt']);

interface PageFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  immutable: boolean;
}

export interface ConsolePages {
  /** Files by their path under /console/ (`index.html`, `assets/index-3f2a1b.js`). */
  files: ReadonlyMap<string, PageFile>;
  /** Total bytes, uncompressed. */
  bytes: number;
}

function walk(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.name.startsWith('.')) return [];
    return e.isDirectory() ? walk(dir, r) : e.isFile() ? [r] : [];
  });
}

/** The built pages in `dir`, or null when they were not built (no index.html). */
export function loadConsolePages(dir: string): ConsolePages | null {
  if (!existsSync(path.join(dir, 'index.html')) || !statSync(dir).isDirectory()) return null;
  const files = new Map<string, PageFile>();
  let bytes = 0;
  for (const rel of walk(dir)) {
    const ext = path.extname(rel).toLowerCase();
    const type = TYPES[ext];
    if (!type) continue;
    const body = readFileSync(path.join(dir, rel));
    bytes += body.length;
    const compress = COMPRESSIBLE.has(ext) && body.length > 512;
    files.set(rel, {
      body,
      br: compress ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }) : undefined,
      gzip: compress ? gzipSync(body, { level: 9 }) : undefined,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      immutable: rel.startsWith('assets/'),
    });
  }
  return { files, bytes };
}

/** The answer's encoding from Accept-Encoding: br, then gzip (a q=0 refuses one). */
function encodingFor(req: Request, file: PageFile): 'br' | 'gzip' | null {
  const header = req.headers['accept-encoding'];
  if (!header || (!file.br && !file.gzip)) return null;
  const accepted = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (file.br && ok('br')) return 'br';
  if (file.gzip && ok('gzip')) return 'gzip';
  return null;
}

function securityHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': CONSOLE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  });
}

function send(req: Request, res: Response, file: PageFile): void {
  res.set('Content-Type', file.type);
  res.set('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  res.set('ETag', file.etag);
  res.set('Vary', 'Accept-Encoding');
  const match = req.headers['if-none-match'];
  if (match && String(match).split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag)) {
    res.status(304).end();
    return;
  }
  const encoding = encodingFor(req, file);
  const body = encoding === 'br' ? file.br! : encoding === 'gzip' ? file.gzip! : file.body;
  if (encoding) res.set('Content-Encoding', encoding);
  res.set('Content-Length', String(body.length));
  res.status(200);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/**
 * /console → /console/ (relative asset URLs need the slash), /console/ and /console/index.html
 * → the page, /console/<file> → a built file, anything else under /console/ → the JSON 404;
 * /console/api/* is the console API's. Every answer here carries the security headers, the
 * redirect, 404, 405 and 503 included. With no build, the page answers 503 saying how to build it.
 */
export function consolePageRoutes(pages: ConsolePages | null) {
  return function serveConsolePages(req: Request, res: Response, next: NextFunction): void {
    const p = req.path;
    if (p !== CONSOLE_PREFIX && !p.startsWith(`${CONSOLE_PREFIX}/`)) return next();
    if (p.startsWith(CONSOLE_API_PREFIX)) return next();
    securityHeaders(res);
    const rel = p === CONSOLE_PREFIX || p === `${CONSOLE_PREFIX}/` ? 'index.html' : p.slice(CONSOLE_PREFIX.length + 1);
    const file = pages?.files.get(rel);
    if (!file && !(rel === 'index.html' && !pages)) return sendJson(res, 404, { message: MESSAGES.notFound });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, ['GET']);
    if (p === CONSOLE_PREFIX) {
      const q = req.originalUrl.indexOf('?');
      res.set('Cache-Control', 'no-cache');
      return res.redirect(301, `${CONSOLE_PREFIX}/${q >= 0 ? req.originalUrl.slice(q) : ''}`);
    }
    if (!file) return sendJson(res, 503, { message: MESSAGES.consoleNotBuilt });
    send(req, res, file);
  };
}
