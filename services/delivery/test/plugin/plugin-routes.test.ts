// The site plugin's HTTP routes over a real delivery service: the two scripts and their cache
// headers, the site configuration, and page views merging a page's topics into a subscriber's.
import { expect } from 'chai';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { assertResponseMatchesContract } from '../../../../test/support/openapi.js';
import { MESSAGES } from '../../src/audience/subscription-input.js';
import {
  browserKeys,
  bruteForceGroups,
  bruteForceNames,
  listTopics,
  newSite,
  pushEndpoint,
  request,
  sortedEntries,
  startTestDelivery,
  storedGroups,
  storedNames,
  type HttpAnswer,
  type TestDelivery,
} from '../support.js';

describe('delivery: site plugin routes', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let site: { siteId: string; publicId: string };

  /** Every answer of a documented /public path must match the contract. */
  const call = async (method: string, path: string, opts: Parameters<typeof request>[3] = {}): Promise<HttpAnswer> => {
    const res = await request(t, method, path, opts);
    assertResponseMatchesContract(method, path, res.status, res.body);
    return res;
  };
  const subscribe = async (topics: string[], endpoint = pushEndpoint()) => {
    const res = await call('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint, keys: browserKeys() }, topics },
    });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    return { endpoint, id: res.body.id as string };
  };
  const topicsOf = async (id: string): Promise<string[]> =>
    (await t.pool.query('SELECT topics FROM delivery.subscribers WHERE public_id = $1', [id])).rows[0].topics;
  const pageView = (body: unknown, publicId = site.publicId) => call('POST', `/public/v1/sites/${publicId}/pageviews`, { body });
  const expectCountersExact = async () => {
    expect(sortedEntries(await storedNames(t.pool, site.siteId))).to.deep.equal(sortedEntries(await bruteForceNames(t.pool, site.siteId)));
    expect(sortedEntries(await storedGroups(t.pool, site.siteId))).to.deep.equal(sortedEntries(await bruteForceGroups(t.pool, site.siteId)));
  };

  before(async () => {
    t = await startTestDelivery('plugin_routes', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await newSite(t);
  });
  after(async () => {
    await t?.stop();
  });

  describe('scripts', () => {
    it('serves the snippet as JavaScript cached publicly for an hour, with CORS open and an ETag', async () => {
      const res = await call('GET', '/public/v1/webpush.js');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=3600');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('etag')).to.match(/^"[A-Za-z0-9_-]+"$/);
      expect(res.body).to.be.a('string').and.include('data-site');
    });

    it('serves the service worker uncached with Service-Worker-Allowed: /', async () => {
      const res = await call('GET', '/public/v1/webpush-sw.js');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(res.headers.get('service-worker-allowed')).to.equal('/');
      expect(res.body).to.be.a('string').and.include("addEventListener('push'");
    });

    it("serves the opt-in prompt's script as the snippet is served", async () => {
      const res = await call('GET', '/public/v1/webpush-prompt.js');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=3600');
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.body).to.be.a('string').and.include('role');
    });

    // docs/site-plugin.md, "Size budget": what every page of a site loads stays small, and the
    // prompt, loaded only by sites that show one, too. Gzip at its default level, as served by a CDN.
    it('the snippet and the prompt script stay within their gzipped size budgets (8192 and 4096 bytes)', async () => {
      const budgets: Record<string, number> = { '/public/v1/webpush.js': 8192, '/public/v1/webpush-prompt.js': 4096 };
      for (const [path, budget] of Object.entries(budgets)) {
        const res = await call('GET', path);
        const gzipped = gzipSync(Buffer.from(res.body as string, 'utf8')).length;
        expect(gzipped, `${path}: ${gzipped} bytes gzipped`).to.be.at.most(budget);
      }
    });

    it('when the browser already has the current copy, then 304 without a body', async () => {
      for (const path of ['/public/v1/webpush.js', '/public/v1/webpush-prompt.js', '/public/v1/webpush-sw.js']) {
        const first = await call('GET', path);
        const again = await call('GET', path, { headers: { 'if-none-match': `"other", ${first.headers.get('etag')}` } });
        expect(again.status, path).to.equal(304);
        expect(again.body, path).to.equal(undefined);
        const stale = await call('GET', path, { headers: { 'if-none-match': '"stale"' } });
        expect(stale.status, path).to.equal(200);
      }
    });

    it('every script is plain browser JavaScript that parses without a build step', async () => {
      for (const path of ['/public/v1/webpush.js', '/public/v1/webpush-prompt.js', '/public/v1/webpush-sw.js']) {
        const res = await call('GET', path);
        expect(() => new vm.Script(res.body as string, { filename: path }), path).not.to.throw();
        expect(res.body as string, path).not.to.match(/^\s*(import|export)\s/m);
      }
    });
  });

  describe('site configuration', () => {
    it("answers the site's VAPID public key, briefly cacheable", async () => {
      const { vapidPublicKey } = await t.operators.registerSite(site);
      const res = await call('GET', `/public/v1/sites/${site.publicId}/config`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ publicId: site.publicId, vapidPublicKey });
      expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('when the public id names no site, or is not a public id at all, then 404 Site not found', async () => {
      for (const publicId of ['pub_AAAAAAAAAAAAAAAAAAAAAA', 'no%20such%20site', 'x'.repeat(300)]) {
        const res = await request(t, 'GET', `/public/v1/sites/${publicId}/config`);
        expect(res.status, publicId).to.equal(404);
        expect(res.body, publicId).to.deep.equal({ message: 'Site not found' });
      }
    });
  });

  describe('page views', () => {
    it("when a subscriber reads a page, then the page's topics join theirs (lowercased) and the counters follow", async () => {
      const s = await subscribe(['news']);
      const res = await pageView({ endpoint: s.endpoint, topics: [' Sports ', 'FOOTBALL', 'football'] });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ updated: true });
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(await topicsOf(s.id)).to.deep.equal(['football', 'news', 'sports']);
      const topics = await listTopics(t, site.siteId);
      expect(topics).to.deep.include({ name: 'sports', users: 1 });
      expect(topics).to.deep.include({ name: 'football', users: 1 });
      await expectCountersExact();
    });

    it('when the page has no topics or only known ones, then nothing changes and the subscriber is confirmed', async () => {
      const s = await subscribe(['alpha', 'beta']);
      const before = (await t.pool.query('SELECT updated_at FROM delivery.subscribers WHERE public_id = $1', [s.id])).rows[0].updated_at;
      for (const topics of [[], ['ALPHA'], undefined]) {
        const res = await pageView(topics === undefined ? { endpoint: s.endpoint } : { endpoint: s.endpoint, topics });
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ updated: true });
      }
      expect(await topicsOf(s.id)).to.deep.equal(['alpha', 'beta']);
      const after = (await t.pool.query('SELECT updated_at FROM delivery.subscribers WHERE public_id = $1', [s.id])).rows[0].updated_at;
      expect(after.getTime()).to.equal(before.getTime());
    });

    it('when a subscriber would exceed 20 topics, then the most recent page topics are kept first', async () => {
      const old = Array.from({ length: 20 }, (_, i) => `old${String(i).padStart(2, '0')}`);
      const s = await subscribe(old);
      const fresh = ['zz-new-1', 'zz-new-2', 'aa-new-3'];
      await pageView({ endpoint: s.endpoint, topics: fresh });
      const topics = await topicsOf(s.id);
      expect(topics).to.have.length(20);
      expect(topics).to.include.members(fresh);
      expect(topics).to.deep.equal([...topics].sort());
      expect(topics.filter((x) => x.startsWith('old'))).to.deep.equal(old.slice(0, 17));
      await expectCountersExact();
    });

    it('when the endpoint is unknown or unsubscribed, then updated: false and nothing is stored', async () => {
      const unknown = await pageView({ endpoint: pushEndpoint(), topics: ['sports'] });
      expect(unknown.status).to.equal(200);
      expect(unknown.body).to.deep.equal({ updated: false });
      const s = await subscribe(['gone']);
      const removed = await call('DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: s.endpoint } });
      expect(removed.body).to.deep.equal({ deactivated: true });
      const inactive = await pageView({ endpoint: s.endpoint, topics: ['sports'] });
      expect(inactive.body).to.deep.equal({ updated: false });
      expect(await topicsOf(s.id)).to.deep.equal(['gone']);
      await expectCountersExact();
    });

    it('when the body is invalid, then 400 with every message in order and nothing changes', async () => {
      const s = await subscribe(['stable']);
      const cases: [unknown, string][] = [
        [{}, MESSAGES.endpointString],
        [{ endpoint: 42, topics: ['a'] }, MESSAGES.endpointString],
        [{ endpoint: 'x'.repeat(2049) }, MESSAGES.endpointString],
        [{ endpoint: s.endpoint, topics: 'sports' }, MESSAGES.topics],
        [{ endpoint: s.endpoint, topics: Array.from({ length: 21 }, (_, i) => `t${i}`) }, MESSAGES.topics],
        [{ endpoint: s.endpoint, topics: ['ok', ''] }, MESSAGES.topics],
        [{ endpoint: s.endpoint, topics: ['y'.repeat(65)] }, MESSAGES.topics],
        [{ endpoint: s.endpoint, topics: [7] }, MESSAGES.topics],
        [{ endpoint: s.endpoint, topics: ['Country__BR'] }, MESSAGES.topicPrefix],
        [{ topics: ['country__br', ''] }, `${MESSAGES.endpointString}, ${MESSAGES.topicPrefix}, ${MESSAGES.topics}`],
      ];
      for (const [body, message] of cases) {
        const res = await pageView(body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect(res.body, JSON.stringify(body).slice(0, 80)).to.deep.equal({ message });
      }
      for (const raw of ['', 'not json', '[1,2]', 'null']) {
        const res = await call('POST', `/public/v1/sites/${site.publicId}/pageviews`, { raw, headers: { 'content-type': 'text/plain' } });
        expect(res.status, raw).to.equal(400);
        expect(res.body, raw).to.deep.equal({ message: 'Invalid JSON body' });
      }
      const huge = await call('POST', `/public/v1/sites/${site.publicId}/pageviews`, { raw: JSON.stringify({ endpoint: 'x'.repeat(20_000) }) });
      expect(huge.status).to.equal(413);
      expect(await topicsOf(s.id)).to.deep.equal(['stable']);
    });

    it('reads JSON sent as text/plain (the snippet avoids a CORS preflight)', async () => {
      const s = await subscribe([]);
      const res = await call('POST', `/public/v1/sites/${site.publicId}/pageviews`, {
        raw: JSON.stringify({ endpoint: s.endpoint, topics: ['plain'] }),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      });
      expect(res.body).to.deep.equal({ updated: true });
      expect(await topicsOf(s.id)).to.deep.equal(['plain']);
    });

    it('when the site is unknown, then 404 Site not found', async () => {
      const res = await pageView({ endpoint: pushEndpoint(), topics: ['a'] }, 'pub_AAAAAAAAAAAAAAAAAAAAAA');
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ message: 'Site not found' });
    });

    it("a page view only ever touches the subscriber of that site with that endpoint", async () => {
      const other = await newSite(t);
      const endpoint = pushEndpoint();
      const mine = await subscribe(['mine'], endpoint);
      const theirs = await call('POST', `/public/v1/sites/${other.publicId}/subscriptions`, {
        body: { subscription: { endpoint, keys: browserKeys() }, topics: ['theirs'] },
      });
      await pageView({ endpoint, topics: ['read'] });
      expect(await topicsOf(mine.id)).to.deep.equal(['mine', 'read']);
      expect(await topicsOf(theirs.body.id)).to.deep.equal(['theirs']);
    });
  });

  describe('subscription changes (pushsubscriptionchange)', () => {
    const change = (body: unknown, publicId = site.publicId) => call('POST', `/public/v1/sites/${publicId}/subscription-changes`, { body });
    const row = async (id: string) =>
      (await t.pool.query('SELECT topics, country, language, declarative, active FROM delivery.subscribers WHERE public_id = $1', [id])).rows[0];

    it("when the browser replaced a subscription, then the new subscriber takes over the old one's topics, country and declarative flag and the old one is retired", async () => {
      const old = await subscribe(['sports', 'politics']);
      // The old subscription's browser showed Declarative Web Push messages; the worker re-subscribes without saying so.
      await t.pool.query(`UPDATE delivery.subscribers SET country = 'country__br', language = 'pt-BR', declarative = true WHERE public_id = $1`, [old.id]);
      const next = await subscribe([]);
      const res = await change({ oldEndpoint: old.endpoint, endpoint: next.endpoint });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body).to.deep.equal({ replaced: true });
      expect(await row(next.id)).to.deep.equal({ topics: ['politics', 'sports'], country: 'country__br', language: 'pt-BR', declarative: true, active: true });
      expect((await row(old.id)).active).to.equal(false);
      await expectCountersExact();
      // Done once: the old one is no longer active, so a repeat changes nothing.
      expect((await change({ oldEndpoint: old.endpoint, endpoint: next.endpoint })).body).to.deep.equal({ replaced: false });
    });

    it("keeps the new subscriber's own topics first when more than 20 would remain", async () => {
      const oldTopics = Array.from({ length: 20 }, (_, i) => `old${String(i).padStart(2, '0')}`);
      const old = await subscribe(oldTopics);
      const next = await subscribe(['fresh', 'zzz']);
      expect((await change({ oldEndpoint: old.endpoint, endpoint: next.endpoint })).body).to.deep.equal({ replaced: true });
      const topics = (await row(next.id)).topics as string[];
      expect(topics).to.deep.equal(['fresh', ...oldTopics.slice(0, 18), 'zzz']);
      await expectCountersExact();
    });

    it('when either endpoint is not an active subscription of the site, then replaced: false and nothing changes', async () => {
      const old = await subscribe(['kept']);
      const unknownNew = await change({ oldEndpoint: old.endpoint, endpoint: pushEndpoint() });
      expect(unknownNew.body).to.deep.equal({ replaced: false });
      expect(await row(old.id)).to.include({ active: true });
      const next = await subscribe([]);
      expect((await change({ oldEndpoint: pushEndpoint(), endpoint: next.endpoint })).body).to.deep.equal({ replaced: false });
      const other = await newSite(t);
      const foreign = await call('POST', `/public/v1/sites/${other.publicId}/subscriptions`, {
        body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() }, topics: ['theirs'] },
      });
      expect(foreign.status).to.equal(201);
      const foreignEndpoint = (await t.pool.query('SELECT endpoint FROM delivery.subscribers WHERE public_id = $1', [foreign.body.id])).rows[0].endpoint;
      expect((await change({ oldEndpoint: foreignEndpoint, endpoint: next.endpoint })).body).to.deep.equal({ replaced: false });
      expect((await change({ oldEndpoint: old.endpoint, endpoint: foreignEndpoint })).body).to.deep.equal({ replaced: false });
      expect(await row(old.id)).to.include({ active: true });
      expect((await row(next.id)).topics).to.deep.equal([]);
      expect(await row(foreign.body.id)).to.deep.include({ active: true, topics: ['theirs'] });
      await expectCountersExact();
    });

    it('when the body is invalid, then 400 with every message in order; an unknown site answers 404', async () => {
      const s = await subscribe(['stable']);
      const cases: [unknown, string][] = [
        [{}, `${MESSAGES.oldEndpoint}, ${MESSAGES.endpointString}`],
        [{ oldEndpoint: s.endpoint }, MESSAGES.endpointString],
        [{ oldEndpoint: 7, endpoint: s.endpoint }, MESSAGES.oldEndpoint],
        [{ oldEndpoint: s.endpoint, endpoint: 'x'.repeat(2049) }, MESSAGES.endpointString],
        [{ oldEndpoint: '', endpoint: s.endpoint }, MESSAGES.oldEndpoint],
        [{ oldEndpoint: s.endpoint, endpoint: s.endpoint }, MESSAGES.sameEndpoints],
      ];
      for (const [body, message] of cases) {
        const res = await change(body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect(res.body, JSON.stringify(body).slice(0, 80)).to.deep.equal({ message });
      }
      for (const raw of ['', 'not json', '[1]']) {
        const res = await call('POST', `/public/v1/sites/${site.publicId}/subscription-changes`, { raw, headers: { 'content-type': 'text/plain' } });
        expect(res.status, raw).to.equal(400);
        expect(res.body, raw).to.deep.equal({ message: 'Invalid JSON body' });
      }
      const missing = await change({ oldEndpoint: s.endpoint, endpoint: pushEndpoint() }, 'pub_AAAAAAAAAAAAAAAAAAAAAA');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: 'Site not found' });
      expect(await row(s.id)).to.deep.include({ active: true, topics: ['stable'] });
    });
  });

  describe('rate limit', () => {
    let limited: TestDelivery;
    let limitedSite: { siteId: string; publicId: string };
    before(async () => {
      limited = await startTestDelivery('plugin_limit', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '2' });
      limitedSite = await newSite(limited);
    });
    after(async () => {
      await limited?.stop();
    });

    it('when one address sends too many page views, then 429 with Retry-After, and subscribing keeps its own allowance', async () => {
      const path = `/public/v1/sites/${limitedSite.publicId}/pageviews`;
      const answers: HttpAnswer[] = [];
      for (let i = 0; i < 3; i++) answers.push(await request(limited, 'POST', path, { body: { endpoint: pushEndpoint(), topics: [] } }));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 429]);
      assertResponseMatchesContract('POST', path, 429, answers[2].body);
      expect(answers[2].body).to.deep.equal({ message: 'Too many requests' });
      expect(Number(answers[2].headers.get('retry-after'))).to.be.within(1, 60);
      const sub = await request(limited, 'POST', `/public/v1/sites/${limitedSite.publicId}/subscriptions`, {
        body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() } },
      });
      expect(sub.status).to.equal(201);
    });
  });
});
