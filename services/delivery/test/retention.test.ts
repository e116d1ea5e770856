// Retention (retention/retention.ts) against a real Postgres and the real gRPC console calls:
// runs written through the real send-path statements into weekly pieces placed weeks back, then
// a pass. A piece whose runs are all long finished and published is dropped whole, and every
// figure a customer sees (the run's counters, results by browser and by variant, the series over
// gRPC) is the same after as before; a piece holding a run still sending is kept and the run
// sends on; the rows from before pieces leave with TRUNCATE ONLY; a late report is not counted.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { claim, markSending, recordOutcomes, type Outcome } from '../src/sending/delivery-log-store.js';
import { runFor } from '../src/sending/run-store.js';
import { changedCounters, fillResultsByBrowser, markCountersPublished, recordTracking, refreshAbResults } from '../src/tracking/counter-store.js';
import { checkRetention, createRetention, type RetentionReport } from '../src/retention/retention.js';
import { tableSizes } from '../src/retention/retention-store.js';
import { withTransaction } from '@webpush/shared/db.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from './support.js';
import { consoleCalls } from './console/calls.js';

const SETTINGS = { deliveryLogDays: 30, trackingDays: 30, capHistoryDays: 31, dropGraceSeconds: 0 };
const HOSTS = ['fcm.googleapis.com', 'fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', 'fcm.googleapis.com', '127.0.0.1'];
const OUTCOMES: Outcome['outcome'][] = ['sent', 'sent', 'failed', 'failed', 'sent', 'sent'];

