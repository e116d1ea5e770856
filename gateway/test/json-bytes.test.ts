// Campaign answers are written from the JSON text built once per campaign (JsonBytes;
// @webpush/contracts campaign-json.ts), not serialised by res.json: the HTTP answer must be the same to the byte — status line, headers in
// the same order, body — for GET, HEAD and conditional requests.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { JsonBytes, sendJson } from '../src/http/json.js';
import { requestId } from '../src/http/request-id.js';

const CAMPAIGN = {
  id: '7d9f3c1e-0000-4000-8000-000000000000',
  title: 'Quote " backslash \\ emoji 👍🏽 control \u0001\u001f line\nbreak \u2028',
  topics: ['news', 'ação'],
  updatedAt: null,
  image: null,
  totalUsers: 10,
  analytics: { clicks: 1, impressions: 3, ctr: 33.33, its: 42.86, totalUsers: 10 },
};

/** The raw bytes of one HTTP/1.1 exchange, with the Date header blanked. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').replace(/\r\nDate: [^\r]*\r\n/, '\r\nDate: -\r\n')));
  });
}

describe('gateway: JSON bytes answers', () => {
  let server: http.Server;
  let port: number;

  before(async () => {
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(requestId);
    app.get('/object', (_req, res) => sendJson(res, 200, CAMPAIGN));
    app.get('/bytes', (_req, res) => sendJson(res, 200, new JsonBytes(Buffer.from(JSON.stringify(CAMPAIGN)))));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const variants: [string, string][] = [
    ['GET', ''],
    ['HEAD', ''],
    ['GET', 'If-None-Match: *\r\n'],
    ['GET', 'If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT\r\n'],
    ['GET', 'Accept-Encoding: gzip\r\n'],
  ];
  for (const [method, extra] of variants) {
    it(`when answering ${method} ${extra.trim() || 'plainly'}, then the bytes equal res.json's`, async () => {
      const ask = (path: string) => rawExchange(port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: fixed-id\r\nConnection: close\r\n${extra}\r\n`);
      const [fromObject, fromBytes] = [await ask('/object'), await ask('/bytes')];
      expect(fromObject).to.match(/^HTTP\/1\.1 (200|304) /);
      expect(fromBytes).to.equal(fromObject);
    });
  }
});
