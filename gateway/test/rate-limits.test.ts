// /v2 abuse limits over the real stack: per API key (429 + Retry-After), per client address for
// unknown keys (key guessing), in the order docs/api-decisions.md fixes; and the limiters alone
// with a fake clock.
import { expect } from 'chai';
import fc from 'fast-check';
import type { RunningGateway } from '../src/app.js';
import { createFailureLimiter, createTokenBucket } from '@webpush/shared/rate-limit.js';
import { ALL_PERMISSIONS, request, startStack, type Stack, type TestSite } from './support/stack.js';

const TOO_MANY = { message: 'Too many requests' };
const unknownKey = (i: number) => `wpk_${String(i).padStart(43, 'z')}`;

describe('gateway: /v2 rate limits', function () {
  this.timeout(60_000);
  let stack: Stack;
  let site: TestSite;
  let other: TestSite;
  let noReports: TestSite;

  before(async () => {
    stack = await startStack('gw_limits');
    site = await stack.newSite(ALL_PERMISSIONS);
    other = await stack.newSite(ALL_PERMISSIONS);
    noReports = await stack.newSite(['create']);
  });
  after(async () => {
    await stack?.stop();
  });

  describe('per API key', () => {
    let g: RunningGateway;
    before(async () => {
      // 60 a minute = one a second, 3 at once.
      g = await stack.startGatewayWith({ API_RATE_LIMIT_PER_MINUTE: '60', API_RATE_LIMIT_BURST: '3' });
    });

    it('when a key makes more calls than its burst, then 429 Too many requests with Retry-After, another key is unaffected, and the key recovers', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(g.url, 'GET', '/v2/topics', { key: site.key })).status);
      expect(statuses).to.deep.equal([200, 200, 200]);
      const limited = await request(g.url, 'POST', '/v2/campaigns', { key: site.key, body: {} });
      expect([limited.status, limited.body]).to.deep.equal([429, TOO_MANY]);
      expect(limited.headers.get('retry-after')).to.equal('1');
      expect(limited.headers.get('cache-control')).to.equal('no-store');
      expect(limited.headers.get('x-request-id')).to.be.a('string');
      expect((await request(g.url, 'GET', '/v2/topics', { key: other.key })).status).to.equal(200);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await request(g.url, 'GET', '/v2/topics', { key: site.key })).status).to.equal(200);
    });

    it('when a key is over its limit, then 429 comes before the plan check and the body checks (and nothing is created)', async () => {
      for (let i = 0; i < 3; i++) await request(g.url, 'GET', '/v2/topics', { key: noReports.key });
      const list = await request(g.url, 'POST', '/v2/campaigns', { key: noReports.key, body: {} });
      expect([list.status, list.body]).to.deep.equal([429, TOO_MANY]);
      const create = await request(g.url, 'POST', '/v2/campaign/create', { key: noReports.key, body: '{"title":', headers: { 'Content-Type': 'application/json' } });
      expect([create.status, create.body]).to.deep.equal([429, TOO_MANY]);
      const { rows } = await stack.pool.query('SELECT count(*)::int AS n FROM campaign.campaigns WHERE site_id = $1', [noReports.siteId]);
      expect(rows[0].n).to.equal(0);
    });

    it('when a call has no key, then 403 Not authorized whatever the limits', async () => {
      const r = await request(g.url, 'GET', '/v2/topics');
      expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
    });

    it('when a caller stays within its limit, then every answer is the spec\'s (plan refusal, empty audience list, 400)', async () => {
      const fresh = await stack.newSite(['create']);
      expect((await request(g.url, 'POST', '/v2/campaigns', { key: fresh.key, body: {} })).body).to.deep.equal({ message: 'This plan does not have permission to access campaign reports via API' });
      expect((await request(g.url, 'GET', '/v2/topics', { key: fresh.key })).body).to.deep.equal([]);
      expect((await request(g.url, 'POST', '/v2/campaign/create', { key: fresh.key, body: {} })).status).to.equal(400);
    });
  });

  describe('unknown keys per client address', () => {
    it('when a client presents more distinct unknown keys than allowed, then its further calls answer 429, even with a valid key, until the window ends', async () => {
      const g = await stack.startGatewayWith({ API_KEY_FAILURES_PER_MINUTE: '3' });
      for (let i = 0; i < 3; i++) {
        const r = await request(g.url, 'GET', '/v2/topics', { key: unknownKey(i) });
        expect([r.status, r.body]).to.deep.equal([403, { message: 'Not authorized' }]);
      }
      for (const key of [unknownKey(99), site.key]) {
        const r = await request(g.url, 'POST', '/v2/campaigns', { key, body: {} });
        expect([r.status, r.body]).to.deep.equal([429, TOO_MANY]);
        expect(Number(r.headers.get('retry-after'))).to.be.within(1, 60);
      }
      // A call without a key is still the spec's 403: it is no guess.
      expect((await request(g.url, 'GET', '/v2/topics')).status).to.equal(403);
    });

    it('when a client repeats the same wrong key, then it is one failure, not a lockout', async () => {
      const g = await stack.startGatewayWith({ API_KEY_FAILURES_PER_MINUTE: '2' });
      for (let i = 0; i < 10; i++) expect((await request(g.url, 'GET', '/v2/topics', { key: unknownKey(7) })).status).to.equal(403);
      expect((await request(g.url, 'GET', '/v2/topics', { key: site.key })).status).to.equal(200);
    });

    it('when guesses come through a trusted proxy, then each forwarded client has its own budget', async () => {
      const g = await stack.startGatewayWith({ API_KEY_FAILURES_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1' });
      const as = (client: string) => ({ 'X-Forwarded-For': client });
      for (let i = 0; i < 2; i++) await request(g.url, 'GET', '/v2/topics', { key: unknownKey(i), headers: as('203.0.113.1') });
      expect((await request(g.url, 'GET', '/v2/topics', { key: site.key, headers: as('203.0.113.1') })).status).to.equal(429);
      expect((await request(g.url, 'GET', '/v2/topics', { key: site.key, headers: as('203.0.113.2') })).status).to.equal(200);
    });

    it('when a client not trusted as a proxy sends X-Forwarded-For, then it cannot escape its budget', async () => {
      const g = await stack.startGatewayWith({ API_KEY_FAILURES_PER_MINUTE: '2' });
      for (let i = 0; i < 2; i++) await request(g.url, 'GET', '/v2/topics', { key: unknownKey(i), headers: { 'X-Forwarded-For': `198.51.100.${i}` } });
      expect((await request(g.url, 'GET', '/v2/topics', { key: site.key, headers: { 'X-Forwarded-For': '198.51.100.200' } })).status).to.equal(429);
    });

    it('when both limits are 0, then neither applies', async () => {
      const g = await stack.startGatewayWith({ API_KEY_FAILURES_PER_MINUTE: '0', API_RATE_LIMIT_PER_MINUTE: '0' });
      for (let i = 0; i < 40; i++) expect((await request(g.url, 'GET', '/v2/topics', { key: unknownKey(i) })).status).to.equal(403);
      for (let i = 0; i < 40; i++) expect((await request(g.url, 'GET', '/v2/topics', { key: other.key })).status).to.equal(200);
    });
  });
});

