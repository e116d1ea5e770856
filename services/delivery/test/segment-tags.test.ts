// A segment's tag conditions in the delivery service (packages/contracts/src/segment.ts
// TagCondition, audience/segment-sql.ts tagConditionSql): for random people with random tags of
// every kind (the same key a string on one person, a number or a date on another), subscriptions
// of nobody, and another site whose people carry the same keys and values, the count
// CountAudience answers and the audience a dispatch expands (audienceSlice) are both exactly the
// subscriptions a plain reading of the rules selects, computed here in JavaScript from the same
// rows — each operator alone, combined with each other and with the other conditions.
import { expect } from 'chai';
import fc from 'fast-check';
import * as grpc from '@grpc/grpc-js';
import { BROWSERS, durationSeconds, type Segment, type TagCondition } from '@webpush/contracts/segment.js';
import { isoDate } from '@webpush/contracts/tag-values.js';
import { createAudience } from '../src/audience/audience.js';
import { audienceSlice } from '../src/sending/run-store.js';
import { newSite, startTestDelivery, type TestDelivery } from './support.js';

type Tag = { kind: 'string'; value: string } | { kind: 'number'; value: number } | { kind: 'boolean'; value: boolean } | { kind: 'date'; value: Date };

interface Row {
  id: string;
  topics: string[];
  browser: (typeof BROWSERS)[number];
  createdAt: Date;
  active: boolean;
  /** The person's tags; null: a subscription of nobody. */
  tags: Map<string, Tag> | null;
}

const HOSTS: Record<Row['browser'], string> = {
  chrome: 'fcm.googleapis.com',
  edge: 'wns2-par02p.notify.windows.com',
  firefox: 'updates.push.services.mozilla.com',
  safari: 'web.push.apple.com',
  other: '127.0.0.1',
};
const DAY = 86_400_000;
const KEYS = ['plan', 'score', 'last_order', 'vip'];
const STRINGS = ['free', 'pro', 'gold', 'Pro', '3'];
const NUMBERS = [-1, 0, 3, 7.5, 10, 1e6];

/** Every tag on half a day past a whole day, so no whole-day duration falls on one whatever the seconds between rows and query. */
const tagArbitrary = (now: number): fc.Arbitrary<Tag> =>
  fc.oneof(
    fc.constantFrom(...STRINGS).map((value) => ({ kind: 'string' as const, value })),
    fc.constantFrom(...NUMBERS).map((value) => ({ kind: 'number' as const, value })),
    fc.boolean().map((value) => ({ kind: 'boolean' as const, value })),
    fc.integer({ min: -30, max: 30 }).map((d) => ({ kind: 'date' as const, value: new Date(now + d * DAY + DAY / 2) })),
  );

function valueMatches(tag: Tag, v: string | number | boolean): boolean {
  if (typeof v === 'number') return tag.kind === 'number' && tag.value === v;
  if (typeof v === 'boolean') return tag.kind === 'boolean' && tag.value === v;
  const date = isoDate(v);
  if (date) return tag.kind === 'date' && tag.value.getTime() === date.getTime();
  return tag.kind === 'string' && tag.value === v;
}

function tagMatches(row: Row, c: TagCondition, now: number): boolean {
  const tag = row.tags?.get(c.key);
  if (c.operator === 'notExists') return tag === undefined;
  if (tag === undefined) return false;
  switch (c.operator) {
    case 'exists':
      return true;
    case 'equals':
      return valueMatches(tag, c.value);
    case 'in':
      return c.values.some((v) => valueMatches(tag, v));
    case 'gt':
      return tag.kind === 'number' && tag.value > c.value;
    case 'gte':
      return tag.kind === 'number' && tag.value >= c.value;
    case 'lt':
      return tag.kind === 'number' && tag.value < c.value;
    case 'lte':
      return tag.kind === 'number' && tag.value <= c.value;
    case 'before':
    case 'after': {
      if (tag.kind !== 'date') return false;
      const at = isoDate(c.value)?.getTime() ?? now + durationSeconds(c.value)! * 1000;
      return c.operator === 'before' ? tag.value.getTime() < at : tag.value.getTime() >= at;
    }
  }
}

function matches(r: Row, s: Segment, now: number): boolean {
  if (s.browsers && !s.browsers.includes(r.browser)) return false;
  if (s.subscribedAfter && r.createdAt < new Date(s.subscribedAfter)) return false;
  return (s.tags ?? []).every((c) => tagMatches(r, c, now));
}

