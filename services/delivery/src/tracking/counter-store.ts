// Tracking counters: reports stored once each and added to their runs' counters, and the
// counter publisher's SQL — runs whose counters changed since they were last published
// (stats_version ahead of stats_published, see migrations/20261123071500_published_counters.sql) —
// and a campaign's minute rows read back for the console's chart (series.ts).
import type { PoolClient } from 'pg';
import type { Queryable } from '@webpush/shared/db.js';
import type { FailedBy, ResultsByBrowser } from '@webpush/contracts/messages.js';
import type { RunState } from '../runs.js';
import { pieceTable } from '../runs.js';
import { variantResults } from '../ab-tests/index.js';
import { bestTimeResults } from '../sending/index.js';
import type { AbWinner, VariantResult } from '@webpush/contracts/ab-test.js';
import type { SlotResult } from '@webpush/contracts/best-time.js';

export interface RunCounters {
  campaignId: string;
  state: RunState;
  reason: string | null;
  /** Subscribers of the audience taken into the run so far. */
  audience: number;
  sent: number;
  failed: number;
  expired: number;
  impressions: number;
  clicks: number;
  failedBy: FailedBy;
  /** Subscribers not pushed: they had reached their site's frequency cap. */
  capped: number;
  /** Once the run is finished: its outcomes by browser family (fillResultsByBrowser). */
  byBrowser: ResultsByBrowser | null;
  /**
   * With an A/B test: each variant's results in the test share (refreshAbResults), the winner once
   * chosen, and when the test window ends (null before its first send).
   */
  abTest: { results: VariantResult[]; winner: AbWinner | null; windowEndsAt: string | null } | null;
  /** With best time: each slot's results (refreshBestTimeResults). */
  bestTime: { slots: SlotResult[] } | null;
  /** The run's stats_version when these counters were read (a bigint, as text). */
  version: string;
}

/**
 * Finished runs about to be published without their results by browser get them: one aggregate
 * of the run's delivery log, once per run (a 1,000,000-push run takes a few seconds of this
 * pass, once). At most `limit` runs.
 */
export async function fillResultsByBrowser(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `WITH due AS (
       SELECT campaign_id FROM delivery.campaign_runs
        WHERE stats_version > stats_published AND state IN ('completed', 'failed') AND by_browser IS NULL
        LIMIT $1),
     agg AS (
       SELECT d.campaign_id, coalesce(jsonb_object_agg(b.browser, b.counts), '{}'::jsonb) AS by_browser
         FROM due d
         CROSS JOIN LATERAL (
           SELECT delivery.browser_of(s.endpoint) AS browser,
                  jsonb_build_object('sent', count(*) FILTER (WHERE l.state = 'sent'), 'failed', count(*) FILTER (WHERE l.state = 'failed'),
                                     'expired', count(*) FILTER (WHERE l.state = 'expired'), 'capped', count(*) FILTER (WHERE l.state = 'capped')) AS counts
             FROM delivery.delivery_log l JOIN delivery.subscribers s ON s.id = l.subscriber_id
            WHERE l.campaign_id = d.campaign_id
            GROUP BY 1) b
        GROUP BY d.campaign_id)
     UPDATE delivery.campaign_runs r SET by_browser = coalesce(agg.by_browser, '{}'::jsonb)
       FROM due LEFT JOIN agg ON agg.campaign_id = due.campaign_id
      WHERE r.campaign_id = due.campaign_id`,
    [limit],
  );
  return rowCount ?? 0;
}

/** How often an A/B test's variant results are recomputed at most: an aggregate of its test share. */
const AB_RESULTS_EVERY_SECONDS = 5;

/**
 * A/B runs about to be published get their variants' results at their current version, at most
 * every few seconds each (ab-tests variantResults); until then they wait (changedCounters).
 */