describe('delivery: retention drops whole pieces of detail and keeps every figure', function () {
  this.timeout(120_000);
  let t: TestDelivery;
  let calls: ReturnType<typeof consoleCalls>;

  before(async () => {
    // The service's own passes stay out of the way (one at start, on nothing of this test's).
    t = await startTestDelivery('retention', { RETENTION_INTERVAL_SEC: '86400' });
    calls = consoleCalls(t.consoleData);
  });
  after(async () => {
    await t?.stop();
  });

  /** The Monday `weeksAgo` weeks back, as 'YYYY-MM-DD', with its piece made. */
  const oldPiece = async (weeksAgo: number): Promise<string> => {
    const { rows } = await t.pool.query(`SELECT to_char(delivery.detail_week(now() - $1 * interval '7 days'), 'YYYY-MM-DD') AS piece`, [weeksAgo]);
    await t.pool.query('SELECT delivery.ensure_detail_piece($1::date)', [rows[0].piece]);
    return rows[0].piece;
  };

  const newSubscribers = async (siteId: string): Promise<string[]> => {
    const ids: string[] = [];
    for (const host of HOSTS) {
      const { rows } = await t.pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics) VALUES ($1, $2, 'k', 'a', 'country__br', '{news}') RETURNING id::text`,
        [siteId, `https://${host}/push/${randomUUID()}`],
      );
      ids.push(rows[0].id);
    }
    return ids;
  };

  /** A run in `piece` (null: the parents) sent through the send path's statements, with two variants. */
  const sentRun = async (siteId: string, piece: string | null, ids: string[]): Promise<string> => {
    const job = dispatchMessage(siteId, ['news']);
    job.abTest = { variants: [{}, { title: 'B' }], testPercent: 100, winnerMetric: 'ctr', windowMinutes: 60 };
    await runFor(t.pool, job);
    await t.pool.query('UPDATE delivery.campaign_runs SET log_piece = $2, state = $3 WHERE campaign_id = $1', [job.campaignId, piece, 'sending']);
    const who = { instanceId: randomUUID(), lease: randomUUID(), liveLeases: [] as string[] };
    who.liveLeases = [who.lease];
    const claimed = await claim(t.pool, job.campaignId, ids, who, 10);
    expect(claimed.ids).to.have.length(ids.length);
    await markSending(t.pool, job.campaignId, who.lease, ids);
    await recordOutcomes(
      t.pool,
      job.campaignId,
      who.lease,
      ids.map((id, i) => ({ subscriberId: id, outcome: OUTCOMES[i], status: OUTCOMES[i] === 'sent' ? 201 : 400, reason: null })),
    );
    const reports = [
      ...ids.slice(0, 4).map((id) => ({ campaignId: job.campaignId, subscriberId: id, kind: 'impression' as const })),
      ...ids.slice(0, 2).map((id) => ({ campaignId: job.campaignId, subscriberId: id, kind: 'click' as const })),
    ];
    await withTransaction(t.pool, (tx) => recordTracking(tx, reports));
    return job.campaignId;
  };

  /** Finished 60 days ago, then published as the counter publisher does. */
  const finishLongAgo = async (campaignId: string) => {
    await t.pool.query(`UPDATE delivery.campaign_runs SET state = 'completed', completed_at = now() - interval '60 days' WHERE campaign_id = $1`, [campaignId]);
    await publishAll();
  };
  const publishAll = async () => {
    await fillResultsByBrowser(t.pool, 1000);
    await t.pool.query('UPDATE delivery.campaign_runs SET ab_results_at = NULL');
    await refreshAbResults(t.pool, 1000);
    await markCountersPublished(t.pool, await changedCounters(t.pool, 1000));
  };

  /** What a customer sees of a run: the published figures and the console's series. */
  const figures = async (siteId: string, campaignId: string) => {
    const { rows } = await t.pool.query(
      `SELECT state, audience_size, sent, failed, expired, impressions, clicks, failed_rejected, failed_unauthorized, failed_unreachable,
              failed_refused, capped, by_browser, ab_results, ab_winner
         FROM delivery.campaign_runs WHERE campaign_id = $1`,
      [campaignId],
    );
    return { run: rows[0], series: await calls.series(siteId, campaignId) };
  };

  /**
   * A pass of this test's own. The service started for the test makes one at its start
   * (firstPassDelayMs 0), and a pass that finds another holding the lock answers null: on a busy
   * machine the two meet, so wait (bounded) for the lock rather than read a skipped pass.
   */
  const ownPass = async (): Promise<RetentionReport> => {
    const retention = createRetention(t.pool, SETTINGS);
    for (let i = 0; i < 100; i++) {
      const report = await retention.pass();
      if (report) return report;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('another retention pass held the lock for 10 s');
  };

  const rowsIn = async (table: string): Promise<number | null> => {
    const { rows } = await t.pool.query('SELECT to_regclass($1) IS NOT NULL AS present', [table]);
    if (!rows[0].present) return null;
    return (await t.pool.query(`SELECT count(*)::int AS n FROM ONLY ${table}`)).rows[0].n;
  };

  it('drops a piece of long-finished runs whole, keeps a piece with a run still sending, truncates the rows from before pieces; figures unchanged', async () => {
    const { siteId } = await newSite(t);
    const ids = await newSubscribers(siteId);
    const expiring = await oldPiece(11);
    const kept = await oldPiece(10);
    const finished = await sentRun(siteId, expiring, ids);
    const legacy = await sentRun(siteId, null, ids);
    const sending = await sentRun(siteId, kept, ids.slice(0, 3));
    await finishLongAgo(finished);
    await finishLongAgo(legacy);
    await publishAll();

    // The send path wrote each run's detail into its own piece (the parents hold only the legacy run's).
    const log = (piece: string) => `delivery.delivery_log_${piece.replaceAll('-', '')}`;
    const tracking = (piece: string) => `delivery.tracking_${piece.replaceAll('-', '')}`;
    expect(await rowsIn(log(expiring))).to.equal(6);
    expect(await rowsIn(tracking(expiring))).to.equal(6);
    expect(await rowsIn('delivery.delivery_log')).to.be.at.least(6);
    const before = { finished: await figures(siteId, finished), legacy: await figures(siteId, legacy) };
    expect(before.finished.run).to.include({ sent: '4', failed: '2', expired: '0', impressions: '4', clicks: '2' });
    expect(before.finished.run.by_browser.chrome.sent).to.equal(3);
    expect(before.finished.run.ab_results.map((r: { sent: number }) => r.sent).reduce((a: number, b: number) => a + b)).to.equal(4);

    const report = await ownPass();
    expect(report.logExpired).to.include(expiring).and.not.include(kept);
    expect(report.logDropped).to.include(expiring);
    expect(report.trackingDropped).to.include(expiring);
    expect(report.legacyLogTruncated).to.equal(true);
    expect(report.legacyTrackingTruncated).to.equal(true);

    expect(await rowsIn(log(expiring)), 'the expired piece is dropped').to.equal(null);
    expect(await rowsIn(tracking(expiring))).to.equal(null);
    expect(await rowsIn('delivery.delivery_log'), 'the rows from before pieces are gone').to.equal(0);
    expect(await rowsIn(log(kept)), 'a piece with a run still sending is kept').to.equal(3);

    // Every figure is the same; publishing again changes nothing (no version moved).
    expect(await figures(siteId, finished)).to.deep.equal(before.finished);
    expect(await figures(siteId, legacy)).to.deep.equal(before.legacy);
    // Changed and published again (as when a migration adds a published field): the stored
    // results are sent, not recomputed from detail that is gone.
    await t.pool.query('UPDATE delivery.campaign_runs SET stats_version = stats_version + 1 WHERE campaign_id = $1', [finished]);
    await publishAll();
    expect(await figures(siteId, finished)).to.deep.equal(before.finished);

    // A late report for an expired run is not counted (whether it is new can no longer be told).
    const touched = await withTransaction(t.pool, (tx) => recordTracking(tx, [{ campaignId: finished, subscriberId: ids[5], kind: 'click' }]));
    expect(touched).to.deep.equal([]);
    expect(await figures(siteId, finished)).to.deep.equal(before.finished);

    // The run still sending sends on in its kept piece, exactly once.
    const who = { instanceId: randomUUID(), lease: randomUUID(), liveLeases: [] as string[] };
    who.liveLeases = [who.lease];
    expect((await claim(t.pool, sending, ids, who, 10)).ids).to.deep.equal(ids.slice(3));
    expect(await rowsIn(log(kept))).to.equal(6);

    // Once it too is long finished, its piece goes.
    await finishLongAgo(sending);
    const next = await ownPass();
    expect(next.logDropped).to.include(kept);
    expect(await rowsIn(log(kept))).to.equal(null);

    const sizes = await tableSizes(t.pool);
    expect(sizes.databaseBytes).to.be.greaterThan(0);
    expect(sizes.tables.map((s) => s.table)).to.include('campaign_runs');
  });

  it('never keeps the frequency-cap history for less than the longest cap window', () => {
    expect(() => checkRetention({ ...SETTINGS, capHistoryDays: 29 })).to.throw(/at least 30 days/);
    expect(checkRetention(SETTINGS)).to.equal(SETTINGS);
  });
});
