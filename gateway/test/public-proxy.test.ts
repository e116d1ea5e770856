// Component tests: /public/* is proxied to the real delivery service, untouched.
import net from 'node:net';
import { expect } from 'chai';
import { ALL_PERMISSIONS, browserSubscription, request, startStack, type Stack, type TestSite } from './support/stack.js';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('gateway: the public site-plugin proxy', () => {
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
  });
});