export async function refreshAbResults(db: Queryable, limit: number): Promise<number> {
  const { rows } = await db.query(
    `SELECT campaign_id, job->'abTest' AS ab, stats_version::text, (log_expired_at IS NOT NULL OR tracking_expired_at IS NOT NULL) AS expired
       FROM delivery.campaign_runs
      WHERE stats_version > stats_published AND job ? 'abTest' AND ab_results_version < stats_version
        AND (ab_results_at IS NULL OR ab_results_at <= now() - $2 * interval '1 second')
      LIMIT $1`,
    [limit, AB_RESULTS_EVERY_SECONDS],
  );
  for (const r of rows) {
    if (r.expired) {
      // Detail gone: the results stored are final (retention takes only published runs).
      await db.query(`UPDATE delivery.campaign_runs SET ab_results_version = $2 WHERE campaign_id = $1`, [r.campaign_id, r.stats_version]);
      continue;
    }
    const results = await variantResults(db, r.campaign_id, r.ab);
    await db.query(`UPDATE delivery.campaign_runs SET ab_results = $2, ab_results_at = now(), ab_results_version = $3 WHERE campaign_id = $1`, [
      r.campaign_id,
      JSON.stringify(results),
      r.stats_version,
    ]);
  }
  return rows.length;
}

/**
 * Best-time runs about to be published get their slots' results at their current version, at
 * most every few seconds each (sending's bestTimeResults), as A/B runs get theirs.
 */
export async function refreshBestTimeResults(db: Queryable, limit: number): Promise<number> {
  const { rows } = await db.query(
    `SELECT campaign_id, stats_version::text, (log_expired_at IS NOT NULL OR tracking_expired_at IS NOT NULL) AS expired
       FROM delivery.campaign_runs
      WHERE stats_version > stats_published AND job ? 'bestTime' AND best_time_results_version < stats_version
        AND (best_time_results_at IS NULL OR best_time_results_at <= now() - $2 * interval '1 second')
      LIMIT $1`,
    [limit, AB_RESULTS_EVERY_SECONDS],
  );
  for (const r of rows) {
    const results = r.expired ? null : await bestTimeResults(db, r.campaign_id);
    await db.query(
      `UPDATE delivery.campaign_runs SET best_time_results = coalesce($2::jsonb, best_time_results), best_time_results_at = now(), best_time_results_version = $3
        WHERE campaign_id = $1`,
      [r.campaign_id, results && JSON.stringify(results), r.stats_version],
    );
  }
  return rows.length;
}

/**
 * Runs with changes not yet published, at most `limit`: an A/B run once its results are of its
 * version (a best-time run likewise), a finished run once its results by browser are filled. A run that finishes after the
 * pass filled the finished ones waits for the next fill: published without them, it would be
 * marked published and never filled (issue 34).
 */
