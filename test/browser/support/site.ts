// The site owner's side for the browser suites: pages on http://localhost (a secure context) with
// the two-line install, and the one-line worker file.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestSite {
  origin: string;
  close(): Promise<void>;
}

function pageHtml(opts: { gateway: string; publicId: string; section: string; keywords: string }): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Test page</title>
<meta property="article:section" content="${opts.section}">
<meta name="keywords" content="${opts.keywords}">
</head><body><h1>${opts.section}</h1>
<script src="${opts.gateway}/public/v1/webpush.js" data-site="${opts.publicId}" async></script>
</body></html>`;
}

/** `/` (Sports; Football, Local News), `/politics` and `/landing` (Sale), plus `/webpush-sw.js`. */
export async function startSite(gateway: string, publicId: string): Promise<TestSite> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (url.pathname === '/webpush-sw.js') {
      res.writeHead(200, { 'Content-Type': 'application/javascript', 'Cache-Control': 'no-cache' });
      return void res.end(`importScripts('${gateway}/public/v1/webpush-sw.js');\n`);
    }
    const pages: Record<string, { section: string; keywords: string }> = {
      '/': { section: 'Sports', keywords: 'Football, Local News' },
      '/politics': { section: 'Politics', keywords: '' },
      '/landing': { section: 'Sale', keywords: '' },
    };
    const page = pages[url.pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(pageHtml({ gateway, publicId, ...page }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
