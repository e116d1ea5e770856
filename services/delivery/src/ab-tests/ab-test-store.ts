// The A/B test's SQL: a run's test window and winner (columns of delivery.campaign_runs) and the
// variants' results, read from the test share's delivery log and tracking. The rules that use
// them are in winners.ts; the shared rules (buckets, thresholds, the best variant) in
// packages/contracts/src/ab-test.ts.
import type { Queryable } from '@webpush/shared/db.js';
import { testThreshold, type AbTest, type AbWinner, type VariantResult } from '@webpush/contracts/ab-test.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';

/** Each variant's pushes sent, impressions and clicks within the test share (every variant listed). */
export async function variantResults(db: Queryable, campaignId: string, ab: AbTest): Promise<VariantResult[]> {
  const threshold = testThreshold(ab.testPercent);
  const { rows } = await db.query(
    `WITH test AS (
       SELECT subscriber_id, (state = 'sent')::int AS sent, 0 AS imp, 0 AS clk FROM delivery.delivery_log
        WHERE campaign_id = $1 AND delivery.ab_bucket($1, subscriber_id) < $2
       UNION ALL
       SELECT subscriber_id, 0, (kind = 'impression')::int, (kind = 'click')::int FROM delivery.tracking
        WHERE campaign_id = $1 AND delivery.ab_bucket($1, subscriber_id) < $2)
     SELECT (delivery.ab_bucket($1, subscriber_id)::bigint * $3 / $2)::int AS variant,
            sum(sent)::int AS sent, sum(imp)::int AS impressions, sum(clk)::int AS clicks
       FROM test GROUP BY 1`,
    [campaignId, threshold, ab.variants.length],
  );
  const found = new Map(rows.map((r) => [r.variant as number, r]));
  return ab.variants.map((_, variant) => {
    const r = found.get(variant);
    return { variant, sent: r?.sent ?? 0, impressions: r?.impressions ?? 0, clicks: r?.clicks ?? 0 };
  });
}

/**
 * Starts a test's window (`windowMinutes` from now) unless it has started: at the test share's
 * first push, by the chunk worker, so a test whose first chunks waited in a busy consumer still
 * gets its whole window; by the pacer when the test share has no one to send to.
 */
export async function startTestWindow(db: Queryable, campaignId: string, windowMinutes: number): Promise<Date | null> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs SET ab_window_ends_at = coalesce(ab_window_ends_at, now() + $2 * interval '1 minute')
      WHERE campaign_id = $1 RETURNING ab_window_ends_at`,
    [campaignId, windowMinutes],
  );
  return rows[0]?.ab_window_ends_at ?? null;
}

/**
 * Locks the runs whose test window has ended without a winner (at most `limit`, earliest ended
 * first; runs another instance holds are skipped), with their job's test (undefined: no test).
 */
export async function lockEndedTests(db: Queryable, limit: number): Promise<{ campaignId: string; ab: AbTest | undefined }[]> {
  const { rows } = await db.query(
    `SELECT campaign_id, job FROM delivery.campaign_runs
      WHERE ab_winner IS NULL AND ab_window_ends_at <= now()
      ORDER BY ab_window_ends_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows.map((r) => ({ campaignId: r.campaign_id, ab: (r.job as DispatchMessage).abTest }));
}

/** Locks a site's run with a test for the customer's pick: its winner and window end, or null when there is none. */
export async function lockTestRun(db: Queryable, siteId: string, campaignId: string): Promise<{ winner: AbWinner | null; windowEndsAt: Date | null } | null> {
  const { rows } = await db.query(
    `SELECT ab_winner, ab_window_ends_at FROM delivery.campaign_runs WHERE campaign_id = $1 AND site_id = $2 AND job ? 'abTest' FOR UPDATE`,
    [campaignId, siteId],
  );
  return rows[0] ? { winner: rows[0].ab_winner, windowEndsAt: rows[0].ab_window_ends_at } : null;
}

/**
 * Records a winner unless one is already chosen (with the results it was chosen by, if given);
 * an expanding run's rest stages become due at once. Answers the run's winner (null: no such run).
 */
export async function setWinner(db: Queryable, campaignId: string, variant: number, by: AbWinner['by'], results?: VariantResult[]): Promise<AbWinner | null> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs
        SET ab_winner = coalesce(ab_winner, jsonb_build_object('variant', $2::int, 'decidedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'by', $3::text)),
            ab_results = CASE WHEN ab_winner IS NULL AND $4::jsonb IS NOT NULL THEN $4::jsonb ELSE ab_results END,
            next_expand_at = CASE WHEN state = 'expanding' AND ab_winner IS NULL THEN now() ELSE next_expand_at END
      WHERE campaign_id = $1 RETURNING ab_winner`,
    [campaignId, variant, by, results ? JSON.stringify(results) : null],
  );
  return rows[0]?.ab_winner ?? null;
}
