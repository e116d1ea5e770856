// The delivery service's HTTP app serves only the gateway: without the gateway's token every
// request but the liveness probe is refused, and the visitor's address and country come only
// from the gateway's internal headers (never X-Forwarded-For, an edge header or the socket).
import { expect } from 'chai';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from './support.js';

describe('delivery: the HTTP app answers only the gateway', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let publicId: string;

  const subscribers = async () => Number((await t.pool.query('SELECT count(*) FROM delivery.subscribers')).rows[0].count);
  const subscription = () => ({ subscription: { endpoint: pushEndpoint(), keys: browserKeys() } });

  before(async () => {
    t = await startTestDelivery('gateway_only', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '2', TRACKING_RATE_LIMIT_PER_MINUTE: '3' });
    publicId = (await newSite(t)).publicId;
  });
  after(async () => {
    await t?.stop();
  });

  it('when a request has no token, a wrong one or the campaign service\'s, then 401 Internal authentication required and nothing is stored', async () => {
    const before = await subscribers();
    const tokens: (Record<string, string> | undefined)[] = [
      undefined,
      { 'x-internal-auth': '' },
      { 'x-internal-auth': 'x'.repeat(44) },
      { 'x-internal-auth': INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN },
      { 'x-internal-auth': INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN + 'x' },
      { 'x-internal-auth': 'x'.repeat(600) },
    ];
    const calls: [string, string, unknown][] = [
      ['POST', `/public/v1/sites/${publicId}/subscriptions`, subscription()],
      ['DELETE', `/public/v1/sites/${publicId}/subscriptions`, { endpoint: pushEndpoint() }],
      ['GET', `/public/v1/sites/${publicId}/config`, undefined],
      ['GET', '/public/v1/webpush-sw.js', undefined],
      ['POST', '/public/v1/events', { type: 'click', token: 'x' }],
      ['OPTIONS', `/public/v1/sites/${publicId}/subscriptions`, undefined],
      ['GET', '/readyz', undefined],
      ['GET', '/metrics', undefined],
      ['GET', '/nope', undefined],
    ];
    for (const headers of tokens) {
      for (const [method, path, body] of calls) {
        const res = await request(t, method, path, { body, asGateway: false, headers: { 'x-client-address': '198.51.100.1', 'x-client-country': 'BR', ...headers } });
        expect([method, path, res.status, res.body], JSON.stringify(headers)?.slice(0, 40)).to.deep.equal([method, path, 401, { message: 'Internal authentication required' }]);
      }
    }
    expect(await subscribers()).to.equal(before);
  });

  it('GET /healthz (liveness) needs no token', async () => {
    expect(await request(t, 'GET', '/healthz', { asGateway: false })).to.deep.include({ status: 200, body: { status: 'ok' } });
  });

  it('when the gateway names the visitor, then the limit counts per named visitor whatever X-Forwarded-For says', async () => {
    const path = `/public/v1/sites/${publicId}/subscriptions`;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(t, 'POST', path, { body: subscription(), client: '2001:db8::7', headers: { 'x-forwarded-for': `10.1.0.${i}` } });
      statuses.push(res.status);
    }
    expect(statuses).to.deep.equal([201, 201, 429]);
    // Another visitor behind the same gateway connection has an allowance of its own.
    expect((await request(t, 'POST', path, { body: subscription(), client: '2001:db8::8' })).status).to.equal(201);
  });

  it('when tracking reports carry many forwarded addresses for one visitor, then they share one bucket', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(t, 'POST', '/public/v1/events', { body: { type: 'impression', token: 'forged' }, client: '203.0.113.50', headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      statuses.push(res.status);
    }
    expect(statuses).to.deep.equal([400, 400, 400, 429, 429]);
  });

  it('when the gateway passes a malformed address, then those requests share one bucket instead of each getting a fresh one', async () => {
    const path = `/public/v1/sites/${publicId}/pageviews`;
    const statuses: number[] = [];
    for (const client of ['not-an-ip-1', 'not-an-ip-2', 'not-an-ip-3']) statuses.push((await request(t, 'POST', path, { body: { endpoint: pushEndpoint(), topics: [] }, client })).status);
    expect(statuses).to.deep.equal([200, 200, 429]);
  });
});