export async function changedCounters(db: Queryable, limit: number): Promise<RunCounters[]> {
  const { rows } = await db.query(
    `SELECT campaign_id, state, reason, audience_size::text, sent::text, failed::text, expired::text, impressions::text,
            clicks::text, failed_rejected::text, failed_unauthorized::text, failed_unreachable::text, failed_refused::text,
            capped::text, by_browser, job ? 'abTest' AS has_ab, ab_results, ab_winner, ab_window_ends_at,
            job ? 'bestTime' AS has_best_time, best_time_results, stats_version::text
       FROM delivery.campaign_runs
      WHERE stats_version > stats_published AND NOT (job ? 'abTest' AND ab_results_version < stats_version)
        AND NOT (job ? 'bestTime' AND best_time_results_version < stats_version)
        AND NOT (state IN ('completed', 'failed') AND by_browser IS NULL)
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    campaignId: r.campaign_id,
    state: r.state,
    reason: r.reason,
    audience: Number(r.audience_size),
    sent: Number(r.sent),
    failed: Number(r.failed),
    expired: Number(r.expired),
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    failedBy: {
      rejected: Number(r.failed_rejected),
      unauthorized: Number(r.failed_unauthorized),
      unreachable: Number(r.failed_unreachable),
      refused: Number(r.failed_refused),
    },
    capped: Number(r.capped),
    byBrowser: r.by_browser,
    abTest: r.has_ab ? { results: r.ab_results ?? [], winner: r.ab_winner, windowEndsAt: r.ab_window_ends_at ? (r.ab_window_ends_at as Date).toISOString() : null } : null,
    bestTime: r.has_best_time ? { slots: r.best_time_results ?? [] } : null,
    version: r.stats_version,
  }));
}

/** Records what was published; a run changed meanwhile stays ahead and is published again. */
export async function markCountersPublished(db: Queryable, published: readonly Pick<RunCounters, 'campaignId' | 'version'>[]): Promise<void> {
  if (published.length === 0) return;
  await db.query(
    `UPDATE delivery.campaign_runs r SET stats_published = v.version
       FROM unnest($1::uuid[], $2::bigint[]) AS v(campaign_id, version)
      WHERE r.campaign_id = v.campaign_id AND r.stats_published < v.version`,
    [published.map((p) => p.campaignId), published.map((p) => p.version)],
  );
}

const PUBLISHER_LOCK = 'delivery:counter-publisher';

/** One publisher at a time across instances (a session lock: a dead instance's goes with its connection). */
export async function tryLockPublisher(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [PUBLISHER_LOCK]);
  return rows[0].locked === true;
}

export async function unlockPublisher(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_unlock(hashtext($1))', [PUBLISHER_LOCK]);
}

/**
 * Stores tracking reports once each and adds the new ones to their runs' counters and to their
 * campaigns' minutes (delivery.campaign_minutes: the console's series), and writes a click on a
 * person's notification to the people's signals, all in one statement;
 * returns the campaigns whose counters changed. `at` is the moment the reports are stored at:
 * the transaction's now() unless given (tests place reports in other minutes with it).
 */
export async function recordTracking(
  tx: PoolClient,
  reports: { campaignId: string; subscriberId: string; kind: 'impression' | 'click' }[],
  at: Date | null = null,
): Promise<string[]> {
  if (reports.length === 0) return [];
  // Each run's reports go to its piece's tracking table (migrations/20261204190000_detail_pieces.sql).
  // A run whose tracking detail expired takes no more reports: whether a report is new can no
  // longer be told, and its figures are final (docs/architecture.md, "Retention").
  const { rows: runs } = await tx.query(
    `SELECT campaign_id, to_char(log_piece, 'YYYY-MM-DD') AS piece FROM delivery.campaign_runs
      WHERE campaign_id = ANY($1::uuid[]) AND tracking_expired_at IS NULL ORDER BY campaign_id`,
    [[...new Set(reports.map((r) => r.campaignId))]],
  );
  const byTable = new Map<string, string[]>();
  for (const r of runs) {
    const table = pieceTable('tracking', r.piece);
    byTable.set(table, [...(byTable.get(table) ?? []), r.campaign_id]);
  }
  if (byTable.size === 0) return [];
  const tables = [...byTable.keys()].sort();
  // Every batch takes its locks in one order, so concurrent batches (several instances, the same
  // campaigns, overlapping reports) wait for each other but never deadlock: the reports' keys in
  // table and key order (ins), then the runs in campaign order (locked: the update's own join
  // locked them in the table's physical order, which every update changes, and batches
  // deadlocked), then the minutes in campaign order (`minutes` is read by nobody, so Postgres runs
  // it after the main statement). A batch is stored at one moment, so each campaign's new reports
  // go to one minute.
  const inserts = tables.map(
    (table, i) => `ins${i} AS (
       INSERT INTO ${table} (campaign_id, subscriber_id, kind, at)
       SELECT DISTINCT t.campaign_id, t.subscriber_id, t.kind, coalesce($4::timestamptz, now())
         FROM unnest($1::uuid[], $2::bigint[], $3::text[]) AS t(campaign_id, subscriber_id, kind)
        WHERE t.campaign_id = ANY($${5 + i}::uuid[])
        ORDER BY 1, 2, 3
       ON CONFLICT DO NOTHING
       RETURNING campaign_id, subscriber_id, kind)`,
  );
  const { rows } = await tx.query(
    `WITH ${inserts.join(',\n     ')},
     ins AS (${tables.map((_, i) => `SELECT campaign_id, subscriber_id, kind FROM ins${i}`).join(' UNION ALL ')}),
     -- A subscription's first click on a notification made for a person is that person's signal
     -- (people's outbox: the automation run that sent it exits); a deleted person's target names nobody ('').
     clicked AS (
       INSERT INTO delivery.person_signals (site_id, kind, external_id, notification_id)
       SELECT r.site_id, 'notification.clicked', t.external_id, i.campaign_id
         FROM ins i
         JOIN delivery.notification_targets t ON t.notification_id = i.campaign_id AND t.subscriber_id = i.subscriber_id
         JOIN delivery.campaign_runs r ON r.campaign_id = i.campaign_id
        WHERE i.kind = 'click' AND t.external_id <> ''),
     agg AS (
       SELECT campaign_id, count(*) FILTER (WHERE kind = 'impression') AS imp, count(*) FILTER (WHERE kind = 'click') AS clk
         FROM ins GROUP BY campaign_id),
     locked AS (
       SELECT r.campaign_id FROM delivery.campaign_runs r WHERE r.campaign_id IN (SELECT campaign_id FROM agg) ORDER BY r.campaign_id FOR UPDATE),
     minutes AS (
       INSERT INTO delivery.campaign_minutes AS m (campaign_id, minute, impressions, clicks)
       SELECT campaign_id, date_trunc('minute', coalesce($4::timestamptz, now()), 'UTC'), imp, clk FROM agg ORDER BY campaign_id
       ON CONFLICT (campaign_id, minute) DO UPDATE SET impressions = m.impressions + EXCLUDED.impressions, clicks = m.clicks + EXCLUDED.clicks)
     UPDATE delivery.campaign_runs r SET impressions = r.impressions + agg.imp, clicks = r.clicks + agg.clk
       FROM agg JOIN locked USING (campaign_id) WHERE r.campaign_id = agg.campaign_id
     RETURNING r.campaign_id`,
    [reports.map((r) => r.campaignId), reports.map((r) => r.subscriberId), reports.map((r) => r.kind), at, ...tables.map((t) => byTable.get(t)!)],
  );
  return rows.map((r) => r.campaign_id as string);
}

/** A campaign's run as its series needs it: owner, start, and whether it is still within `minuteHours` of its start; null without a run. */
export async function seriesRun(db: Queryable, campaignId: string, minuteHours: number): Promise<{ siteId: string; createdAt: Date; byMinute: boolean } | null> {
  const run = await db.query(
    `SELECT site_id, created_at, now() - created_at < $2 * interval '1 hour' AS by_minute FROM delivery.campaign_runs WHERE campaign_id = $1`,
    [campaignId, minuteHours],
  );
  if (run.rows.length === 0) return null;
  const { site_id: siteId, created_at: createdAt, by_minute: byMinute } = run.rows[0] as { site_id: string; created_at: Date; by_minute: boolean };
  return { siteId, createdAt, byMinute };
}

/**
 * A campaign's impressions and clicks per minute, or per hour rolled up from its own minute rows
 * (its primary-key range: at most one row per minute it was reported in, so a few thousand at
 * most for a campaign followed for days) — cheaper than a second, hourly table that every
 * tracking batch would also write. Only buckets with a report, oldest first.
 */
export async function seriesBuckets(db: Queryable, campaignId: string, byMinute: boolean): Promise<{ at: Date; impressions: number; clicks: number }[]> {
  const { rows } = await db.query(
    byMinute
      ? `SELECT minute AS at, impressions::text, clicks::text FROM delivery.campaign_minutes WHERE campaign_id = $1 ORDER BY minute`
      : `SELECT date_trunc('hour', minute, 'UTC') AS at, sum(impressions)::text AS impressions, sum(clicks)::text AS clicks
           FROM delivery.campaign_minutes WHERE campaign_id = $1 GROUP BY 1 ORDER BY 1`,
    [campaignId],
  );
  return rows.map((r) => ({ at: r.at as Date, impressions: Number(r.impressions), clicks: Number(r.clicks) }));
}
