// A segment with a time condition (subscribed after/before, engagement) on a site above the exact
// scan limit is estimated from the site's fixed 1-in-128 sample (migrations/
// 20261205150000_subscribers_sample.sql, audience.ts estimate): against the exact count over
// the subscribers, for several segments, the estimate is within its stated 95 % bound, the bound
// is a few percent of the static audience, the planner reads the sample's index, and a site
// within the limit is still counted exactly. Deterministic: the rows, their ids (so the sample:
// a hash of the id) and their dates relative to now are fixed, and no segment's boundary falls
// within half a day of a row's date.
import { expect } from 'chai';
import type { Segment } from '@webpush/contracts/segment.js';
import type { Queryable } from '@webpush/shared/db.js';
import { createAudience, estimateFromSample } from '../src/audience/audience.js';
import { sampleSegment } from '../src/audience/count-store.js';
import { segmentSql, staticPart } from '../src/audience/segment-sql.js';
import { newSite, startTestDelivery, type TestDelivery } from './support.js';

const SUBSCRIBERS = 64_000;
/** Explicit ids: the sample (hashint8(id) & 127 = 0) is the same set in every run. */
const FIRST_ID = 7_000_000_000;
const TOPICS = ['t0', 't1', 't2', 't3'];
const COUNTRIES = ['country__br'];
const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(Date.now() - d * DAY).toISOString();

/** Every time condition with every static narrowing: 44 segments, 1 % to 60 % of their static audience. */
const TIME: Segment[] = [
  { engagedWithinDays: 7 },
  { engagedWithinDays: 30 },
  { engagedWithinDays: 90 },
  { notEngagedForDays: 14 },
  { notEngagedForDays: 60 },
  { subscribedAfter: daysAgo(30.5) },
  { subscribedAfter: daysAgo(100.5) },
  { subscribedAfter: daysAgo(365.5) },
  { subscribedBefore: daysAgo(200.5) },
  { subscribedBefore: daysAgo(600.5) },
  { subscribedAfter: daysAgo(600.5), engagedWithinDays: 90 },
];
const STATIC: Segment[] = [{}, { languages: ['pt'] }, { timeZones: ['Europe/Lisbon', 'Asia/Tokyo'] }, { browsers: ['chrome', 'firefox'] }];
const SEGMENTS: Segment[] = STATIC.flatMap((s) => TIME.map((t) => ({ ...s, ...t })));

