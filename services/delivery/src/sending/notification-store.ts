// A notification's targets (delivery.notification_targets; docs/api-decisions.md,
// "Notifications"): resolved once to the site's active subscribers, read back in subscriber-id
// slices for its chunks, and its results by target — the delivery log's outcome of each, in the
// request's order.
import type { Queryable } from '@webpush/shared/db.js';
import { logTableOf } from './delivery-log-store.js';

/**
 * Stores the targets of `notificationId` with the site's active subscriber each names (none: no
 * subscription, and never another site's). Once: a repeated dispatch finds them stored and
 * changes nothing.
 */
export async function resolveTargets(db: Queryable, notificationId: string, siteId: string, subscriptionIds: readonly string[]): Promise<void> {
  await db.query(
    `INSERT INTO delivery.notification_targets (notification_id, position, subscription_id, subscriber_id)
     SELECT $1, t.position, t.id, s.id
       FROM unnest($3::uuid[]) WITH ORDINALITY AS t(id, position)
       LEFT JOIN delivery.subscribers s ON s.public_id = t.id AND s.site_id = $2 AND s.active
     ON CONFLICT (notification_id, position) DO NOTHING`,
    [notificationId, siteId, subscriptionIds],
  );
}

/** Next slice of a notification's resolved targets after subscriber `afterId`, in id order (as audienceSlice). */
export async function targetsSlice(db: Queryable, notificationId: string, afterId: string, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT subscriber_id::text AS id FROM delivery.notification_targets
      WHERE notification_id = $1 AND subscriber_id > $2::bigint
      ORDER BY subscriber_id LIMIT $3`,
    [notificationId, afterId, limit],
  );
  return rows.map((r) => r.id as string);
}

export type TargetOutcome = 'sent' | 'noSubscription' | 'capped' | 'failed' | 'pending';

export interface TargetResult {
  position: number;
  subscriptionId: string;
  outcome: TargetOutcome;
  reason: string;
}

// A subscription the push service answered 404 or 410 for is gone (and deactivated): no subscription.
// Once the run is final its outcomes are kept with the targets (the same rule, in
// migrations/20261207070100_notification_outcomes.sql), so they outlive its delivery log.
const OUTCOME = `coalesce(t.outcome, CASE WHEN t.subscriber_id IS NULL OR l.state = 'expired' THEN 'noSubscription'
                      WHEN l.state IN ('sent', 'capped', 'failed') THEN l.state ELSE 'pending' END)`;
const REASON = `coalesce(t.reason, CASE WHEN l.state = 'failed' THEN coalesce(l.reason, '') ELSE '' END)`;
/** Stands for a delivery log that retention has dropped: no row, every outcome kept with the targets. */
const NO_LOG = `(SELECT NULL::uuid AS campaign_id, NULL::bigint AS subscriber_id, NULL::text AS state, NULL::text AS reason WHERE false)`;

/** The targets' counts by outcome, and the page of results after position `after`. */
export async function targetResults(
  db: Queryable,
  notificationId: string,
  after: number,
  limit: number,
): Promise<{ counts: Record<TargetOutcome, number>; results: TargetResult[]; hasMore: boolean }> {
  const expired = await db.query(`SELECT 1 FROM delivery.campaign_runs WHERE campaign_id = $1 AND log_expired_at IS NOT NULL`, [notificationId]);
  const table = expired.rowCount ? NO_LOG : await logTableOf(db, notificationId);
  const from = `FROM delivery.notification_targets t LEFT JOIN ${table} l ON l.campaign_id = t.notification_id AND l.subscriber_id = t.subscriber_id
               WHERE t.notification_id = $1`;
  const counted = await db.query(`SELECT ${OUTCOME} AS outcome, count(*)::int AS n ${from} GROUP BY 1`, [notificationId]);
  const counts: Record<TargetOutcome, number> = { sent: 0, noSubscription: 0, capped: 0, failed: 0, pending: 0 };
  for (const r of counted.rows) counts[r.outcome as TargetOutcome] = r.n;
  const page = await db.query(
    `SELECT t.position::int AS position, t.subscription_id::text AS subscription_id, ${OUTCOME} AS outcome,
            ${REASON} AS reason
       ${from} AND t.position > $2 ORDER BY t.position LIMIT $3`,
    [notificationId, after, limit + 1],
  );
  const rows = page.rows.slice(0, limit);
  return {
    counts,
    results: rows.map((r) => ({ position: r.position, subscriptionId: r.subscription_id, outcome: r.outcome, reason: r.reason })),
    hasMore: page.rows.length > limit,
  };
}
