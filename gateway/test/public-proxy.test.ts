// Component tests: /public/* is proxied to the real delivery service, untouched.
import net from 'node:net';
import { expect } from 'chai';
import { rawExchange } from './support/raw-socket.js';
import { ALL_PERMISSIONS, browserSubscription, request, startStack, type Stack, type TestSite } from './support/stack.js';

/** The plugin's CORS headers (packages/shared/src/plugin-cors.ts), as a browser needs them on every answer. */
function expectPluginCors(headers: Headers): void {
  expect(headers.get('access-control-allow-origin')).to.equal('*');
  expect(headers.get('access-control-expose-headers')).to.equal('Retry-After');
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('gateway: the public site-plugin proxy', function () {
  this.timeout(30_000);
  let stack: Stack;
  let site: TestSite;

  before(async () => {
    stack = await startStack('gw_proxy');
    site = await stack.newSite(ALL_PERMISSIONS);
  });
  after(async () => {
    await stack?.stop();
  });

  const path = () => `/public/v1/sites/${site.publicId}/subscriptions`;

  it('when a browser subscribes through the gateway, then the delivery service stores it and its topic is listed', async () => {
    const subscription = browserSubscription();
    const first = await stack.call('POST', path(), { body: { subscription, topics: ['Music'] }, headers: { 'X-Request-Id': 'plugin-1' } });
    expect(first.status).to.equal(201);
    expect(first.body).to.include({ created: true });
    expect(first.headers.get('x-request-id')).to.equal('plugin-1');
    const again = await stack.call('POST', path(), { body: { subscription, topics: ['music'] } });
    expect([again.status, (again.body as { created: boolean }).created]).to.deep.equal([200, false]);

    const topics = await stack.call('GET', '/v2/topics', { key: site.key });
    expect(topics.body).to.deep.equal([{ name: 'music', users: 1 }]);

    const removed = await stack.call('DELETE', path(), { body: { endpoint: subscription.endpoint } });
    expect([removed.status, removed.body]).to.deep.equal([200, { deactivated: true }]);
  });

  it('when the body is sent as text/plain (sendBeacon), then it still reaches the delivery service unparsed', async () => {
    const r = await stack.call('POST', path(), { body: JSON.stringify({ subscription: browserSubscription() }), headers: { 'Content-Type': 'text/plain;charset=UTF-8' } });
    expect(r.status).to.equal(201);
  });

  it("when the delivery service refuses the payload or the site, then its answer is passed through as is", async () => {
    const bad = await stack.call('POST', path(), { body: { subscription: { endpoint: 'https://evil.example/x', keys: { p256dh: 'a', auth: 'b' } } } });
    expect(bad.status).to.equal(400);
    expect((bad.body as { message: string }).message).to.match(/^subscription\.endpoint must be an https URL of a push service/);
    const unknown = await stack.call('POST', '/public/v1/sites/pub_AAAAAAAAAAAAAAAAAAAAAA/subscriptions', { body: { subscription: browserSubscription() } });
    expect([unknown.status, unknown.body]).to.deep.equal([404, { message: 'Site not found' }]);
    const broken = await stack.call('POST', path(), { body: '{"subscription":', headers: { 'Content-Type': 'application/json' } });
    expect([broken.status, broken.body]).to.deep.equal([400, { message: 'Invalid JSON body' }]);
  });

  it('when a browser sends a CORS preflight, then the delivery service answers it', async () => {
    const res = await fetch(`${stack.gateway.url}${path()}`, { method: 'OPTIONS', headers: { Origin: 'https://customer.example', 'Access-Control-Request-Method': 'POST' } });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('when the delivery service cannot be reached, then 502 Upstream unavailable in JSON', async () => {
    const port = await closedPort();
    const gateway = await stack.startGatewayWith({ DELIVERY_HTTP_URL: `http://127.0.0.1:${port}` });
    const r = await request(gateway.url, 'POST', path(), { body: { subscription: browserSubscription() } });
    expect([r.status, r.body]).to.deep.equal([502, { message: 'Upstream unavailable' }]);
    expectPluginCors(r.headers);
  });

  it('when the gateway refuses a /public request itself (413, 400 framing), then its answer carries the plugin\'s CORS headers', async () => {
    const big = await stack.call('POST', path(), { body: 'x'.repeat(16 * 1024 + 1), headers: { 'Content-Type': 'text/plain' }, contract: false });
    expect([big.status, big.body]).to.deep.equal([413, { message: 'Request body too large' }]);
    expectPluginCors(big.headers);
    const framing = await rawExchange(stack.gateway.url, [`POST ${path()} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`]);
    expect(framing.statuses).to.deep.equal([400]);
    expect(framing.text).to.match(/\r\naccess-control-allow-origin: \*\r\n/i);
  });

  it('when two requests come 6 s apart (past the delivery service\'s keep-alive), then both succeed', async () => {
    // The delivery service closes an idle connection after 5 s (+1 s): a gateway that kept it
    // could write the second request into it as it closes (ECONNRESET, 502, a lost report).
    const first = await stack.call('POST', path(), { body: { subscription: browserSubscription() } });
    await new Promise((r) => setTimeout(r, 6000));
    const second = await stack.call('POST', path(), { body: { subscription: browserSubscription() } });
    expect([first.status, second.status]).to.deep.equal([201, 201]);
  });

  it('when /public is proxied, then no deprecation warning is printed (DEP0060, util._extend in http-proxy)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const gateway = await stack.startGatewayWith({});
      expect((await request(gateway.url, 'GET', '/public/v1/webpush.js', { contract: false })).status).to.equal(200);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => (w as NodeJS.ErrnoException).code ?? w.message)).to.not.include('DEP0060');
  });
});
