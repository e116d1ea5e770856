// A site's subscribers per day (new, expired, returned, active at the day's end) and by browser
// family (delivery.v1.ConsoleData AudienceDaily and AudienceBrowsers), kept by triggers on
// delivery.subscribers: random subscribe / expire / return events over the last weeks, written
// as the real statements write them (alone or several in one statement, two sites mixed), then
// the answers compared with a plain reading of the events, property-based; the same through the
// real subscribe, unsubscribe, subscription-change and import paths; and the migration's
// backfill of existing subscribers.
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import pg from 'pg';
import { freshDatabase } from '../../../../test/support/postgres.js';
import { createPool, migrate, type Pool } from '@webpush/shared/db.js';
import { audienceDaily, countByBrowser } from '../../src/audience/count-store.js';
import { insertNewSubscribers } from '../../src/audience/subscriber-store.js';
import { browserKeys, newSite, pushEndpoint, request, sortedEntries, startTestDelivery, type TestDelivery } from '../support.js';
import { consoleCalls, refusal } from './calls.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
const DAY = 86_400_000;
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** An endpoint at each family's push service (delivery.browser_of tells the family from the host). */
const BROWSERS = [
  { family: 'chrome', endpoint: () => `https://fcm.googleapis.com/fcm/send/${randomUUID()}` },
  { family: 'firefox', endpoint: () => `https://updates.push.services.mozilla.com/wpush/v2/${randomUUID()}` },
  { family: 'edge', endpoint: () => `https://wns2-par02p.notify.windows.com/w/?token=${randomUUID()}` },
  { family: 'safari', endpoint: () => `https://web.push.apple.com/${randomUUID()}` },
  { family: 'other', endpoint: () => `https://127.0.0.1/push/${randomUUID()}` },
] as const;

interface Expected {
  day: string;
  created: number;
  expired: number;
  returned: number;
  active: number;
}

/** Active subscribers by family, straight from the subscribers table. */
async function bruteForceBrowsers(pool: Pool, siteId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query(
    `SELECT delivery.browser_of(endpoint) AS browser, count(*)::int AS users FROM delivery.subscribers WHERE site_id = $1 AND active GROUP BY 1`,
    [siteId],
  );
  return new Map(rows.map((r) => [r.browser as string, r.users as number]));
}