describe('delivery: segment tag conditions', function () {
  this.timeout(180_000);
  let t: TestDelivery;
  let siteId: string;
  let otherSiteId: string;
  const rows: Row[] = [];
  const now = Date.now();

  /** People with random tags and 0 to 3 subscriptions each, and subscriptions of nobody; returns the site's rows. */
  async function seed(site: string, seedNumber: number): Promise<Row[]> {
    const people = fc.sample(
      fc.record({
        tags: fc.dictionary(fc.constantFrom(...KEYS), tagArbitrary(now), { maxKeys: 4 }),
        subscriptions: fc.array(
          fc.record({ topics: fc.subarray(['news', 'sport']), browser: fc.constantFrom(...BROWSERS), createdDaysAgo: fc.integer({ min: 0, max: 100 }), active: fc.boolean() }),
          { maxLength: 3 },
        ),
        identified: fc.boolean(),
      }),
      { numRuns: 150, seed: seedNumber },
    );
    const out: Row[] = [];
    for (const [i, p] of people.entries()) {
      let personId: string | null = null;
      const tags = new Map(Object.entries(p.tags));
      if (p.identified) {
        const { rows: made } = await t.pool.query(`INSERT INTO delivery.people (site_id, external_id) VALUES ($1, $2) RETURNING id::text`, [site, `user-${i}`]);
        personId = made[0].id;
        for (const [key, tag] of tags) {
          await t.pool.query(
            `INSERT INTO delivery.person_tags (person_id, key, kind, string_value, number_value, date_value, boolean_value) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [personId, key, tag.kind, tag.kind === 'string' ? tag.value : null, tag.kind === 'number' ? tag.value : null, tag.kind === 'date' ? tag.value : null, tag.kind === 'boolean' ? tag.value : null],
          );
        }
      }
      for (const [j, s] of p.subscriptions.entries()) {
        const createdAt = new Date(now - s.createdDaysAgo * DAY - DAY / 2);
        const { rows: inserted } = await t.pool.query(
          `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, created_at, active)
           VALUES ($1, $2, 'k', 'a', 'country__br', $3::text[], $4, $5) RETURNING id::text`,
          [site, `https://${HOSTS[s.browser]}/push/${site}/${i}/${j}`, [...s.topics].sort(), createdAt, s.active],
        );
        if (personId !== null) await t.pool.query('INSERT INTO delivery.person_subscriptions (subscriber_id, person_id) VALUES ($1, $2)', [inserted[0].id, personId]);
        out.push({ id: inserted[0].id, topics: s.topics, browser: s.browser, createdAt, active: s.active, tags: personId === null ? null : tags });
      }
    }
    return out;
  }

  before(async () => {
    t = await startTestDelivery('segment-tags');
    siteId = (await newSite(t)).siteId;
    otherSiteId = (await newSite(t)).siteId;
    rows.push(...(await seed(siteId, 42)));
    // Another site's people with the same keys and values, external ids and all: never reached.
    await seed(otherSiteId, 42);
  });
  after(async () => {
    await t?.stop();
  });

  const count = (site: string, topics: string[], segment: Segment | null): Promise<number> =>
    new Promise((resolve, reject) =>
      t.audience.countAudience({ siteId: site, topics, countries: [], segmentJson: segment ? JSON.stringify(segment) : '' }, (err: grpc.ServiceError | null, res?: { users: number }) =>
        err ? reject(err) : resolve(Number(res!.users)),
      ),
    );

  async function expanded(site: string, topics: string[], segment: Segment): Promise<string[]> {
    const ids: string[] = [];
    let after = '0';
    for (let i = 0; i < 100; i++) {
      const slice = await audienceSlice(t.pool, { siteId: site, audience: topics, segment }, after, 37);
      ids.push(...slice);
      if (slice.length < 37) break;
      after = slice[slice.length - 1];
    }
    return ids;
  }

  const expectedIds = (topics: string[], segment: Segment) =>
    rows
      .filter((r) => r.active && r.topics.some((x) => topics.includes(x)) && matches(r, segment, now))
      .map((r) => r.id)
      .sort();

  async function expectExact(topics: string[], segment: Segment): Promise<void> {
    const expected = expectedIds(topics, segment);
    expect(await count(siteId, topics, segment), JSON.stringify(segment)).to.equal(expected.length);
    expect((await expanded(siteId, topics, segment)).sort(), JSON.stringify(segment)).to.deep.equal(expected);
  }

  // Values as the campaign service normalises them: dates as UTC instants with milliseconds.
  const dateText = (d: number) => new Date(now + d * DAY).toISOString();
  const scalar = fc.oneof(fc.constantFrom(...STRINGS), fc.constantFrom(...NUMBERS), fc.boolean(), fc.integer({ min: -30, max: 30 }).map((d) => new Date(now + d * DAY + DAY / 2).toISOString()));
  const condition: fc.Arbitrary<TagCondition> = fc.oneof(
    fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom('exists' as const, 'notExists' as const) }),
    fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constant('equals' as const), value: scalar }),
    fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constant('in' as const), values: fc.uniqueArray(scalar, { minLength: 1, maxLength: 5 }) }),
    fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom('gt' as const, 'gte' as const, 'lt' as const, 'lte' as const), value: fc.constantFrom(...NUMBERS, 5) }),
    fc.record({
      key: fc.constantFrom(...KEYS),
      operator: fc.constantFrom('before' as const, 'after' as const),
      value: fc.oneof(fc.integer({ min: -31, max: 31 }).map(dateText), fc.integer({ min: 0, max: 31 }).map((d) => `-P${d}D`), fc.integer({ min: 1, max: 31 }).map((d) => `P${d}D`)),
    }),
  );

  it('each operator alone: the count and the expanded audience are exactly the subscriptions whose person\'s tag meets it', async () => {
    const topics = ['news', 'sport'];
    const one: TagCondition[] = [
      { key: 'plan', operator: 'exists' },
      { key: 'plan', operator: 'notExists' },
      { key: 'plan', operator: 'equals', value: 'pro' },
      { key: 'plan', operator: 'equals', value: 3 },
      { key: 'plan', operator: 'equals', value: '3' },
      { key: 'vip', operator: 'equals', value: true },
      { key: 'plan', operator: 'in', values: ['gold', 'pro', 10, false] },
      { key: 'score', operator: 'gt', value: 3 },
      { key: 'score', operator: 'gte', value: 3 },
      { key: 'score', operator: 'lt', value: 7.5 },
      { key: 'score', operator: 'lte', value: 3 },
      { key: 'last_order', operator: 'before', value: dateText(0) },
      { key: 'last_order', operator: 'after', value: '-P7D' },
      { key: 'last_order', operator: 'before', value: 'P7D' },
    ];
    for (const c of one) {
      await expectExact(topics, { tags: [c] });
      // Each meets someone and leaves someone out: the fixture tells the operators apart.
      const n = expectedIds(topics, { tags: [c] }).length;
      expect(n, JSON.stringify(c)).to.be.greaterThan(0);
      expect(n, JSON.stringify(c)).to.be.lessThan(expectedIds(topics, {}).length);
    }
    // A date tag equals its instant however it was written.
    const aDate = rows.flatMap((r) => [...(r.tags?.values() ?? [])]).find((x) => x.kind === 'date')!.value as Date;
    await expectExact(topics, { tags: [{ key: 'last_order', operator: 'equals', value: aDate.toISOString() }] });
  });

  it('combined with each other and with the other conditions: every condition holds, for random segments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(['news', 'sport'], { minLength: 1 }),
        fc.array(condition, { minLength: 1, maxLength: 4 }),
        fc.option(fc.uniqueArray(fc.constantFrom(...BROWSERS), { minLength: 1 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        async (topics, tags, browsers, afterDays) => {
          const segment: Segment = { tags, ...(browsers ? { browsers } : {}), ...(afterDays !== undefined ? { subscribedAfter: new Date(now - afterDays * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}) };
          await expectExact(topics, segment);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });

  it('another site\'s people are never reached: the same tags there leave this site\'s counts as computed from its own rows', async () => {
    const segment: Segment = { tags: [{ key: 'plan', operator: 'exists' }] };
    const mine = expectedIds(['news', 'sport'], segment);
    expect(await count(siteId, ['news', 'sport'], segment)).to.equal(mine.length);
    const theirs = await expanded(otherSiteId, ['news', 'sport'], segment);
    expect(theirs.length).to.be.greaterThan(0);
    expect(theirs.filter((id) => mine.includes(id))).to.deep.equal([]);
    expect(await count(otherSiteId, ['news', 'sport'], segment)).to.equal(theirs.length);
  });

  it('on a site above the exact scan limit, a tag condition is estimated from the sample like a time condition (an answer, never an error)', async () => {
    const audience = createAudience(t.pool, { exactScanLimit: 0 });
    const segment: Segment = { tags: [{ key: 'plan', operator: 'exists' }] };
    const estimate = await audience.estimateAudience(siteId, ['news', 'sport'], [], segment);
    const whole = rows.filter((r) => r.active && r.topics.length > 0).length;
    expect(estimate.users).to.be.at.least(0).and.at.most(whole);
    expect(await audience.countAudience(siteId, ['news', 'sport'], [], segment)).to.be.at.least(0).and.at.most(whole);
  });

  it('refuses a tag condition that is not one with INVALID_ARGUMENT, never a count', async () => {
    for (const bad of [
      '{"tags": []}',
      '{"tags": [{"key": "plan", "operator": "like", "value": "p%"}]}',
      '{"tags": [{"key": "Plan", "operator": "exists"}]}',
      '{"tags": [{"key": "plan", "operator": "exists", "value": 1}]}',
      '{"tags": [{"key": "score", "operator": "gt", "value": "5"}]}',
      '{"tags": [{"key": "d", "operator": "before", "value": "yesterday"}]}',
      '{"tags": [{"key": "d", "operator": "before", "value": "2026-12-07"}]}',
      '{"tags": [{"key": "plan", "operator": "in", "values": []}]}',
    ]) {
      const err = await new Promise<grpc.ServiceError | null>((resolve) =>
        t.audience.countAudience({ siteId, topics: ['news'], countries: [], segmentJson: bad }, (e: grpc.ServiceError | null) => resolve(e)),
      );
      expect(err?.code, bad).to.equal(grpc.status.INVALID_ARGUMENT);
    }
  });
});
