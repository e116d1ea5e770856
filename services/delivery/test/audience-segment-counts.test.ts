// The audience groups' per-profile counts (migrations/20261205140000_audience_group_profiles.sql):
// counts of topics ∪ countries narrowed by a segment's static conditions, answered from the
// counters, against a brute-force count over the subscribers table (segment-sql.ts segmentSql,
// the sender's own conditions), after any sequence of bulk inserts (the import and seed path),
// subscribes, attribute changes, unsubscribes, reactivations, topic merges and deletes, and
// after concurrent writes that number new profiles at once.
import { expect } from 'chai';
import fc from 'fast-check';
import * as grpc from '@grpc/grpc-js';
import { randomBytes } from 'node:crypto';
import { createSubscriptions } from '../src/audience/subscriptions.js';
import { insertNewSubscribers } from '../src/audience/subscriber-store.js';
import { createTopicMaintenance } from '../src/audience/topic-maintenance.js';
import { segmentSql } from '../src/audience/segment-sql.js';
import { createAudience } from '../src/audience/audience.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { effectiveZone } from '@webpush/contracts/local-time.js';
import { migrate, type Pool } from '@webpush/shared/db.js';
import path from 'node:path';
import { ROOT } from '../../../scripts/lib/local-env.js';
import { browserKeys, newSite, pushEndpoint, startTestDelivery, type TestDelivery } from './support.js';

const TOPICS = ['a', 'b', 'c', 'd'];
const COUNTRIES = ['country__br', 'country__us', 'country__pt'];
const LANGUAGES = ['pt-BR', 'PT', 'pt-pt', 'en-US', 'es', null];
/** Asia/Calcutta: a stored name that is not its zone's one name (Asia/Kolkata); segments match it too. */
const ZONES = ['America/Sao_Paulo', 'Europe/Lisbon', 'Asia/Tokyo', 'Asia/Calcutta', null];
const HOSTS = ['https://fcm.googleapis.com/fcm/send/', 'https://updates.push.services.mozilla.com/wpush/v2/', 'https://web.push.apple.com/', 'https://127.0.0.1/'];

interface Answer {
  users: number;
  zones: { name: string; users: number }[];
  defaultTimeZone: string;
}

function countWithZones(t: TestDelivery, siteId: string, topics: string[], countries: string[], segment: Segment | null): Promise<Answer> {
  return new Promise((resolve, reject) =>
    t.audience.CountAudience(
      { siteId, topics, countries, segmentJson: segment ? JSON.stringify(segment) : '', withZones: true },
      (err: grpc.ServiceError | null, res?: { users: string | number; zones: { name: string; users: string | number }[]; defaultTimeZone: string }) =>
        err
          ? reject(err)
          : resolve({ users: Number(res!.users), zones: res!.zones.map((z) => ({ name: z.name, users: Number(z.users) })), defaultTimeZone: res!.defaultTimeZone }),
    ),
  );
}

/** The same audience counted over the subscribers, by effective zone (local-time.ts effectiveZone: its one name; the site's default for none). */
async function bruteForce(pool: Pool, siteId: string, topics: string[], countries: string[], segment: Segment | null, defaultZone: string) {
  const narrowed = segmentSql(segment, 4);
  const { rows } = await pool.query(
    `SELECT s.time_zone AS zone FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}`,
    [siteId, countries, topics, ...narrowed.params],
  );
  const zones = new Map<string, number>();
  for (const r of rows) zones.set(effectiveZone(r.zone, defaultZone), (zones.get(effectiveZone(r.zone, defaultZone)) ?? 0) + 1);
  return { users: rows.length, zones };
}

/**
 * The groups' per-profile counts against a GROUP BY over the subscribers: same keys, same counts
 * (zeros aside); each group's users the sum of its counts; the site's profile numbers 1…n, and
 * no count under a number that names no profile.
 */
