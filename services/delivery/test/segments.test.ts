// Segments in the delivery service (packages/contracts/src/segment.ts, audience/segment-sql.ts):
// for random subscribers and random segments, the count CountAudience answers and the audience a
// dispatch expands (audienceSlice) are both exactly the subscribers a plain reading of the rules
// selects, computed here in JavaScript from the same rows.
import { expect } from 'chai';
import fc from 'fast-check';
import * as grpc from '@grpc/grpc-js';
import { canonicalZone } from '@webpush/contracts/local-time.js';
import { BROWSERS, type Segment } from '@webpush/contracts/segment.js';
import { audienceSlice } from '../src/sending/run-store.js';
import { newSite, startTestDelivery, type TestDelivery } from './support.js';

interface Row {
  id: string;
  topics: string[];
  country: string;
  language: string | null;
  timeZone: string | null;
  browser: (typeof BROWSERS)[number];
  createdAt: Date;
  lastEngagedAt: Date | null;
  active: boolean;
}

const HOSTS: Record<Row['browser'], string> = {
  chrome: 'fcm.googleapis.com',
  edge: 'wns2-par02p.notify.windows.com',
  firefox: 'updates.push.services.mozilla.com',
  safari: 'web.push.apple.com',
  other: '127.0.0.1',
};
const LANGUAGES = [null, 'pt', 'pt-BR', 'PT-pt', 'en-US', 'en', 'fr-CA', 'es'];
// Zones with fixed offsets all year (no daylight saving), so the expected offsets below hold on any date.
const ZONES: Record<string, number> = { 'Pacific/Kiritimati': 840, 'Pacific/Pago_Pago': -660, 'Asia/Kolkata': 330, 'America/Sao_Paulo': -180, UTC: 0, 'Asia/Tokyo': 540 };
// Rows as older releases stored them too: Chrome's `Asia/Calcutta` is `Asia/Kolkata`, `Etc/UTC` is `UTC`.
const ZONE_NAMES = [null, ...Object.keys(ZONES), 'Not/AZone', 'Asia/Calcutta', 'Etc/UTC'];
const DAY = 86_400_000;

function matches(r: Row, s: Segment, now: number): boolean {
  if (s.languages) {
    const lang = r.language?.toLowerCase() ?? null;
    if (lang === null || !s.languages.some((l) => (l.includes('-') ? lang === l : lang.split('-')[0] === l))) return false;
  }
  const zone = r.timeZone === null ? null : canonicalZone(r.timeZone);
  if (s.timeZones && (zone === null || !s.timeZones.includes(zone))) return false;
  if (s.utcOffset) {
    const offset = zone === null ? undefined : ZONES[zone];
    if (offset === undefined || offset < s.utcOffset.min || offset > s.utcOffset.max) return false;
  }
  if (s.browsers && !s.browsers.includes(r.browser)) return false;
  if (s.subscribedAfter && r.createdAt < new Date(s.subscribedAfter)) return false;
  if (s.subscribedBefore && r.createdAt >= new Date(s.subscribedBefore)) return false;
  const engagedWithin = (days: number) => r.lastEngagedAt !== null && r.lastEngagedAt.getTime() >= now - days * DAY;
  if (s.engagedWithinDays && !engagedWithin(s.engagedWithinDays)) return false;
  if (s.notEngagedForDays && engagedWithin(s.notEngagedForDays)) return false;
  return true;
}