describe('gateway: the limiters', () => {
  it('token bucket: burst at once, then perMinute spread over the minute; Retry-After is the wait for one call', () => {
    let now = 1_000_000;
    const bucket = createTokenBucket({ perMinute: 6, burst: 2, now: () => now });
    expect(bucket.take('k')).to.deep.equal({ allowed: true });
    expect(bucket.take('k')).to.deep.equal({ allowed: true });
    expect(bucket.take('k')).to.deep.equal({ allowed: false, retryAfterSeconds: 10 });
    now += 4000;
    expect(bucket.take('k')).to.deep.equal({ allowed: false, retryAfterSeconds: 6 });
    now += 6000;
    expect(bucket.take('k')).to.deep.equal({ allowed: true });
    expect(bucket.take('other')).to.deep.equal({ allowed: true });
  });

  it('property: over any schedule, a token bucket never allows more than burst + perMinute × elapsed minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 300 }), (perMinute, burst, gaps) => {
        let now = 0;
        const bucket = createTokenBucket({ perMinute, burst, now: () => now });
        let allowed = 0;
        for (const gap of gaps) {
          now += gap;
          if (bucket.take('k').allowed) allowed++;
        }
        expect(allowed).to.be.at.most(burst + Math.floor((perMinute * now) / 60_000) + 1);
      }),
      { numRuns: 200 },
    );
  });

  it('failure limiter: distinct keys per client in a one-minute window; the window ends; memory is bounded', () => {
    let now = 0;
    const limiter = createFailureLimiter({ limit: 2, maxEntries: 50, now: () => now });
    limiter.fail('a', 'k1');
    limiter.fail('a', 'k1');
    expect(limiter.check('a')).to.deep.equal({ allowed: true });
    limiter.fail('a', 'k2');
    now += 15_000;
    expect(limiter.check('a')).to.deep.equal({ allowed: false, retryAfterSeconds: 45 });
    expect(limiter.check('b')).to.deep.equal({ allowed: true });
    now += 45_000;
    expect(limiter.check('a')).to.deep.equal({ allowed: true });
    // 'a' fails again, then 1,000 other clients push it out of the bounded map: it starts over.
    limiter.fail('a', 'k1');
    limiter.fail('a', 'k2');
    for (let i = 0; i < 1000; i++) limiter.fail(`c${i}`, 'k');
    expect(limiter.check('a')).to.deep.equal({ allowed: true });
  });

  it('a limit of 0 turns either limiter off', () => {
    const bucket = createTokenBucket({ perMinute: 0, burst: 1 });
    const failures = createFailureLimiter({ limit: 0 });
    for (let i = 0; i < 100; i++) {
      expect(bucket.take('k').allowed).to.equal(true);
      failures.fail('a', `k${i}`);
      expect(failures.check('a').allowed).to.equal(true);
    }
  });
});
