// Per-client rate limit on the plugin endpoints, over HTTP and on the limiter itself.
import { expect } from 'chai';
import { createFixedWindowLimiter } from '@webpush/shared/rate-limit.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from './support.js';

describe('delivery: subscribe rate limit', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let path: string;

  before(async () => {
    t = await startTestDelivery('rate_limit', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '3' });
    const site = await newSite(t);
    path = `/public/v1/sites/${site.publicId}/subscriptions`;
  });
  after(async () => {
    await t?.stop();
  });

  // The gateway names the visitor in x-client-address; a forwarding header is never read here.
  const subscribe = (client: string, spoofed = '10.0.0.1') =>
    request(t, 'POST', path, {
      body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() } },
      client,
      headers: { 'x-forwarded-for': spoofed, 'x-real-ip': spoofed },
    });

  it('when a client exceeds the limit, then 429 Too many requests with Retry-After, and another client is unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await subscribe('203.0.113.7')).status);
    expect(statuses).to.deep.equal([201, 201, 201]);
    const limited = await subscribe('203.0.113.7');
    expect(limited.status).to.equal(429);
    expect(limited.body).to.deep.equal({ message: 'Too many requests' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);
    expect(limited.headers.get('access-control-allow-origin')).to.equal('*');
    expect((await subscribe('198.51.100.9')).status).to.equal(201);
    const before = Number((await t.pool.query('SELECT count(*) FROM delivery.subscribers')).rows[0].count);
    expect((await subscribe('203.0.113.7', `10.9.9.${Math.floor(Math.random() * 200)}`)).status).to.equal(429, 'a forged forwarding header does not escape');
    expect(Number((await t.pool.query('SELECT count(*) FROM delivery.subscribers')).rows[0].count)).to.equal(before, 'a limited request stores nothing');
  });

  it('the limiter opens a new window after a minute and keeps at most maxEntries clients', () => {
    let now = 1_000_000;
    const limiter = createFixedWindowLimiter({ limit: 2, maxEntries: 100, now: () => now });
    expect(limiter.take('a')).to.deep.equal({ allowed: true });
    expect(limiter.take('a')).to.deep.equal({ allowed: true });
    now += 15_000;
    expect(limiter.take('a')).to.deep.equal({ allowed: false, retryAfterSeconds: 45 });
    now += 45_000;
    expect(limiter.take('a')).to.deep.equal({ allowed: true });

    for (let i = 0; i < 1000; i++) limiter.take(`client-${i}`);
    // 'a' was the oldest entry and has been evicted: it starts over with a fresh window.
    expect(limiter.take('a')).to.deep.equal({ allowed: true });
    expect(limiter.take('a')).to.deep.equal({ allowed: true });
    expect(limiter.take('a')).to.have.property('allowed', false);
    expect(limiter.take('client-999')).to.deep.equal({ allowed: true });
  });

  it('a limit of 0 turns the limiter off', () => {
    const limiter = createFixedWindowLimiter({ limit: 0 });
    for (let i = 0; i < 100; i++) expect(limiter.take('a').allowed).to.equal(true);
  });
});
