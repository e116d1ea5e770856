// The site owner's side for the browser suites: pages on http://localhost (a secure context) with
// the two-line install, and the one-line worker file; with `sign`, the pages of a logged-in user
// and of a logout, as a site's server renders them (docs/people.md).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestSite {
  origin: string;
  close(): Promise<void>;
}

function pageHtml(opts: { gateway: string; publicId: string; section: string; keywords: string; commands?: unknown[][] }): string {
  // The queue stub and the page's commands, before the snippet (async) has loaded; the identity
  // announcements are kept for the test to read.
  const commands = opts.commands
    ? `<script>window.webpush=window.webpush||function(){(webpush.q=webpush.q||[]).push(arguments)};
window.__identity=[];document.addEventListener('webpush:identity',function(e){window.__identity.push(e.detail)});
${opts.commands.map((c) => `webpush(${c.map((a) => JSON.stringify(a)).join(', ')});`).join('\n')}</script>
`
    : '';
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Test page</title>
<meta property="article:section" content="${opts.section}">
<meta name="keywords" content="${opts.keywords}">
</head><body><h1>${opts.section}</h1>
${commands}<script src="${opts.gateway}/public/v1/webpush.js" data-site="${opts.publicId}" async></script>
</body></html>`;
}

/**
 * `/` (Sports; Football, Local News), `/politics` and `/landing` (Sale), plus `/webpush-sw.js`;
 * with `sign` (the site's server signing a user id), `/account?user=<id>` identifies the visitor
 * (`&signature=` replaces the server's, as a forger would) and `/logout` logs them out.
 */
export async function startSite(gateway: string, publicId: string, opts: { sign?: (externalId: string) => string } = {}): Promise<TestSite> {
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
    if (opts.sign && (url.pathname === '/account' || url.pathname === '/logout')) {
      const user = url.searchParams.get('user') ?? '';
      const commands = url.pathname === '/logout' ? [['logout']] : [['identify', user, url.searchParams.get('signature') ?? opts.sign(user)]];
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return void res.end(pageHtml({ gateway, publicId, section: 'Account', keywords: '', commands }));
    }
    const page = pages[url.pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(pageHtml({ gateway, publicId, ...page }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    // The browser keeps its connections open (and a service worker of the origin may hold one):
    // closed with the server, not waited for.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