async function exactCount(db: Queryable, siteId: string, segment: Segment): Promise<number> {
  const narrowed = segmentSql(segment, 4);
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}`,
    [siteId, COUNTRIES, TOPICS, ...narrowed.params],
  );
  return rows[0].n as number;
}

describe('delivery: segments with a time condition on a large site, from the sample', function () {
  this.timeout(180_000);
  let t: TestDelivery;
  let siteId: string;

  before(async () => {
    t = await startTestDelivery('audience_sample');
    siteId = (await newSite(t)).siteId;
    // Languages, zones, browsers, countries, topics, subscription dates (0–729 days ago) and last
    // engagements (40 % of the subscribers, 0–119 days ago), each a different function of g.
    await t.pool.query(
      `INSERT INTO delivery.subscribers (id, site_id, endpoint, p256dh, auth, country, topics, language, time_zone, created_at, active)
       SELECT $2::bigint + g, $1,
              (ARRAY['https://fcm.googleapis.com/fcm/send/', 'https://updates.push.services.mozilla.com/wpush/v2/', 'https://web.push.apple.com/'])[1 + g % 3] || g,
              'k', 'a', (ARRAY['country__br', 'country__us', 'country__pt'])[1 + (g / 5) % 3], ARRAY['t' || g % 7],
              (ARRAY['pt-BR', 'en-US', 'es', 'pt', NULL])[1 + (g / 3) % 5], (ARRAY['America/Sao_Paulo', 'Europe/Lisbon', 'Asia/Tokyo', NULL])[1 + (g / 11) % 4],
              now() - ((g * 7919) % 730) * interval '1 day' - interval '1 hour', g % 23 <> 0
         FROM generate_series(1, $3::int) g`,
      [siteId, FIRST_ID, SUBSCRIBERS],
    );
    // Seeded as the tracking trigger would keep it (migrations/20261126160000_subscriber_engagement.sql).
    await t.pool.query(
      `INSERT INTO delivery.subscriber_engagement (subscriber_id, last_engaged_at)
       SELECT $1::bigint + g, now() - ((g * 31) % 120) * interval '1 day' - interval '1 hour' FROM generate_series(1, $2::int) g WHERE (g * 13) % 10 < 4`,
      [FIRST_ID, SUBSCRIBERS],
    );
    await t.pool.query('ANALYZE delivery.subscribers');
  });
  after(async () => {
    await t?.stop();
  });

  it('estimates segments within their stated 95 % bound (at least 90 % of them; every one within twice it), by zone as in total', async () => {
    await expectEstimates(createAudience(t.pool, { exactScanLimit: 1_000 }), 1 / 128, 0.1);
  });

  it('a larger site reads part of its sample (the slices that hold about SAMPLE_ROWS): here half, with bounds to match', async () => {
    // 61,217 active: slices = ⌈1024 · 128 · 250 / 61,217⌉ = 536 of 1024.
    await expectEstimates(createAudience(t.pool, { exactScanLimit: 1_000, sampleRows: 250 }), (1 / 128) * (536 / 1024), 0.15);
  });

  async function expectEstimates(audience: ReturnType<typeof createAudience>, fraction: number, widest: number): Promise<void> {
    const misses: string[] = [];
    for (const segment of SEGMENTS) {
      const exact = await exactCount(t.pool, siteId, segment);
      const staticUsers = await exactCount(t.pool, siteId, staticPart(segment));
      const estimate = await audience.estimateAudience(siteId, TOPICS, COUNTRIES, segment);
      const label = `${JSON.stringify(segment)}: estimate ${estimate.users} ± ${estimate.bound} from ${estimate.sampled} sampled, exact ${exact} of ${staticUsers}`;
      if (Math.abs(estimate.users - exact) > estimate.bound) misses.push(label);
      expect(Math.abs(estimate.users - exact), label).to.be.at.most(2 * estimate.bound);
      // The sample is that fraction of the static audience, so the bound is a few percent of it, not vacuous.
      expect(estimate.sampled, label).to.be.within(0.75 * fraction * staticUsers, 1.25 * fraction * staticUsers);
      expect(estimate.bound, label).to.be.below(widest * staticUsers);
      // The answer of a create (and of a local-time plan, by zone) is that estimate.
      expect(await audience.countAudience(siteId, TOPICS, COUNTRIES, segment), label).to.equal(estimate.users);
      const zones = (await audience.countByEffectiveZone(siteId, TOPICS, COUNTRIES, segment)).zones;
      expect(Math.abs(zones.reduce((n, z) => n + z.users, 0) - estimate.users), `${label}: zones sum (rounding)`).to.be.at.most(4);
    }
    expect(misses.length, misses.join('\n')).to.be.at.most(Math.floor(0.1 * SEGMENTS.length));
  }

  it('reads the sample through its index, not the site', async () => {
    const plans: string[] = [];
    const explaining = {
      query: async (text: string, params: unknown[]) => {
        const { rows } = await t.pool.query(`EXPLAIN ${text}`, params);
        plans.push(rows.map((r) => r['QUERY PLAN'] as string).join('\n'));
        return t.pool.query(text, params);
      },
    } as unknown as Queryable;
    await sampleSegment(explaining, siteId, TOPICS, COUNTRIES, SEGMENTS[0], 300);
    expect(plans[0]).to.include('subscribers_sample');
    // The slices below the limit are a range of the index, not a filter over the sample's rows.
    expect(plans[0]).to.match(/Index Cond: .*1023\) < 300/);
  });

  it('a site within the exact scan limit (the default 100,000) is counted exactly', async () => {
    const audience = createAudience(t.pool);
    for (const segment of SEGMENTS) expect(await audience.countAudience(siteId, TOPICS, COUNTRIES, segment), JSON.stringify(segment)).to.equal(await exactCount(t.pool, siteId, segment));
  });

  it('a static audience with no sampled subscriber answers its static count, an upper bound; an empty one 0', async () => {
    // Three subscribers in German, none of them sampled (ids whose hash is not 0 of 128).
    const { rows } = await t.pool.query(
      `SELECT id FROM generate_series($1::bigint + 100001, $1::bigint + 100100) AS id WHERE (hashint8(id) & 127) <> 0 ORDER BY id LIMIT 3`,
      [FIRST_ID],
    );
    await t.pool.query(
      `INSERT INTO delivery.subscribers (id, site_id, endpoint, p256dh, auth, country, topics, language)
       SELECT id, $1, 'https://fcm.googleapis.com/fcm/send/de' || id, 'k', 'a', 'country__br', '{}', 'de' FROM unnest($2::bigint[]) AS id`,
      [siteId, rows.map((r) => r.id)],
    );
    const audience = createAudience(t.pool, { exactScanLimit: 1_000 });
    expect(await audience.estimateAudience(siteId, TOPICS, COUNTRIES, { languages: ['de'], engagedWithinDays: 30 })).to.deep.equal({ users: 3, bound: 3, sampled: 0 });
    expect(await audience.countAudience(siteId, TOPICS, COUNTRIES, { languages: ['fr'], engagedWithinDays: 30 })).to.equal(0);
    await t.pool.query('DELETE FROM delivery.subscribers WHERE id = ANY($1::bigint[])', [rows.map((r) => r.id)]);
  });

  it('the bound: the Wilson score interval\'s farther end, not 0 when no sampled subscriber (or every one) meets the time conditions', () => {
    // k = 100 of m = 400: the normal approximation's 1.96·√(0.25·0.75/400) = 4.24 %, Wilson's farther end 4.47 %.
    expect(estimateFromSample(100_000, 400, 100)).to.deep.equal({ users: 25_000, bound: 4_468, sampled: 400 });
    // k = 0: Wilson's upper end 1.96²/(400 + 1.96²) = 0.951 %.
    expect(estimateFromSample(100_000, 400, 0)).to.deep.equal({ users: 0, bound: 952, sampled: 400 });
    expect(estimateFromSample(100_000, 400, 400)).to.deep.equal({ users: 100_000, bound: 952, sampled: 400 });
  });
});
