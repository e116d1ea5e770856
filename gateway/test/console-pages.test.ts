// The console's pages as the gateway serves them (src/console/pages.ts), from a built
// folder made here: the page and its hashed assets, their caching, the Content-Security-Policy,
// compression, revalidation, the security headers on every answer (404s included), and what is
// left to the console API.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import express from 'express';
import { MESSAGES } from '../src/texts.js';
import { CONSOLE_CSP, consolePageRoutes, loadConsolePages, type ConsolePages } from '../src/console/pages.js';

const INDEX = '<!doctype html><html lang="en"><head><script type="module" src="./assets/index-AbCd1234.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const SERVICE_WORKER = "self.addEventListener('push', function () {});";

async function serve(pages: ConsolePages | null): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(consolePageRoutes(pages));
  app.use((_req, res) => res.status(404).json({ message: 'Next handler' }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A raw GET (fetch would decode the body and hide Content-Encoding's effect). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway: the console pages (/console/)', () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'console-pages-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'assets/index-AbCd1234.js'), SCRIPT);
    writeFileSync(path.join(dir, 'assets/index-Ef_h5678.css'), 'body{margin:0}');
    writeFileSync(path.join(dir, 'sw.js'), SERVICE_WORKER);
    writeFileSync(path.join(dir, '.hidden'), 'not served');
    server = await serve(loadConsolePages(dir));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when /console/ is asked, then the page is answered no-cache with an ETag and a strict Content-Security-Policy', async () => {
    const r = await get(`${server.url}/console/`);
    expect(r.status).to.equal(200);
    expect(r.body.toString()).to.equal(INDEX);
    expect(r.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(r.headers['cache-control']).to.equal('no-cache');
    expect(r.headers.etag).to.match(/^"[\w-]{22}"$/);
    expect(r.headers['content-security-policy']).to.equal(CONSOLE_CSP);
    expect(CONSOLE_CSP).to.include("script-src 'self'").and.include("default-src 'none'").and.include("frame-ancestors 'none'");
    expect(CONSOLE_CSP).to.not.include('unsafe-inline').and.not.include('unsafe-eval');
    expect(r.headers['x-content-type-options']).to.equal('nosniff');
    expect(r.headers['x-frame-options']).to.equal('DENY');
    expect(r.headers['referrer-policy']).to.equal('no-referrer');
    expect((await get(`${server.url}/console/index.html`)).body.toString()).to.equal(INDEX);
  });

  it('when the page is asked again with its ETag, then 304 without a body', async () => {
    const first = await get(`${server.url}/console/`);
    const again = await get(`${server.url}/console/`, { 'If-None-Match': first.headers.etag as string });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
  });

  it("when the console's service worker is asked (a file of the build's root, console/public/sw.js), then it is JavaScript, no-cache, under the same policy", async () => {
    const r = await get(`${server.url}/console/sw.js`);
    expect(r.status).to.equal(200);
    expect(r.body.toString()).to.equal(SERVICE_WORKER);
    expect(r.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(r.headers['cache-control']).to.equal('no-cache');
    expect(r.headers['content-security-policy']).to.equal(CONSOLE_CSP);
  });

  it('when a hashed asset is asked, then it is immutable for a year, with its type', async () => {
    const r = await get(`${server.url}/console/assets/index-AbCd1234.js`);
    expect(r.status).to.equal(200);
    expect(r.body.toString()).to.equal(SCRIPT);
    expect(r.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(r.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    const css = await get(`${server.url}/console/assets/index-Ef_h5678.css`);
    expect(css.headers['content-type']).to.equal('text/css; charset=utf-8');
  });

  it('when the client accepts brotli or gzip, then the asset comes compressed (brotli first) and decodes to the same bytes', async () => {
    const br = await get(`${server.url}/console/assets/index-AbCd1234.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.vary).to.equal('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).to.equal(SCRIPT);
    expect(br.body.length).to.be.below(SCRIPT.length / 10);
    const gz = await get(`${server.url}/console/assets/index-AbCd1234.js`, { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).toString()).to.equal(SCRIPT);
    const plain = await get(`${server.url}/console/assets/index-AbCd1234.js`, { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.body.toString()).to.equal(SCRIPT);
  });

  it('when HEAD is asked, then the headers without a body', async () => {
    const r = await get(`${server.url}/console/assets/index-AbCd1234.js`, {}, 'HEAD');
    expect(r.status).to.equal(200);
    expect(Number(r.headers['content-length'])).to.equal(SCRIPT.length);
    expect(r.body.length).to.equal(0);
  });

  it('when /console is asked without the slash, then it redirects to /console/ (the page uses relative URLs), keeping the query', async () => {
    const r = await get(`${server.url}/console?x=1`);
    expect(r.status).to.equal(301);
    expect(r.headers.location).to.equal('/console/?x=1');
  });

  it('when a file that was not built, a hidden file or any other path under /console/ is asked, then a JSON 404 with the security headers; the console API goes on', async () => {
    for (const p of ['/console/assets/nope-12345678.js', '/console/.hidden', '/console/other', '/console/a/b?c=d', '/console/api']) {
      const r = await get(`${server.url}${p}`);
      expect([p, r.status, JSON.parse(r.body.toString())]).to.deep.equal([p, 404, { message: MESSAGES.notFound }]);
      expect([r.headers['content-security-policy'], r.headers['x-frame-options'], r.headers['x-content-type-options']], p).to.deep.equal([CONSOLE_CSP, 'DENY', 'nosniff']);
    }
    // Not the pages': the console API's own, and what is not under /console/ at all.
    for (const p of ['/console/api/session', '/console/api/', '/consoles/']) {
      const r = await get(`${server.url}${p}`);
      expect([p, r.status, JSON.parse(r.body.toString())]).to.deep.equal([p, 404, { message: 'Next handler' }]);
      expect(r.headers['content-security-policy'], p).to.equal(undefined);
    }
  });

  it('when a page is posted to, then 405 with Allow: GET, HEAD', async () => {
    const r = await get(`${server.url}/console/`, {}, 'POST');
    expect(r.status).to.equal(405);
    expect(r.headers.allow).to.equal('GET, HEAD');
    expect([r.headers['content-security-policy'], r.headers['x-frame-options']]).to.deep.equal([CONSOLE_CSP, 'DENY']);
  });

  it('when the pages were not built, then /console/ answers 503 saying how to build them', async () => {
    expect(loadConsolePages(path.join(dir, 'missing'))).to.equal(null);
    const bare = await serve(null);
    try {
      const r = await get(`${bare.url}/console/`);
      expect([r.status, JSON.parse(r.body.toString())]).to.deep.equal([503, { message: MESSAGES.consoleNotBuilt }]);
      expect(r.headers['content-security-policy']).to.equal(CONSOLE_CSP);
      expect((await get(`${bare.url}/console/assets/index-AbCd1234.js`)).status).to.equal(404);
    } finally {
      await bare.close();
    }
  });
});
