// Claiming due campaigns. SKIP LOCKED lets any number of schedulers share the work, and a row
// being deleted is skipped too; both sides are conditional on `dispatched_at IS NULL`.
import type { Queryable } from '@webpush/shared/db.js';

export interface DispatchedCampaign {
  id: string;
  dispatchedAt: Date;
  scheduleDate: Date;
}

/**
 * Marks up to `batchSize` due campaigns dispatched and writes their send jobs to the outbox, in
 * one statement (atomic on its own: one round trip, no BEGIN/COMMIT). Each job's payload is a
 * fresh request id (gen_random_uuid, the form of newRequestId): no API call led to it. The same
 * row as dispatchJob writes for a campaign sent now.
 */
export async function dispatchDue(db: Queryable, batchSize: number): Promise<DispatchedCampaign[]> {
  const { rows } = await db.query(
    `WITH due AS (
       SELECT id FROM campaign.campaigns
        WHERE status = 'published' AND dispatched_at IS NULL AND schedule_date <= now()
        ORDER BY schedule_date
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     ), marked AS (
       UPDATE campaign.campaigns c SET dispatched_at = now()
         FROM due WHERE c.id = due.id AND c.dispatched_at IS NULL
       RETURNING c.id, c.dispatched_at, c.schedule_date
     ), jobs AS (
       INSERT INTO campaign.outbox (campaign_id, kind, payload)
       SELECT id, 'campaign.dispatch', jsonb_build_object('requestId', gen_random_uuid()::text) FROM marked
     )
     SELECT id, dispatched_at, schedule_date FROM marked`,
    [batchSize],
  );
  return rows.map((r) => ({ id: r.id, dispatchedAt: r.dispatched_at, scheduleDate: r.schedule_date }));
}

/** The earliest schedule date still ahead (null when none): the scheduler wakes at it. */
export async function nextDueDate(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query(
    `SELECT min(schedule_date) AS next FROM campaign.campaigns
      WHERE status = 'published' AND dispatched_at IS NULL AND schedule_date > now()`,
  );
  return rows[0].next;
}

/**
 * Seconds the most overdue scheduled campaign is past its schedule date without being dispatched
 * (0 when none). Dispatch lateness is only observed when the scheduler runs; this sees a
 * scheduler that does not run at all.
 */
export async function oldestOverdue(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(schedule_date)), 0)::float8 AS overdue
       FROM campaign.campaigns
      WHERE status = 'published' AND dispatched_at IS NULL AND schedule_date <= now()`,
  );
  return rows[0].overdue;
}
