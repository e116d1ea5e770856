// The gateway is the edge, and the only one: what reaches the delivery service is exactly what
// the gateway forwarded (no request smuggled in a body), framed by the gateway, with the client
// address and country it decided and no client-sent internal or forwarding header.
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import fc from 'fast-check';
import type { RunningGateway } from '../src/app.js';
import { requestId } from '../src/http/request-id.js';
import { createPublicProxy } from '../src/routes/public-proxy.js';
import { INTERNAL_TOKENS } from '../../test/support/internal-tokens.js';
import { chunked, rawExchange } from './support/raw-socket.js';
import { startRecordingUpstream, type RecordingUpstream } from './support/recording-upstream.js';
import { ALL_PERMISSIONS, browserSubscription, request, silentLogger, startStack, type Stack, type TestSite } from './support/stack.js';

const EMBEDDED = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';

describe('gateway: the edge', function () {
  this.timeout(60_000);
  let stack: Stack;
  let site: TestSite;
  let upstream: RecordingUpstream;
  let recorder: RunningGateway;

  before(async () => {
    // Small plugin limits, so that a smuggled or mis-keyed request would show as a 429 or a count.
    stack = await startStack('gw_edge', { delivery: { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '3', TRACKING_RATE_LIMIT_PER_MINUTE: '5' } });
    site = await stack.newSite(ALL_PERMISSIONS);
    upstream = await startRecordingUpstream();
    recorder = await stack.startGatewayWith({ DELIVERY_HTTP_URL: upstream.url, COUNTRY_HEADER: 'cf-ipcountry' });
  });
  after(async () => {
    await upstream?.close();
    await stack?.stop();
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  const subscriptions = () => `/public/v1/sites/${site.publicId}/subscriptions`;
  const head = (method: string, path: string, headers: string[]) => `${method} ${path} HTTP/1.1\r\nHost: gateway.test\r\n${headers.map((h) => h + '\r\n').join('')}\r\n`;

  /** The delivery service's own count of HTTP requests it served, from its metrics. */
  async function deliveryRequests(): Promise<number> {
    const text = await (await fetch(`${stack.deliveryOpsUrl}/metrics`)).text();
    return [...text.matchAll(/^http_requests_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  }

  describe('smuggling', () => {
    it('when a DELETE carries a chunked body holding a request, then the delivery service runs one DELETE whose body is that text', async () => {
      const r = await rawExchange(recorder.url, [head('DELETE', subscriptions(), ['Transfer-Encoding: chunked', 'Connection: close']), chunked(EMBEDDED, 7)]);
      expect(r.statuses).to.deep.equal([200]);
      expect(upstream.received).to.have.length(1);
      const [got] = upstream.received;
      expect([got.method, got.url, got.body.toString()]).to.deep.equal(['DELETE', subscriptions(), EMBEDDED]);
      expect(got.headers['content-length']).to.equal(String(Buffer.byteLength(EMBEDDED)));
      expect(got.headers).to.not.have.property('transfer-encoding');
    });

    it('when the same attack goes to the real delivery service, then it serves exactly one request (400 Invalid JSON body)', async () => {
      const before = await deliveryRequests();
      const attack = chunked(EMBEDDED.repeat(20), 11);
      const r = await rawExchange(stack.gateway.url, [head('DELETE', subscriptions(), ['Transfer-Encoding: chunked', 'Connection: close']), attack]);
      expect(r.statuses).to.deep.equal([400]);
      expect(r.text).to.include('{"message":"Invalid JSON body"}');
      expect((await deliveryRequests()) - before).to.equal(1);
    });

    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      it(`when a ${method} carries a body (chunked or with a length), then it is forwarded without one`, async () => {
        const path = method === 'OPTIONS' ? subscriptions() : `/public/v1/sites/${site.publicId}/config`;
        await rawExchange(recorder.url, [head(method, path, ['Transfer-Encoding: chunked']), chunked(EMBEDDED), head(method, path, [`Content-Length: ${EMBEDDED.length}`, 'Connection: close']), EMBEDDED]);
        expect(upstream.received.map((x) => [x.method, x.url, x.body.length])).to.deep.equal([
          [method, path, 0],
          [method, path, 0],
        ]);
        for (const got of upstream.received) {
          expect(got.headers).to.not.have.property('transfer-encoding');
          expect(got.headers['content-length'] ?? '0').to.equal('0');
        }
      });
    }

    it('when Content-Length and Transfer-Encoding conflict (or framing is otherwise ambiguous), then 400 in JSON and nothing is forwarded', async () => {
      const attacks = [
        [head('POST', subscriptions(), ['Content-Length: 4', 'Transfer-Encoding: chunked']), '0\r\n\r\n' + EMBEDDED],
        [head('DELETE', subscriptions(), ['Transfer-Encoding: chunked', 'Content-Length: 0']), chunked(EMBEDDED)],
        [head('POST', subscriptions(), ['Transfer-Encoding: gzip, chunked']), chunked(EMBEDDED)],
        [head('POST', subscriptions(), ['Transfer-Encoding: Chunked, chunked']), chunked(EMBEDDED)],
        [head('POST', subscriptions(), ['Transfer-Encoding: chunked', 'Transfer-Encoding: identity']), chunked(EMBEDDED)],
        [head('POST', subscriptions(), ['Content-Length: 5', 'Content-Length: 40']), EMBEDDED],
        [head('POST', subscriptions(), ['Transfer-Encoding : chunked']), chunked(EMBEDDED)],
        [head('POST', subscriptions(), ['Content-Length: +40']), EMBEDDED],
      ];
      for (const parts of attacks) {
        const r = await rawExchange(recorder.url, parts);
        expect(r.statuses, String(parts[0])).to.deep.equal([400]);
        expect(r.text).to.include('{"message":"Bad request"}');
        expect(r.closed).to.equal(true);
      }
      expect(upstream.received).to.deep.equal([]);
    });

    it('when requests are pipelined on one connection, then exactly those requests are forwarded, in order', async () => {
      const body = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/x' });
      await rawExchange(recorder.url, [
        head('POST', subscriptions(), [`Content-Length: ${body.length}`]) + body + head('DELETE', subscriptions(), ['Transfer-Encoding: chunked']) + chunked(body, 3).toString() + head('GET', '/public/v1/webpush.js', ['Connection: close']),
      ]);
      expect(upstream.received.map((x) => [x.method, x.body.toString()])).to.deep.equal([
        ['POST', body],
        ['DELETE', body],
        ['GET', ''],
      ]);
    });

    it('when more requests are in flight than the proxy has upstream connections, then the queued ones still carry their exact bodies', async () => {
      const slow = await startRecordingUpstream({ delayMs: 100 });
      const proxy = createPublicProxy({ target: slow.url, internalToken: 'token', clientOf: () => ({ address: '192.0.2.1' }), countryHeader: '', logger: silentLogger, maxSockets: 2 });
      const app = express().use(requestId).use(proxy.middleware);
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const bodies = Array.from({ length: 12 }, (_, i) => JSON.stringify({ endpoint: `https://fcm.googleapis.com/fcm/send/${i}` }));
        const statuses = await Promise.all(
          bodies.map((body, i) =>
            fetch(`${url}${subscriptions()}`, { method: i % 2 ? 'DELETE' : 'POST', body, signal: AbortSignal.timeout(10_000) }).then(async (r) => {
              await r.arrayBuffer();
              return r.status;
            }),
          ),
        );
        expect(statuses).to.deep.equal(bodies.map(() => 200));
        expect(slow.received.map((x) => x.body.toString()).sort()).to.deep.equal([...bodies].sort());
      } finally {
        server.closeAllConnections();
        server.close();
        proxy.close();
        await slow.close();
      }
    });

    it('when a body is over the 16 kB limit (declared or chunked), then 413 Request body too large and nothing is forwarded', async () => {
      const big = 'x'.repeat(16 * 1024 + 1);
      for (const parts of [
        [head('POST', subscriptions(), [`Content-Length: ${big.length}`]), big],
        [head('POST', subscriptions(), ['Transfer-Encoding: chunked']), chunked(big, 1000)],
      ]) {
        const r = await rawExchange(recorder.url, parts);
        expect(r.statuses).to.deep.equal([413]);
        expect(r.text).to.include('{"message":"Request body too large"}');
      }
      expect(upstream.received).to.deep.equal([]);
      const exact = 'y'.repeat(16 * 1024);
      await rawExchange(recorder.url, [head('POST', subscriptions(), ['Transfer-Encoding: chunked', 'Connection: close']), chunked(exact, 999)]);
      expect(upstream.received.map((x) => x.body.length)).to.deep.equal([exact.length]);
    });

    it('property: whatever method, body and framing a client uses, the delivery side sees exactly one request with the body the method allows', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'PUT'),
          fc.oneof(fc.constant(EMBEDDED), fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a).toString('latin1'))),
          fc.constantFrom('chunked', 'length', 'none'),
          fc.integer({ min: 1, max: 50 }),
          async (method, text, framing, chunkSize) => {
            upstream.received.length = 0;
            const body = Buffer.from(text, 'latin1');
            const framed =
              framing === 'chunked'
                ? [head(method, subscriptions(), ['Transfer-Encoding: chunked', 'Connection: close']), chunked(body, chunkSize)]
                : framing === 'length'
                  ? [head(method, subscriptions(), [`Content-Length: ${body.length}`, 'Connection: close']), body]
                  : [head(method, subscriptions(), ['Connection: close'])];
            const r = await rawExchange(recorder.url, framed, { quietMs: 300 });
            expect(r.statuses).to.have.length(1);
            expect(upstream.received).to.have.length(1);
            const got = upstream.received[0];
            const sent = framing === 'none' || ['GET', 'HEAD', 'OPTIONS'].includes(method) ? Buffer.alloc(0) : body;
            expect([got.method, got.url]).to.deep.equal([method, subscriptions()]);
            expect(got.body.equals(sent)).to.equal(true);
            expect(got.headers).to.not.have.property('transfer-encoding');
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('client address and country', () => {
    const forged = {
      'x-internal-auth': INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN.replace(/^./, 'A'),
      'x-client-address': '198.51.100.66',
      'x-client-country': 'FR',
      'x-forwarded-for': '203.0.113.9, 198.51.100.7',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      forwarded: 'for=203.0.113.9',
      'x-real-ip': '203.0.113.9',
      'cf-ipcountry': 'DE',
      cookie: 'session=secret',
      authorization: 'wpk_secret',
    };

    it('when an untrusted client sends internal, forwarding and country headers, then none reaches the delivery service and its socket address is the client', async () => {
      await request(recorder.url, 'POST', subscriptions(), { body: { subscription: browserSubscription() }, headers: forged, contract: false });
      const [got] = upstream.received;
      expect(got.headers['x-internal-auth']).to.equal(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN);
      expect(got.headers['x-client-address']).to.equal('127.0.0.1');
      expect(got.headers).to.not.have.property('x-client-country');
      for (const name of ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'cf-ipcountry', 'cookie', 'authorization']) {
        expect(got.headers, name).to.not.have.property(name);
      }
    });

    it('when the client lists internal headers in Connection, then they are dropped too (hop-by-hop)', async () => {
      await rawExchange(recorder.url, [head('POST', subscriptions(), ['Connection: close, x-custom-hop', 'X-Custom-Hop: 1', 'X-Kept: 1', 'Content-Length: 2']), '{}']);
      expect(upstream.received[0].headers).to.not.have.property('x-custom-hop');
      expect(upstream.received[0].headers).to.have.property('x-kept', '1');
    });

    it('when cf-ipcountry comes from an untrusted client, then the subscriber\'s country is unknown', async () => {
      const g = await stack.startGatewayWith({ COUNTRY_HEADER: 'cf-ipcountry' });
      const other = await stack.newSite(ALL_PERMISSIONS);
      const r = await request(g.url, 'POST', `/public/v1/sites/${other.publicId}/subscriptions`, { body: { subscription: browserSubscription() }, headers: { 'cf-ipcountry': 'DE', 'x-client-country': 'FR' } });
      expect(r.status).to.equal(201);
      expect((await request(g.url, 'GET', '/v2/countries', { key: other.key })).body).to.deep.equal([{ name: 'country__desconhecido', users: 1 }]);
    });

    it('when the request comes through a trusted proxy, then its X-Forwarded-For (walked from the right) and country are believed', async () => {
      const g = await stack.startGatewayWith({ DELIVERY_HTTP_URL: upstream.url, TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8, 2001:db8::/32', COUNTRY_HEADER: 'cf-ipcountry' });
      const cases: [Record<string, string>, string, string | undefined][] = [
        [{ 'x-forwarded-for': '203.0.113.9', 'cf-ipcountry': 'br' }, '203.0.113.9', 'BR'],
        [{ 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.1.2.3' }, '203.0.113.9', undefined],
        [{ 'x-forwarded-for': 'junk, 2001:db8::5, [2001:db8::6]:443' }, '2001:db8::5', undefined],
        [{ 'x-forwarded-for': '198.51.100.4:5555, 10.0.0.1' }, '198.51.100.4', undefined],
        [{ 'x-forwarded-for': '::ffff:198.51.100.5' }, '198.51.100.5', undefined],
        [{ 'x-forwarded-for': 'not an address', 'cf-ipcountry': 'XX' }, '127.0.0.1', undefined],
        [{ 'cf-ipcountry': 'T1' }, '127.0.0.1', undefined],
        [{ 'cf-ipcountry': 'XK' }, '127.0.0.1', 'XK'],
      ];
      for (const [headers, address, country] of cases) {
        upstream.received.length = 0;
        await request(g.url, 'POST', subscriptions(), { body: {}, headers, contract: false });
        const got = upstream.received[0].headers;
        expect([got['x-client-address'], got['x-client-country']], JSON.stringify(headers)).to.deep.equal([address, country]);
        expect(got).to.not.have.property('cf-ipcountry');
        expect(got).to.not.have.property('x-forwarded-for');
      }
    });

    it('when 700 tracking reports come with 700 different X-Forwarded-For, then they share the client\'s one bucket (429 after the limit)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 700; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            fetch(`${stack.gateway.url}/public/v1/events`, { method: 'POST', headers: { 'x-forwarded-for': `10.${i % 250}.${j}.1`, 'x-client-address': `10.9.${j}.1` }, body: '{"type":"click","token":"x"}' }).then(async (r) => {
              await r.arrayBuffer();
              return r.status;
            }),
          ),
        );
        statuses.push(...batch);
      }
      expect(statuses.filter((s) => s === 400)).to.have.length(5);
      expect(statuses.filter((s) => s === 429)).to.have.length(695);
    });

    it('when anyone but the gateway calls the delivery service with a forged client address, then 401', async () => {
      const r = await request(stack.deliveryHttpUrl, 'POST', subscriptions(), { body: { subscription: browserSubscription() }, headers: { 'x-client-address': '203.0.113.1', 'x-client-country': 'BR' }, contract: false });
      expect([r.status, r.body]).to.deep.equal([401, { message: 'Internal authentication required' }]);
    });
  });
});