async function expectCountsExact(pool: Pool, siteId: string): Promise<void> {
  const { rows } = await pool.query(
    `WITH truth AS (
       SELECT coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
              country, delivery.topic_set(topics) AS topics, count(*) AS users
         FROM delivery.subscribers WHERE site_id = $1 AND active GROUP BY 1, 2, 3, 4, 5),
     entries AS (
       SELECT g.country, g.topics, u.n::bigint AS users, u.id
         FROM delivery.audience_groups g CROSS JOIN LATERAL unnest(g.counts) WITH ORDINALITY AS u(n, id)
        WHERE g.site_id = $1 AND u.n <> 0),
     kept AS (
       SELECT p.language, p.time_zone, p.browser, e.country, e.topics, e.users
         FROM entries e JOIN delivery.audience_profile_ids p ON p.site_id = $1 AND p.id = e.id)
     SELECT (SELECT count(*) FROM (TABLE truth EXCEPT TABLE kept) x) + (SELECT count(*) FROM (TABLE kept EXCEPT TABLE truth) y) AS differ,
            (SELECT count(*) FROM entries) - (SELECT count(*) FROM kept) AS unnumbered,
            (SELECT count(*) FROM delivery.audience_groups g WHERE site_id = $1
               AND users <> (SELECT coalesce(sum(n), 0) FROM unnest(g.counts) AS n)) AS groups_differ,
            (SELECT coalesce(max(id), 0) - count(*) FROM delivery.audience_profile_ids WHERE site_id = $1) AS gaps`,
    [siteId],
  );
  expect(Number(rows[0].differ), 'per-profile counts differing from the subscribers').to.equal(0);
  expect(Number(rows[0].unnumbered), 'counts under no profile').to.equal(0);
  expect(Number(rows[0].groups_differ), 'groups whose users are not the sum of their counts').to.equal(0);
  expect(Number(rows[0].gaps), 'profile numbers 1…n').to.equal(0);
}