describe('delivery: segments', function () {
  this.timeout(120_000);
  let t: TestDelivery;
  let siteId: string;
  const rows: Row[] = [];
  const now = Date.now();

  before(async () => {
    t = await startTestDelivery('segments');
    siteId = (await newSite(t)).siteId;
    // 400 subscribers with every attribute drawn at random (seeded: the same rows every run).
    const random = fc.sample(
      fc.record({
        topics: fc.subarray(['news', 'sport', 'tech']),
        country: fc.constantFrom('country__br', 'country__pt', 'country__us'),
        language: fc.constantFrom(...LANGUAGES),
        timeZone: fc.constantFrom(...ZONE_NAMES),
        browser: fc.constantFrom(...BROWSERS),
        createdDaysAgo: fc.integer({ min: 0, max: 400 }),
        engagedDaysAgo: fc.option(fc.integer({ min: 0, max: 120 })),
        active: fc.boolean(),
      }),
      { numRuns: 400, seed: 42 },
    );
    for (const [i, r] of random.entries()) {
      const endpoint = `https://${HOSTS[r.browser]}/push/${i}`;
      const createdAt = new Date(now - r.createdDaysAgo * DAY - 1000);
      const { rows: inserted } = await t.pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, language, time_zone, created_at, active)
         VALUES ($1, $2, 'k', 'a', $3, $4::text[], $5, $6, $7, $8) RETURNING id::text`,
        [siteId, endpoint, r.country, [...r.topics].sort(), r.language, r.timeZone, createdAt, r.active],
      );
      const lastEngagedAt = r.engagedDaysAgo === null ? null : new Date(now - r.engagedDaysAgo * DAY - 1000);
      if (lastEngagedAt) await t.pool.query('INSERT INTO delivery.subscriber_engagement VALUES ($1, $2)', [inserted[0].id, lastEngagedAt]);
      rows.push({ id: inserted[0].id, topics: r.topics, country: r.country, language: r.language, timeZone: r.timeZone, browser: r.browser, createdAt, lastEngagedAt, active: r.active });
    }
  });
  after(async () => {
    await t?.stop();
  });

  const count = (topics: string[], countries: string[], segment: Segment | null): Promise<number> =>
    new Promise((resolve, reject) =>
      t.audience.countAudience({ siteId, topics, countries, segmentJson: segment ? JSON.stringify(segment) : '' }, (err: grpc.ServiceError | null, res?: { users: number }) =>
        err ? reject(err) : resolve(Number(res!.users)),
      ),
    );

  async function expanded(topics: string[], countries: string[], segment: Segment): Promise<string[]> {
    const ids: string[] = [];
    let after = '0';
    for (let i = 0; i < 100; i++) {
      const slice = await audienceSlice(t.pool, { siteId, audience: [...topics, ...countries], segment }, after, 37);
      ids.push(...slice);
      if (slice.length < 37) break;
      after = slice[slice.length - 1];
    }
    return ids;
  }

  const segments = fc
    .record(
      {
        languages: fc.uniqueArray(fc.constantFrom('pt', 'pt-br', 'en', 'en-us', 'fr', 'es', 'de'), { minLength: 1 }),
        timeZones: fc.uniqueArray(fc.constantFrom(...Object.keys(ZONES), 'Europe/Lisbon'), { minLength: 1 }),
        utcOffset: fc.tuple(fc.integer({ min: -720, max: 840 }), fc.integer({ min: -720, max: 840 })).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })),
        browsers: fc.uniqueArray(fc.constantFrom(...BROWSERS), { minLength: 1 }),
        subscribedAfter: fc.integer({ min: 0, max: 400 }).map((d) => new Date(now - d * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z')),
        subscribedBefore: fc.integer({ min: 0, max: 400 }).map((d) => new Date(now - d * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z')),
        engagedWithinDays: fc.integer({ min: 1, max: 150 }),
        notEngagedForDays: fc.integer({ min: 1, max: 150 }),
      },
      { requiredKeys: [] },
    )
    .filter((s) => Object.keys(s).length > 0) as fc.Arbitrary<Segment>;

  it('counts exactly the subscribers of (topics ∪ countries) that meet every condition, and a dispatch expands exactly them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(['news', 'sport', 'tech']), fc.subarray(['country__br', 'country__pt', 'country__us']), segments, async (topics, countries, segment) => {
        fc.pre(topics.length + countries.length > 0);
        const expected = rows
          .filter((r) => r.active && (countries.includes(r.country) || r.topics.some((x) => topics.includes(x))) && matches(r, segment, now))
          .map((r) => r.id)
          .sort();
        expect(await count(topics, countries, segment), JSON.stringify(segment)).to.equal(expected.length);
        expect((await expanded(topics, countries, segment)).sort()).to.deep.equal(expected);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('reads languages by their primary tag: pt takes pt-BR and PT-pt, pt-br takes only pt-BR', async () => {
    const lang = (l: string) => rows.filter((r) => r.active && r.language !== null && r.language.toLowerCase().split('-')[0] === l).length;
    expect(await count(['news', 'sport', 'tech'], ['country__br', 'country__pt', 'country__us'], { languages: ['pt'] })).to.equal(lang('pt'));
    expect(await count(['news', 'sport', 'tech'], ['country__br', 'country__pt', 'country__us'], { languages: ['pt-br'] })).to.equal(
      rows.filter((r) => r.active && r.language === 'pt-BR').length,
    );
  });

  it('without a segment, the count is the counters\' (topics ∪ countries), as before', async () => {
    expect(await count(['news'], [], null)).to.equal(rows.filter((r) => r.active && r.topics.includes('news')).length);
  });

  it('refuses a segment that is not one with INVALID_ARGUMENT, never a count', async () => {
    for (const bad of ['{"languages": "pt"}', '{"nope": 1}', '[]', 'null', '{"utcOffset": {"min": 0}}', '{"subscribedAfter": "2020-01-01"}', '{']) {
      const err = await new Promise<grpc.ServiceError | null>((resolve) =>
        t.audience.countAudience({ siteId, topics: ['news'], countries: [], segmentJson: bad }, (e: grpc.ServiceError | null) => resolve(e)),
      );
      expect(err?.code, bad).to.equal(grpc.status.INVALID_ARGUMENT);
    }
  });
});