describe('console data: subscribers per day and by browser', function () {
  this.timeout(180_000);
  let t: TestDelivery;
  let calls: ReturnType<typeof consoleCalls>;

  before(async () => {
    t = await startTestDelivery('console_audience', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    calls = consoleCalls(t.consoleData);
  });
  after(async () => {
    await t?.stop();
  });

  const daily = async (siteId: string, days: number): Promise<Expected[]> =>
    (await calls.daily(siteId, days)).days.map((d) => ({ day: d.day, created: d.created, expired: d.expired, returned: d.returned, active: d.active }));
  const browsers = async (siteId: string): Promise<[string, number][]> =>
    sortedEntries(new Map((await calls.browsers(siteId)).browsers.map((b) => [b.browser, b.users])));
  const dbNow = async (): Promise<number> => ((await t.pool.query('SELECT now() AS now')).rows[0].now as Date).getTime();
  const activeCount = async (siteId: string): Promise<number> =>
    (await t.pool.query('SELECT count(*)::int AS n FROM delivery.subscribers WHERE site_id = $1 AND active', [siteId])).rows[0].n;

  type Event = { kind: 'subscribe' | 'expire' | 'return'; site: number; pick: number; browser: number; day: number; ms: number; withPrevious: boolean };
  const event: fc.Arbitrary<Event> = fc.record({
    kind: fc.constantFrom('subscribe', 'subscribe', 'subscribe', 'expire', 'expire', 'return'),
    site: fc.integer({ min: 0, max: 1 }),
    pick: fc.nat(),
    browser: fc.integer({ min: 0, max: BROWSERS.length - 1 }),
    // days before today, and the moment in that day
    day: fc.integer({ min: 0, max: 20 }),
    ms: fc.integer({ min: 0, max: DAY - 1 }),
    // written in one statement with the event before it, when both are of the same kind
    withPrevious: fc.boolean(),
  });

  it('equals a plain reading of the subscribe, expire and return events, for each site, whatever the statements that wrote them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 30 }), async (raw, days) => {
        const sites = [(await newSite(t)).siteId, (await newSite(t)).siteId];
        const today = Math.floor((await dbNow()) / DAY) * DAY;
        const events = raw.map((e) => ({ ...e, at: today - e.day * DAY + e.ms })).sort((a, b) => a.at - b.at);

        // The model: every subscriber with its site, family and state; and what happened when.
        const subs: { id?: string; site: number; family: string; active: boolean }[] = [];
        const happened: { kind: Event['kind']; site: number; at: number }[] = [];
        // Events become statements: a run of same-kind events joined by withPrevious is one statement.
        type Statement = { kind: Event['kind']; rows: { sub: number; at: number; endpoint?: string }[] };
        const statements: Statement[] = [];
        for (const e of events) {
          let sub: number;
          if (e.kind === 'subscribe') {
            subs.push({ site: e.site, family: BROWSERS[e.browser].family, active: true });
            sub = subs.length - 1;
          } else {
            const candidates = subs.map((s, i) => ({ s, i })).filter(({ s }) => s.active === (e.kind === 'expire'));
            if (candidates.length === 0) continue;
            sub = candidates[e.pick % candidates.length].i;
            subs[sub].active = e.kind !== 'expire';
          }
          happened.push({ kind: e.kind, site: subs[sub].site, at: e.at });
          const row = { sub, at: e.at, endpoint: e.kind === 'subscribe' ? BROWSERS[e.browser].endpoint() : undefined };
          const last = statements.at(-1);
          // A subscriber appears at most once in an UPDATE: a later event on it starts a new statement.
          if (e.withPrevious && last?.kind === e.kind && !last.rows.some((r) => r.sub === sub)) last.rows.push(row);
          else statements.push({ kind: e.kind, rows: [row] });
        }

        for (const st of statements) {
          if (st.kind === 'subscribe') {
            const { rows } = await t.pool.query(
              `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, created_at, updated_at)
               SELECT s, e, 'k', 'a', 'country__br', ARRAY['news'], at, at FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS x(s, e, at, n)
                ORDER BY n RETURNING id::text`,
              [st.rows.map((r) => sites[subs[r.sub].site]), st.rows.map((r) => r.endpoint), st.rows.map((r) => new Date(r.at))],
            );
            st.rows.forEach((r, i) => (subs[r.sub].id = rows[i].id));
          } else {
            // As the real statements do: an expiry sets deactivated_at (deactivateByEndpoint,
            // the outcomes of expired pushes, a subscription change); subscribing again clears it.
            await t.pool.query(
              st.kind === 'expire'
                ? `UPDATE delivery.subscribers s SET active = false, deactivated_at = v.at, updated_at = v.at FROM unnest($1::bigint[], $2::timestamptz[]) AS v(id, at) WHERE s.id = v.id`
                : `UPDATE delivery.subscribers s SET active = true, deactivated_at = NULL, updated_at = v.at FROM unnest($1::bigint[], $2::timestamptz[]) AS v(id, at) WHERE s.id = v.id`,
              [st.rows.map((r) => subs[r.sub].id), st.rows.map((r) => new Date(r.at))],
            );
          }
        }

        for (let site = 0; site < 2; site++) {
          const mine = happened.filter((h) => h.site === site);
          const expected: Expected[] = [];
          for (let d = days - 1; d >= 0; d--) {
            const start = today - d * DAY;
            const on = (kind: Event['kind']) => mine.filter((h) => h.kind === kind && h.at >= start && h.at < start + DAY).length;
            const upTo = (kind: Event['kind']) => mine.filter((h) => h.kind === kind && h.at < start + DAY).length;
            expected.push({ day: dayOf(start), created: on('subscribe'), expired: on('expire'), returned: on('return'), active: upTo('subscribe') + upTo('return') - upTo('expire') });
          }
          expect(await daily(sites[site], days), `site ${site}`).to.deep.equal(expected);
          expect(expected.at(-1)!.active).to.equal(await activeCount(sites[site]));
          const families = new Map<string, number>();
          for (const s of subs) if (s.site === site && s.active) families.set(s.family, (families.get(s.family) ?? 0) + 1);
          expect(await browsers(sites[site])).to.deep.equal(sortedEntries(families));
          expect(await browsers(sites[site])).to.deep.equal(sortedEntries(await bruteForceBrowsers(t.pool, sites[site])));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('counts what the real paths do today: subscribe, unsubscribe, subscribe again, a subscription change, an import with past dates', async () => {
    const site = await newSite(t);
    const subscribe = async (endpoint: string) => {
      const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() }, topics: ['news'] } });
      expect(res.status).to.be.oneOf([200, 201]);
    };
    const endpoints = [pushEndpoint(), pushEndpoint(), pushEndpoint(), `https://fcm.googleapis.com/fcm/send/${randomUUID()}`];
    for (const e of endpoints) await subscribe(e);
    expect((await request(t, 'DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: endpoints[0] } })).body).to.deep.equal({ deactivated: true });
    await subscribe(endpoints[0]); // back: returned
    await subscribe(endpoints[1]); // already active: nothing
    const replacement = pushEndpoint();
    await subscribe(replacement);
    const changed = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscription-changes`, { body: { oldEndpoint: endpoints[2], endpoint: replacement } });
    expect(changed.status).to.equal(200);
    // Imported subscriptions count on the day their createdAt names.
    const now = await dbNow();
    const threeDaysAgo = new Date(now - 3 * DAY);
    const imported = await insertNewSubscribers(t.pool, site.siteId, [
      { endpoint: `https://web.push.apple.com/${randomUUID()}`, p256dh: 'k', auth: 'a', country: 'country__br', topics: [], createdAt: threeDaysAgo.toISOString() },
      { endpoint: `https://web.push.apple.com/${randomUUID()}`, p256dh: 'k', auth: 'a', country: 'country__br', topics: [] },
    ]);
    expect(imported).to.equal(2);

    const answer = await daily(site.siteId, 5);
    const today = Math.floor(now / DAY) * DAY;
    expect(answer.map((d) => d.day)).to.deep.equal([4, 3, 2, 1, 0].map((d) => dayOf(today - d * DAY)));
    expect(answer[1]).to.deep.equal({ day: dayOf(today - 3 * DAY), created: 1, expired: 0, returned: 0, active: 1 });
    expect(answer[2]).to.deep.equal({ day: dayOf(today - 2 * DAY), created: 0, expired: 0, returned: 0, active: 1 });
    // 4 subscribed + the replacement + 1 imported today; unsubscribed and replaced: 2 expired; 1 back.
    expect(answer[4]).to.deep.equal({ day: dayOf(today), created: 6, expired: 2, returned: 1, active: 6 });
    expect(await activeCount(site.siteId)).to.equal(6);
    expect(await browsers(site.siteId)).to.deep.equal([['chrome', 1], ['other', 3], ['safari', 2]]);
  });

  it('counts a subscriber deleted while active as expired today; an endpoint or topics changed move only the browser counts', async () => {
    const site = await newSite(t);
    const now = await dbNow();
    const today = dayOf(now);
    await insertNewSubscribers(
      t.pool,
      site.siteId,
      BROWSERS.map((b) => ({ endpoint: b.endpoint(), p256dh: 'k', auth: 'a', country: 'country__br', topics: ['news'], createdAt: new Date(now - DAY).toISOString() })),
    );
    await t.pool.query(`UPDATE delivery.subscribers SET active = false, deactivated_at = now() WHERE site_id = $1 AND delivery.browser_of(endpoint) = 'edge'`, [site.siteId]);
    await t.pool.query(`UPDATE delivery.subscribers SET endpoint = 'https://fcm.googleapis.com/fcm/send/moved' WHERE site_id = $1 AND delivery.browser_of(endpoint) = 'firefox'`, [site.siteId]);
    await t.pool.query(`UPDATE delivery.subscribers SET topics = ARRAY['sport'] WHERE site_id = $1`, [site.siteId]);
    await t.pool.query(`DELETE FROM delivery.subscribers WHERE site_id = $1 AND delivery.browser_of(endpoint) IN ('safari', 'edge')`, [site.siteId]);
    expect((await daily(site.siteId, 2)).at(-1)).to.deep.equal({ day: today, created: 0, expired: 2, returned: 0, active: 3 });
    expect(await browsers(site.siteId)).to.deep.equal([['chrome', 2], ['other', 1]]);
    expect(await browsers(site.siteId)).to.deep.equal(sortedEntries(await bruteForceBrowsers(t.pool, site.siteId)));
  });

  it('keeps a statement over many subscribers quick on a connection whose first statement changed one (the triggers joining old and new rows)', async () => {
    const site = await newSite(t);
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, active)
       SELECT $1::uuid, 'https://fcm.googleapis.com/fcm/send/' || i || '-' || $1::text, 'k', 'a', 'country__br', ARRAY['news'], i % 10 <> 0 FROM generate_series(1, 30000) i`,
      [site.siteId],
    );
    // The subscriber.expired webhook's trigger joins them too, once an endpoint wants the event.
    const hook = (await t.pool.query(
      `INSERT INTO delivery.webhook_endpoints (id, site_id, url, events, secret_enc) VALUES (gen_random_uuid(), $1, 'https://hooks.example/x', ARRAY['subscriber.expired'], '\\x00') RETURNING id`,
      [site.siteId],
    )).rows[0].id as string;
    // A connection of its own: PL/pgSQL plans a trigger's queries at their first run in a connection.
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      await client.query(`UPDATE delivery.subscribers SET topics = ARRAY['first'] WHERE id = (SELECT min(id) FROM delivery.subscribers WHERE site_id = $1)`, [site.siteId]);
      const started = Date.now();
      await client.query(`UPDATE delivery.subscribers SET topics = ARRAY['sport'], updated_at = now() WHERE site_id = $1`, [site.siteId]);
      // A nested loop planned for one row took 111 s here; a hash or merge join, under a second.
      expect(Date.now() - started).to.be.below(5000);
    } finally {
      await client.end();
      await t.pool.query('DELETE FROM delivery.webhook_endpoints WHERE id = $1', [hook]);
    }
    expect((await daily(site.siteId, 1))[0].active).to.equal(27000);
  });

  it('answers 1 to 365 days ending today, zeros for a site it does not know, and refuses any other number of days', async () => {
    const site = await newSite(t);
    const today = dayOf(await dbNow());
    const one = await daily(site.siteId, 1);
    expect(one).to.deep.equal([{ day: today, created: 0, expired: 0, returned: 0, active: 0 }]);
    const year = await daily(randomUUID(), 365);
    expect(year).to.have.length(365);
    expect(year.at(-1)!.day).to.equal(today);
    expect(year.every((d) => d.created === 0 && d.expired === 0 && d.returned === 0 && d.active === 0)).to.equal(true);
    expect(await daily('not-a-uuid', 3)).to.have.length(3);
    expect(await browsers('not-a-uuid')).to.deep.equal([]);
    for (const days of [0, -1, 366, 100_000]) {
      expect(await refusal(calls.daily(site.siteId, days)), String(days)).to.deep.equal({
        code: grpc.status.INVALID_ARGUMENT,
        details: 'days must be an integer from 1 to 365',
      });
    }
  });
});

describe('console data: the migration backfills the counters of existing subscribers and reports', function () {
  this.timeout(60_000);
  const MINE = '20261127130000'; // the first migration of the console's counters
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let earlier: string;

  before(async () => {
    db = await freshDatabase('console_backfill');
    pool = createPool(db.url, { max: 2 });
    earlier = await mkdtemp(path.join(os.tmpdir(), 'delivery-migrations-'));
    for (const f of await readdir(MIGRATIONS_DIR)) if (f < MINE) await cp(path.join(MIGRATIONS_DIR, f), path.join(earlier, f));
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
    if (earlier) await rm(earlier, { recursive: true, force: true });
  });

  it('gives every day its creations and last expiries, active at each day end as those tell it, browsers and minutes as counted', async () => {
    await migrate(pool, 'delivery', earlier);
    const siteId = randomUUID();
    await pool.query(`INSERT INTO delivery.sites (site_id, public_id, vapid_public_key, vapid_private_key_enc) VALUES ($1, 'pub_backfill', 'k', '\\x00')`, [siteId]);
    const now = ((await pool.query('SELECT now() AS now')).rows[0].now as Date).getTime();
    // 300 subscribers over the last 40 days; a third inactive, some of those without deactivated_at.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % Math.max(1, n));
    const rows = Array.from({ length: 300 }, (_, i) => {
      const created = now - rand(40 * DAY);
      const inactive = i % 3 === 0;
      const deactivated = inactive && i % 9 !== 0 ? created + rand(now - created) : null;
      return { endpoint: BROWSERS[rand(BROWSERS.length)].endpoint(), created, inactive, deactivated, updated: deactivated ?? created + rand(now - created) };
    });
    await pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, active, created_at, deactivated_at, updated_at)
       SELECT $1, e, 'k', 'a', 'country__br', '{}', NOT i, c, d, u FROM unnest($2::text[], $3::boolean[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[]) AS x(e, i, c, d, u)`,
      [siteId, rows.map((r) => r.endpoint), rows.map((r) => r.inactive), rows.map((r) => new Date(r.created)), rows.map((r) => (r.deactivated === null ? null : new Date(r.deactivated))), rows.map((r) => new Date(r.updated))],
    );
    const campaignId = randomUUID();
    await pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job) VALUES ($1, $2, '{}')`, [campaignId, siteId]);
    await pool.query(
      `INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind, at)
       SELECT $1, i, CASE WHEN i % 4 = 0 THEN 'click' ELSE 'impression' END, now() - (i * 97 % 5000) * interval '1 second' FROM generate_series(1, 400) i`,
      [campaignId],
    );

    await migrate(pool, 'delivery', MIGRATIONS_DIR);

    const today = Math.floor(now / DAY) * DAY;
    const days = 45;
    const expected: Expected[] = [];
    for (let d = days - 1; d >= 0; d--) {
      const start = today - d * DAY;
      const end = start + DAY;
      const gone = (r: (typeof rows)[number]) => r.deactivated ?? r.updated;
      expected.push({
        day: dayOf(start),
        created: rows.filter((r) => r.created >= start && r.created < end).length,
        expired: rows.filter((r) => r.inactive && gone(r) >= start && gone(r) < end).length,
        returned: 0,
        active: rows.filter((r) => r.created < end).length - rows.filter((r) => r.inactive && gone(r) < end).length,
      });
    }
    expect(await audienceDaily(pool, siteId, days)).to.deep.equal(expected);
    expect(sortedEntries(new Map((await countByBrowser(pool, siteId)).map((b) => [b.browser, b.users])))).to.deep.equal(sortedEntries(await bruteForceBrowsers(pool, siteId)));
    const minutes = await pool.query(
      `SELECT (SELECT json_agg(x ORDER BY minute) FROM (SELECT minute, impressions::int, clicks::int FROM delivery.campaign_minutes WHERE campaign_id = $1) x) AS stored,
              (SELECT json_agg(x ORDER BY minute) FROM (SELECT date_trunc('minute', at, 'UTC') AS minute, count(*) FILTER (WHERE kind = 'impression')::int AS impressions,
                                                                 count(*) FILTER (WHERE kind = 'click')::int AS clicks
                                                            FROM delivery.tracking WHERE campaign_id = $1 GROUP BY 1) x) AS counted`,
      [campaignId],
    );
    expect(minutes.rows[0].stored).to.have.length.above(50);
    expect(minutes.rows[0].stored).to.deep.equal(minutes.rows[0].counted);

    // And the triggers take over from there.
    await pool.query(`INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country) VALUES ($1, 'https://web.push.apple.com/new', 'k', 'a', 'country__br')`, [siteId]);
    const last = (await audienceDaily(pool, siteId, 1))[0];
    expect(last).to.deep.equal({ ...expected.at(-1)!, created: expected.at(-1)!.created + 1, active: expected.at(-1)!.active + 1 });
  });
});