const segmentArb: fc.Arbitrary<Segment | null> = fc.option(
  fc
    .record(
      {
        languages: fc.subarray(['pt', 'pt-br', 'en', 'es', 'fr'], { minLength: 1 }),
        timeZones: fc.subarray(['America/Sao_Paulo', 'Europe/Lisbon', 'Asia/Tokyo', 'Asia/Kolkata'], { minLength: 1 }),
        utcOffset: fc.tuple(fc.integer({ min: -720, max: 840 }), fc.integer({ min: -720, max: 840 })).map(([x, y]) => ({ min: Math.min(x, y), max: Math.max(x, y) })),
        browsers: fc.subarray(['chrome', 'edge', 'firefox', 'safari', 'other'] as const, { minLength: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((s) => s as Segment),
  { nil: null },
);

describe('delivery: audience segment counts', function () {
  this.timeout(180_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('segment_counts');
  });
  after(async () => {
    await t?.stop();
  });

  it('property: after bulk inserts, subscribes, changes, unsubscribes, merges and deletes, any audience with any static segment counts as the subscribers do, in total and by zone', async () => {
    const subscriptions = createSubscriptions(t.pool, { pushServiceHosts: [], pushTestHosts: ['127.0.0.1'] });
    const topicMaintenance = createTopicMaintenance(t.pool);
    const slot = fc.integer({ min: 0, max: 11 });
    const pickIn = <T>(list: readonly T[]) => fc.constantFrom(...list);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('bulk' as const),
        rows: fc.array(fc.record({ host: pickIn(HOSTS), country: pickIn(COUNTRIES), topics: fc.subarray(TOPICS) }), { minLength: 1, maxLength: 20 }),
      }),
      fc.record({ kind: fc.constant('subscribe' as const), slot, topics: fc.subarray(TOPICS), language: pickIn(LANGUAGES), zone: pickIn(ZONES) }),
      fc.record({
        kind: fc.constant('change' as const),
        slot,
        column: pickIn(['topics', 'country', 'language', 'time_zone', 'endpoint'] as const),
        value: fc.nat(100),
      }),
      fc.record({ kind: fc.constant('changeMany' as const), language: pickIn(LANGUAGES), zone: pickIn(ZONES), modulo: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('unsubscribe' as const), slot }),
      fc.record({ kind: fc.constant('reactivateAll' as const) }),
      fc.record({ kind: fc.constant('merge' as const), from: fc.subarray(TOPICS, { minLength: 1, maxLength: 2 }), into: pickIn(TOPICS) }),
      fc.record({ kind: fc.constant('delete' as const), slot }),
    );
    const query = fc.record({ topics: fc.subarray(TOPICS), countries: fc.subarray(COUNTRIES), segment: segmentArb });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), fc.array(query, { minLength: 1, maxLength: 6 }), async (ops, queries) => {
        const site = await newSite(t);
        const endpoints = Array.from({ length: 12 }, () => pushEndpoint());
        // The subscribers of a slot: the endpoint subscribed there, else the slot-th row of the site.
        const rowOf = async (s: number) =>
          (await t.pool.query('SELECT id FROM delivery.subscribers WHERE site_id = $1 ORDER BY id OFFSET $2 LIMIT 1', [site.siteId, s])).rows[0]?.id as string | undefined;
        for (const o of ops) {
          if (o.kind === 'bulk') {
            await insertNewSubscribers(
              t.pool,
              site.siteId,
              o.rows.map((r) => ({ endpoint: r.host + randomBytes(9).toString('base64url'), p256dh: 'k', auth: 'a', country: r.country, topics: [...r.topics].sort() })),
            );
          } else if (o.kind === 'subscribe') {
            const body: Record<string, unknown> = { subscription: { endpoint: endpoints[o.slot], keys: browserKeys() }, topics: o.topics, language: o.language, timeZone: o.zone };
            await subscriptions.subscribe(site.publicId, body, 'BR');
          } else if (o.kind === 'change') {
            const id = await rowOf(o.slot);
            if (!id) continue;
            const value = {
              topics: [TOPICS[o.value % 4], TOPICS[(o.value >> 2) % 4]],
              country: COUNTRIES[o.value % 3],
              language: LANGUAGES[o.value % LANGUAGES.length],
              time_zone: ZONES[o.value % ZONES.length],
              endpoint: HOSTS[o.value % HOSTS.length] + randomBytes(9).toString('base64url'),
            }[o.column];
            await t.pool.query(`UPDATE delivery.subscribers SET ${o.column} = $2 WHERE id = $1`, [id, value]);
          } else if (o.kind === 'changeMany') {
            await t.pool.query('UPDATE delivery.subscribers SET language = $2, time_zone = $3 WHERE site_id = $1 AND id % $4 = 0', [site.siteId, o.language, o.zone, o.modulo]);
          } else if (o.kind === 'unsubscribe') {
            const id = await rowOf(o.slot);
            if (id) await t.pool.query('UPDATE delivery.subscribers SET active = false, deactivated_at = now() WHERE id = $1', [id]);
          } else if (o.kind === 'reactivateAll') {
            await t.pool.query('UPDATE delivery.subscribers SET active = true, deactivated_at = NULL WHERE site_id = $1', [site.siteId]);
          } else if (o.kind === 'merge') {
            const from = o.from.filter((x) => x !== o.into);
            if (from.length > 0) await topicMaintenance.mergeTopics({ siteId: site.siteId, from, into: o.into });
          } else {
            const id = await rowOf(o.slot);
            if (id) await t.pool.query('DELETE FROM delivery.subscribers WHERE id = $1', [id]);
          }
        }
        await expectCountsExact(t.pool, site.siteId);
        for (const q of queries) {
          if (q.topics.length === 0 && q.countries.length === 0) continue;
          const got = await countWithZones(t, site.siteId, q.topics, q.countries, q.segment);
          const want = await bruteForce(t.pool, site.siteId, q.topics, q.countries, q.segment, got.defaultTimeZone);
          const label = JSON.stringify(q);
          expect(got.users, label).to.equal(want.users);
          expect(new Map(got.zones.map((z) => [z.name, z.users])), label).to.deep.equal(want.zones);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('counts a segment with a time condition over the subscribers, exactly', async () => {
    const site = await newSite(t);
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, language, time_zone, created_at)
       SELECT $1, 'https://fcm.googleapis.com/fcm/send/' || g, 'k', 'a', 'country__br', '{a}', 'pt-BR', 'America/Sao_Paulo', now() - g * interval '1 day'
         FROM generate_series(1, 30) g`,
      [site.siteId],
    );
    const segment: Segment = { languages: ['pt'], subscribedAfter: new Date(Date.now() - 10.5 * 86_400_000).toISOString().slice(0, 19) + 'Z' };
    const got = await countWithZones(t, site.siteId, ['a'], [], segment);
    expect(got.users).to.equal(10);
    expect(got.zones).to.deep.equal([{ name: 'America/Sao_Paulo', users: 10 }]);
  });

  it('past the scan budget (all scans busy, or the statement timeout), a segment with a time condition is answered without it: an upper bound, never an error', async () => {
    const site = await newSite(t);
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, language, time_zone, created_at)
       SELECT $1, 'https://fcm.googleapis.com/fcm/send/' || g, 'k', 'a', 'country__br', '{a}', CASE WHEN g % 2 = 0 THEN 'pt-BR' ELSE 'en' END, 'Europe/Lisbon', now() - g * interval '1 day'
         FROM generate_series(1, 40) g`,
      [site.siteId],
    );
    const segment: Segment = { languages: ['pt'], engagedWithinDays: 7 };
    // Nobody engaged: the exact count is 0; the static part (pt) is 20.
    expect(await createAudience(t.pool).countAudience(site.siteId, ['a'], [], segment)).to.equal(0);
    const busy = createAudience(t.pool, { scanBudget: { SCANS: 0, TIMEOUT_MS: 1000 } });
    expect(await busy.countAudience(site.siteId, ['a'], [], segment)).to.equal(20);
    expect((await busy.countByEffectiveZone(site.siteId, ['a'], [], segment)).zones).to.deep.equal([{ name: 'Europe/Lisbon', users: 20 }]);
    // A count that cannot finish in its time: the engagement table held by another transaction.
    const slow = createAudience(t.pool, { scanBudget: { SCANS: 1, TIMEOUT_MS: 200 } });
    const holder = await t.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE delivery.subscriber_engagement IN ACCESS EXCLUSIVE MODE');
      expect(await slow.countAudience(site.siteId, ['a'], [], segment)).to.equal(20);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await slow.countAudience(site.siteId, ['a'], [], segment), 'within the budget again: exact').to.equal(0);
  });

  it('concurrent writes that meet new profiles at once number each profile once, without deadlock, and count exactly', async () => {
    const site = await newSite(t);
    // Every statement brings profiles the site has not seen, in an order of its own, with groups
    // other statements write too; half of them then move their rows to other profiles.
    const writes = Array.from({ length: 12 }, (_, k) =>
      t.pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, language, time_zone)
         SELECT $1, (ARRAY['https://fcm.googleapis.com/fcm/send/', 'https://web.push.apple.com/', 'https://updates.push.services.mozilla.com/wpush/v2/'])[1 + (g + $2) % 3] || 'k' || $2 || '-' || g, 'k', 'a',
                (ARRAY['country__br', 'country__us'])[1 + g % 2], ARRAY['t' || g % 3],
                (ARRAY['pt-BR', 'en', 'es', 'fr', NULL])[1 + (g * ($2 + 1)) % 5], (ARRAY['Europe/Lisbon', 'Asia/Tokyo', NULL])[1 + (g + $2) % 3]
           FROM generate_series(1, 40) g ORDER BY (g * 7 + $2) % 40`,
        [site.siteId, k],
      ).then(() =>
        k % 2 === 0
          ? t.pool.query(`UPDATE delivery.subscribers SET language = 'de-' || $2, time_zone = 'Asia/Calcutta' WHERE site_id = $1 AND endpoint LIKE '%k' || $2 || '-1_'`, [site.siteId, k])
          : undefined,
      ),
    );
    await Promise.all(writes);
    await expectCountsExact(t.pool, site.siteId);
    const got = await countWithZones(t, site.siteId, ['t0', 't1', 't2'], [], { languages: ['de', 'pt'] });
    const want = await bruteForce(t.pool, site.siteId, ['t0', 't1', 't2'], [], { languages: ['de', 'pt'] }, got.defaultTimeZone);
    expect(got.users).to.equal(want.users);
    expect(new Map(got.zones.map((z) => [z.name, z.users]))).to.deep.equal(want.zones);
  });

  it('the migration counts the subscribers already there into the per-profile counts (what they lacked, merged in batches), runs again safely, and drops the cells', async () => {
    const site = await newSite(t);
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, language, time_zone, active)
       SELECT $1, (ARRAY['https://fcm.googleapis.com/fcm/send/', 'https://web.push.apple.com/'])[1 + g % 2] || g, 'k', 'a',
              (ARRAY['country__br', 'country__us', 'country__pt'])[1 + g % 3], ARRAY['t' || g % 5, 't' || g % 7],
              (ARRAY['pt-BR', 'en', NULL])[1 + g % 3], (ARRAY['Europe/Lisbon', NULL])[1 + g % 2], g % 9 <> 0
         FROM generate_series(1, 5000) g`,
      [site.siteId],
    );
    // Counts as a run cut short may leave them, or as subscribers written before the triggers
    // counted profiles leave them: some groups with none, some with too many.
    await t.pool.query(`UPDATE delivery.audience_groups SET counts = CASE WHEN country = 'country__br' THEN '{}' ELSE ARRAY(SELECT 2 * n FROM unnest(counts) AS n) END WHERE site_id = $1`, [
      site.siteId,
    ]);
    const files = ['20261205140000_audience_group_profiles.sql', '20261205140100_audience_group_profiles_backfill.sql', '20261205140200_drop_audience_cells.sql'];
    await t.pool.query(`DELETE FROM delivery.schema_migrations WHERE version = ANY($1)`, [files.map((f) => f.slice(0, 14))]);
    const applied = await migrate(t.pool, 'delivery', path.join(ROOT, 'services/delivery/migrations'));
    expect(applied).to.deep.equal(files);
    await expectCountsExact(t.pool, site.siteId);
    const { rows } = await t.pool.query(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'delivery' AND c.relname IN ('audience_cells', 'audience_profiles', 'audience_cells_backfill', 'audience_counts_backfill')`,
    );
    expect(rows[0].n, 'cells and backfill tables dropped').to.equal(0);
  });
});
