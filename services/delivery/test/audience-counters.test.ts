// The precomputed audience counters against brute-force counts over the subscribers table.
import { expect } from 'chai';
import fc from 'fast-check';
import { createSubscriptions } from '../src/audience/subscriptions.js';
import {
  bruteForceGroups,
  bruteForceNames,
  bruteForceUnion,
  browserKeys,
  countAudience,
  newSite,
  pushEndpoint,
  sortedEntries,
  startTestDelivery,
  storedGroups,
  storedNames,
  type TestDelivery,
} from './support.js';

async function expectCountersExact(t: TestDelivery, siteId: string): Promise<void> {
  expect(sortedEntries(await storedNames(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceNames(t.pool, siteId)));
  expect(sortedEntries(await storedGroups(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceGroups(t.pool, siteId)));
  const { rows } = await t.pool.query(
    'SELECT (SELECT count(*) FROM delivery.audience_names WHERE users < 0) + (SELECT count(*) FROM delivery.audience_groups WHERE users < 0) AS n',
  );
  expect(Number(rows[0].n), 'no negative counter').to.equal(0);
}

describe('delivery: audience counters', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('counters');
  });
  after(async () => {
    await t?.stop();
  });

  it('when subscribers are inserted, reactivated, retopiced, deactivated and deleted, then the counters stay exact', async () => {
    const { siteId } = await newSite(t);
    const q = (sql: string, params: unknown[] = []) => t.pool.query(sql, [siteId, ...params]);
    await q(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, active)
       SELECT $1, 'https://127.0.0.1/e' || g, 'k', 'a',
              (ARRAY['country__br','country__us','country__desconhecido'])[1 + g % 3],
              CASE g % 4 WHEN 0 THEN ARRAY['a','b'] WHEN 1 THEN ARRAY['b','a'] WHEN 2 THEN ARRAY['c','c'] ELSE ARRAY['b','d'] END,
              g % 5 <> 0
         FROM generate_series(1, 300) g`,
    );
    await expectCountersExact(t, siteId);
    // reactivation
    await q(`UPDATE delivery.subscribers SET active = true WHERE site_id = $1 AND id % 2 = 0`);
    await expectCountersExact(t, siteId);
    // topic changes, including a repeated topic and an emptied set
    await q(`UPDATE delivery.subscribers SET topics = topics || ARRAY['z', 'a'] WHERE site_id = $1 AND id % 3 = 0`);
    await q(`UPDATE delivery.subscribers SET topics = '{}' WHERE site_id = $1 AND id % 7 = 0`);
    await expectCountersExact(t, siteId);
    // country change
    await q(`UPDATE delivery.subscribers SET country = 'country__pt' WHERE site_id = $1 AND id % 11 = 0`);
    await expectCountersExact(t, siteId);
    // deactivation
    await q(`UPDATE delivery.subscribers SET active = false WHERE site_id = $1 AND id % 4 = 1`);
    await expectCountersExact(t, siteId);
    // an update touching no counted column
    await q(`UPDATE delivery.subscribers SET updated_at = now() WHERE site_id = $1`);
    await expectCountersExact(t, siteId);
    // deletes
    await q(`DELETE FROM delivery.subscribers WHERE site_id = $1 AND id % 5 = 2`);
    await expectCountersExact(t, siteId);
    for (const [topics, countries] of [
      [['a'], []],
      [['a', 'b'], ['country__br']],
      [[], ['country__us', 'country__desconhecido']],
      [['z', 'c', 'd'], ['country__pt']],
      [['nope'], ['country__xx']],
    ] as [string[], string[]][]) {
      expect(await countAudience(t, siteId, topics, countries), `${topics} ∪ ${countries}`).to.equal(
        await bruteForceUnion(t.pool, siteId, topics, countries),
      );
    }
    await q('DELETE FROM delivery.subscribers WHERE site_id = $1');
    expect(await countAudience(t, siteId, ['a', 'b', 'c', 'd', 'z'], ['country__br', 'country__us', 'country__desconhecido', 'country__pt'])).to.equal(0);
    await expectCountersExact(t, siteId);
  });

  it('a subscriber in several of the named topics and countries is counted once', async () => {
    const { siteId } = await newSite(t);
    const subscriptions = createSubscriptions(t.pool, { pushServiceHosts: [], pushTestHosts: ['127.0.0.1'] });
    const publicId = (await t.pool.query('SELECT public_id FROM delivery.sites WHERE site_id = $1', [siteId])).rows[0].public_id;
    const subscribe = (topics: string[], code: string) =>
      subscriptions.subscribe(publicId, { subscription: { endpoint: pushEndpoint(), keys: browserKeys() }, topics }, code);
    await subscribe(['sport', 'news', 'tech'], 'BR');
    await subscribe(['sport'], 'US');
    await subscribe(['news'], 'BR');
    await subscribe([], 'AR');
    expect(await countAudience(t, siteId, ['sport', 'news', 'tech'], ['country__br'])).to.equal(3);
    expect(await countAudience(t, siteId, ['sport'], ['country__us'])).to.equal(2);
    expect(await countAudience(t, siteId, [], ['country__ar', 'country__br', 'country__us'])).to.equal(4);
    expect(await countAudience(t, siteId, ['SPORT ', 'sport'], ['BR'])).to.equal(3, 'names are normalised like the API does');
    expect(await countAudience(t, siteId, [], [])).to.equal(0);
  });

  it('when the same subscribers are written by concurrent requests, then no deadlock and the counters stay exact', async () => {
    const { siteId } = await newSite(t);
    const subscriptions = createSubscriptions(t.pool, { pushServiceHosts: [], pushTestHosts: ['127.0.0.1'] });
    const publicId = (await t.pool.query('SELECT public_id FROM delivery.sites WHERE site_id = $1', [siteId])).rows[0].public_id;
    const endpoints = Array.from({ length: 10 }, () => pushEndpoint());
    const topicsPool = ['a', 'b', 'c', 'd', 'e'];
    const writes = Array.from({ length: 80 }, (_, i) =>
      subscriptions.subscribe(
        publicId,
        { subscription: { endpoint: endpoints[i % endpoints.length], keys: browserKeys() }, topics: [topicsPool[i % 5], topicsPool[(i * 3) % 5]] },
        ['BR', 'US', 'PT'][i % 3],
      ),
    );
    await Promise.all(writes);
    await expectCountersExact(t, siteId);
  });

  it('property: after any sequence of subscribe, topic change, deactivate, reactivate and delete, counters equal a brute-force count', async () => {
    const subscriptions = createSubscriptions(t.pool, { pushServiceHosts: [], pushTestHosts: ['127.0.0.1'] });
    const topicArb = fc.subarray(['a', 'b', 'c', 'Sport', ' news '], { maxLength: 4 });
    const slot = fc.integer({ min: 0, max: 4 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('subscribe' as const), slot, topics: topicArb, code: fc.constantFrom('BR', 'us', 'x1', '') }),
      fc.record({ kind: fc.constant('setTopics' as const), slot, topics: topicArb }),
      fc.record({ kind: fc.constant('deactivate' as const), slot }),
      fc.record({ kind: fc.constant('reactivateAll' as const) }),
      fc.record({ kind: fc.constant('delete' as const), slot }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const site = await newSite(t);
        const endpoints = Array.from({ length: 5 }, () => pushEndpoint());
        for (const o of ops) {
          const endpoint = endpoints[o.kind === 'reactivateAll' ? 0 : o.slot];
          if (o.kind === 'subscribe') {
            await subscriptions.subscribe(site.publicId, { subscription: { endpoint, keys: browserKeys() }, topics: o.topics }, o.code);
          } else if (o.kind === 'setTopics') {
            await t.pool.query('UPDATE delivery.subscribers SET topics = $3 WHERE site_id = $1 AND endpoint = $2', [site.siteId, endpoint, o.topics.map((x) => x.trim().toLowerCase())]);
          } else if (o.kind === 'deactivate') {
            await subscriptions.unsubscribe(site.publicId, { endpoint });
          } else if (o.kind === 'reactivateAll') {
            await t.pool.query('UPDATE delivery.subscribers SET active = true WHERE site_id = $1', [site.siteId]);
          } else {
            await t.pool.query('DELETE FROM delivery.subscribers WHERE site_id = $1 AND endpoint = $2', [site.siteId, endpoint]);
          }
        }
        await expectCountersExact(t, site.siteId);
        expect(await countAudience(t, site.siteId, ['a', 'sport'], ['country__br'])).to.equal(await bruteForceUnion(t.pool, site.siteId, ['a', 'sport'], ['country__br']));
      }),
      { numRuns: 40 },
    );
  });
});
