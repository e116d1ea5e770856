// Slow and greedy clients cannot hold the gateway: header and whole-request timeouts (slowloris,
// slow bodies), keep-alive and idle sockets, and the connection cap, each configured small here
// and each wait bounded. A timed-out request gets 408 in JSON when it can.
import net from 'node:net';
import { expect } from 'chai';
import type { RunningGateway } from '../src/app.js';
import { rawExchange } from './support/raw-socket.js';
import { ALL_PERMISSIONS, request, startStack, type Stack, type TestSite } from './support/stack.js';

describe('gateway: slow clients and connection caps', function () {
  this.timeout(30_000);
  let stack: Stack;
  let site: TestSite;
  let g: RunningGateway;

  before(async () => {
    stack = await startStack('gw_slow');
    site = await stack.newSite(ALL_PERMISSIONS);
    g = await stack.startGatewayWith({
      GATEWAY_HEADERS_TIMEOUT_MS: '400',
      GATEWAY_REQUEST_TIMEOUT_MS: '800',
      GATEWAY_KEEP_ALIVE_TIMEOUT_MS: '300',
      GATEWAY_SOCKET_IDLE_TIMEOUT_MS: '2000',
    });
  });
  after(async () => {
    await stack?.stop();
  });

  const REQUEST_TIMEOUT = '{"message":"Request timeout"}';

  it('when a client trickles its headers (slowloris), then it gets 408 Request timeout and is disconnected after the headers timeout', async () => {
    const lines = ['GET /v2/topics HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
    const r = await rawExchange(g.url, lines, { gapMs: 100, maxMs: 5000 });
    expect(r.closed).to.equal(true);
    expect(r.statuses).to.deep.equal([408]);
    expect(r.text).to.include(REQUEST_TIMEOUT);
    expect(r.ms).to.be.within(300, 2000);
  });

  it('when a client connects and sends nothing, then the connection is closed after the headers timeout', async () => {
    const r = await rawExchange(g.url, [], { quietMs: 5000, maxMs: 5000 });
    expect(r.closed).to.equal(true);
    expect(r.ms).to.be.below(2000);
  });

  for (const [name, path, headers, cors] of [
    ['a /public body', '/public/v1/sites/x/subscriptions', [], true],
    ['a /v2 body (valid key)', '/v2/campaigns', ['Authorization: KEY'], false],
  ] as const) {
    it(`when ${name} arrives slowly, then 408 and the connection is closed after the request timeout`, async () => {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n${headers.map((h) => h.replace('KEY', site.key) + '\r\n').join('')}\r\n`;
      const r = await rawExchange(g.url, [head, ...Array.from({ length: 100 }, () => ' ')], { gapMs: 50, maxMs: 5000 });
      expect(r.closed).to.equal(true);
      expect(r.statuses).to.deep.equal([408]);
      expect(r.text).to.include(REQUEST_TIMEOUT);
      // A browser sees a /public status only with the plugin's CORS headers.
      expect(/\r\naccess-control-allow-origin: \*\r\n/i.test(r.text)).to.equal(cors);
      expect(r.ms).to.be.within(600, 3000);
    });
  }

  it('when a keep-alive connection stays idle after an answer, then it is closed after the keep-alive timeout', async () => {
    const r = await rawExchange(g.url, [`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`], { quietMs: 3000, maxMs: 3000 });
    expect(r.statuses).to.deep.equal([200]);
    expect(r.closed).to.equal(true);
    expect(r.ms).to.be.below(2500); // Node adds up to a second to the keep-alive timeout
  });

  it('while slow clients are being cut off, other clients are served at once', async () => {
    const slow = Array.from({ length: 20 }, () => rawExchange(g.url, ['GET /v2/topics HTTP/1.1\r\n', 'Host: x\r\n', 'X-A: 1\r\n', 'X-B: 1\r\n', 'X-C: 1\r\n', 'X-D: 1\r\n', 'X-E: 1\r\n'], { gapMs: 150, maxMs: 5000 }));
    const started = Date.now();
    const fast = await request(g.url, 'GET', '/v2/topics', { key: site.key });
    expect(fast.status).to.equal(200);
    expect(Date.now() - started).to.be.below(1000);
    for (const r of await Promise.all(slow)) expect(r.closed).to.equal(true);
  });

  it('when GATEWAY_MAX_CONNECTIONS are open, then a further connection is dropped until one closes', async () => {
    const capped = await stack.startGatewayWith({ GATEWAY_MAX_CONNECTIONS: '2' });
    const { port } = new URL(capped.url);
    const open = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
        s.on('error', reject);
      });
    const held = [await open(), await open()];
    // Half a request each, so both connections stay in use.
    for (const s of held) s.write('GET /healthz HTTP/1.1\r\n');
    await new Promise((r) => setTimeout(r, 100));
    const third = await rawExchange(capped.url, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], { maxMs: 3000 });
    expect(third.closed).to.equal(true);
    expect(third.statuses).to.deep.equal([]);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await request(capped.url, 'GET', '/healthz', { contract: false })).status).to.equal(200);
  });
});
