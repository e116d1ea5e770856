// A campaign's impressions and clicks over time (delivery.v1.ConsoleData CampaignSeries): reports
// stored through the real recordTracking statement (and through the public events endpoint),
// then the series compared with a count over delivery.tracking grouped by minute (by hour after
// 48 hours) and with a model of what was stored, property-based; concurrent batches; isolation.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import { recordTracking } from '../../src/tracking/counter-store.js';
import { runFor } from '../../src/sending/run-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createPool, withTransaction } from '@webpush/shared/db.js';
import { browserKeys, dispatchMessage, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from '../support.js';
import { consoleCalls, refusal } from './calls.js';

type Kind = 'impression' | 'click';
interface Point {
  at: string;
  impressions: number;
  clicks: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** An instant as the API writes it. */
const apiTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19) + 'Z';

describe('console data: a campaign series', function () {
  this.timeout(120_000);
  let t: TestDelivery;
  let calls: ReturnType<typeof consoleCalls>;

  before(async () => {
    t = await startTestDelivery('console_series', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', TRACKING_RATE_LIMIT_PER_MINUTE: '0' });
    calls = consoleCalls(t.consoleData);
  });
  after(async () => {
    await t?.stop();
  });

  const newCampaign = async (siteId: string): Promise<string> => {
    const job = dispatchMessage(siteId, ['news']);
    await runFor(t.pool, job);
    return job.campaignId;
  };

  /** The brief's yardstick: a plain count over the campaign's stored reports, per minute or hour. */
  const countedFromTracking = async (campaignId: string, unit: 'minute' | 'hour'): Promise<Point[]> => {
    const { rows } = await t.pool.query(
      `SELECT date_trunc($2, at, 'UTC') AS at, count(*) FILTER (WHERE kind = 'impression')::int AS impressions,
              count(*) FILTER (WHERE kind = 'click')::int AS clicks
         FROM delivery.tracking WHERE campaign_id = $1 GROUP BY 1 ORDER BY 1`,
      [campaignId, unit],
    );
    return rows.map((r) => ({ at: apiTime((r.at as Date).getTime()), impressions: r.impressions, clicks: r.clicks }));
  };

  const seriesOf = async (siteId: string, campaignId: string) => {
    const s = await calls.series(siteId, campaignId);
    return { resolution: s.resolution, startedAt: s.startedAt, points: s.points.map((p) => ({ at: p.at, impressions: p.impressions, clicks: p.clicks })) };
  };

  const setStart = (campaignId: string, ago: string) =>
    t.pool.query(`UPDATE delivery.campaign_runs SET created_at = now() - $2::interval WHERE campaign_id = $1`, [campaignId, ago]);

  it('equals a count of the stored reports by minute, then by hour after 48 hours, whatever batches arrive in whatever order', async () => {
    const site = await newSite(t);
    const { rows } = await t.pool.query('SELECT now() AS now');
    const now = (rows[0].now as Date).getTime();
    // A report: a subscriber of the campaign (or of a second campaign of the site, or of a
    // campaign the delivery service has no run for), an impression or a click.
    const report = fc.record({ sub: fc.integer({ min: 1, max: 30 }), kind: fc.constantFrom<Kind>('impression', 'click'), target: fc.constantFrom(0, 0, 0, 1, 2) });
    // A batch: stored at some moment of the last 47 hours (not in time order: batches of a
    // service worker that was offline arrive late), its reports possibly repeating earlier ones.
    const batch = fc.record({ ago: fc.integer({ min: 0, max: 47 * HOUR }), reports: fc.array(report, { minLength: 1, maxLength: 20 }) });

    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 10 }), async (batches) => {
        const campaigns = [await newCampaign(site.siteId), await newCampaign(site.siteId), randomUUID()];
        const stored = new Map<string, number>(); // `${campaign}|${sub}|${kind}` → the moment it was first stored
        for (const b of batches) {
          const at = now - b.ago;
          const reports = b.reports.map((r) => ({ campaignId: campaigns[r.target], subscriberId: String(r.sub), kind: r.kind }));
          await withTransaction(t.pool, (tx) => recordTracking(tx, reports, new Date(at)));
          for (const r of reports) {
            const key = `${r.campaignId}|${r.subscriberId}|${r.kind}`;
            if (r.campaignId !== campaigns[2] && !stored.has(key)) stored.set(key, at);
          }
        }
        const modelled = (campaignId: string, unit: number): Point[] => {
          const buckets = new Map<number, Point>();
          for (const [key, at] of stored) {
            const [campaign, , kind] = key.split('|');
            if (campaign !== campaignId) continue;
            const start = Math.floor(at / unit) * unit;
            const p = buckets.get(start) ?? { at: apiTime(start), impressions: 0, clicks: 0 };
            if (kind === 'impression') p.impressions++;
            else p.clicks++;
            buckets.set(start, p);
          }
          return [...buckets].sort(([a], [b]) => a - b).map(([, p]) => p);
        };

        for (const campaignId of campaigns.slice(0, 2)) {
          const byMinute = await seriesOf(site.siteId, campaignId);
          expect(byMinute.resolution).to.equal('minute');
          expect(byMinute.points).to.deep.equal(await countedFromTracking(campaignId, 'minute'));
          expect(byMinute.points).to.deep.equal(modelled(campaignId, MINUTE));
          const run = await t.pool.query('SELECT impressions::int, clicks::int FROM delivery.campaign_runs WHERE campaign_id = $1', [campaignId]);
          const total = (k: 'impressions' | 'clicks') => byMinute.points.reduce((n, p) => n + p[k], 0);
          expect(run.rows[0]).to.deep.equal({ impressions: total('impressions'), clicks: total('clicks') });

          await setStart(campaignId, '49 hours');
          const byHour = await seriesOf(site.siteId, campaignId);
          expect(byHour.resolution).to.equal('hour');
          expect(byHour.points).to.deep.equal(await countedFromTracking(campaignId, 'hour'));
          expect(byHour.points).to.deep.equal(modelled(campaignId, HOUR));
        }
        // The campaign without a run stored nothing and answers no points.
        expect(await seriesOf(site.siteId, campaigns[2])).to.deep.equal({ resolution: 'minute', startedAt: '', points: [] });
      }),
      { numRuns: 60 },
    );
  });

  it('is per minute up to 48 hours after the dispatch and per hour from then on, starting at the dispatch', async () => {
    const site = await newSite(t);
    const campaignId = await newCampaign(site.siteId);
    await withTransaction(t.pool, (tx) => recordTracking(tx, [{ campaignId, subscriberId: '1', kind: 'impression' }]));
    await setStart(campaignId, '47 hours 59 minutes');
    const young = await seriesOf(site.siteId, campaignId);
    expect(young.resolution).to.equal('minute');
    const started = (await t.pool.query('SELECT created_at FROM delivery.campaign_runs WHERE campaign_id = $1', [campaignId])).rows[0].created_at as Date;
    expect(young.startedAt).to.equal(apiTime(started.getTime()));
    await setStart(campaignId, '48 hours 1 minute');
    const old = await seriesOf(site.siteId, campaignId);
    expect(old.resolution).to.equal('hour');
    expect(old.points).to.have.length(1);
    expect(old.points[0].at).to.match(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);
    expect(old.points[0]).to.include({ impressions: 1, clicks: 0 });
  });

  it('keeps every report of concurrent batches for the same minutes and campaigns (no deadlock, nothing lost or counted twice)', async () => {
    const site = await newSite(t);
    // 12 batches at once (12 connections), each over three campaigns in its own order,
    // overlapping the others' reports; five rounds. (The statement before this one deadlocked in
    // about one batch in ten of this: its inserts and its runs' locks came in varying orders.)
    const pool = createPool(t.config.databaseUrl, { max: 12 });
    try {
      for (let round = 0; round < 5; round++) {
        const campaigns = [await newCampaign(site.siteId), await newCampaign(site.siteId), await newCampaign(site.siteId)];
        const at = new Date();
        await Promise.all(
          Array.from({ length: 12 }, (_, b) =>
            withTransaction(pool, (tx) =>
              recordTracking(
                tx,
                Array.from({ length: 150 }, (_, i) => ({
                  campaignId: campaigns[(b + i) % 3],
                  subscriberId: String(((b * 37 + i * 11) % 200) + 1),
                  kind: (i + b) % 4 === 0 ? ('click' as const) : ('impression' as const),
                })),
                at,
              ),
            ),
          ),
        );
        for (const campaignId of campaigns) {
          const s = await seriesOf(site.siteId, campaignId);
          expect(s.points).to.deep.equal(await countedFromTracking(campaignId, 'minute'));
          expect(s.points).to.have.length(1);
        }
      }
    } finally {
      await pool.end();
    }
  });

  it('counts impressions and clicks the service worker reports through the public events endpoint', async () => {
    const site = await newSite(t);
    const subscribed = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() }, topics: ['news'] },
    });
    expect(subscribed.status).to.equal(201);
    const subscriberId = (await t.pool.query('SELECT id::text FROM delivery.subscribers WHERE public_id = $1', [subscribed.body.id])).rows[0].id as string;
    const campaignId = await newCampaign(site.siteId);
    const token = trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] }).sign({ campaignId, subscriberId });
    for (const type of ['impression', 'click', 'click']) {
      const res = await request(t, 'POST', '/public/v1/events', { body: { type, token } });
      expect(res.status).to.equal(202);
    }
    const s = await seriesOf(site.siteId, campaignId);
    expect(s.points).to.deep.equal(await countedFromTracking(campaignId, 'minute'));
    expect(s.points.reduce((n, p) => n + p.impressions, 0)).to.equal(1);
    expect(s.points.reduce((n, p) => n + p.clicks, 0)).to.equal(1);
  });

  it("answers another site's campaign, or an id that is not a UUID, as not found; a campaign never dispatched has no points", async () => {
    const mine = await newSite(t);
    const theirs = await newSite(t);
    const theirCampaign = await newCampaign(theirs.siteId);
    await withTransaction(t.pool, (tx) => recordTracking(tx, [{ campaignId: theirCampaign, subscriberId: '7', kind: 'click' }]));
    for (const [siteId, campaignId] of [
      [mine.siteId, theirCampaign],
      [mine.siteId, theirCampaign.toUpperCase()],
      [mine.siteId, 'not-a-uuid'],
      [mine.siteId, ''],
      ['not-a-site', theirCampaign],
    ]) {
      expect(await refusal(calls.series(siteId, campaignId)), `${siteId} ${campaignId}`).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Campaign not found' });
    }
    expect((await seriesOf(theirs.siteId.toUpperCase(), theirCampaign.toUpperCase())).points).to.have.length(1);
    expect(await seriesOf(mine.siteId, randomUUID())).to.deep.equal({ resolution: 'minute', startedAt: '', points: [] });
  });
});
