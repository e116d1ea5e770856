// Claiming due campaigns. SKIP LOCKED lets any number of schedulers share the work, and a row
// being deleted is skipped too; both sides are conditional on `dispatched_at IS NULL`.
import type { Queryable } from '../../../shared/src/db.js';

export interface DispatchedCampaign {
  id: string;
  dispatchedAt: Date;
  scheduleDate: Date;
}

export async function markDueDispatched(db: Queryable, batchSize: number): Promise<DispatchedCampaign[]> {
  const { rows } = await db.query(
    `WITH due AS (
       SELECT id FROM campaign.campaigns
        WHERE status = 'published' AND dispatched_at IS NULL AND schedule_date <= now()
        ORDER BY schedule_date
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE campaign.campaigns c SET dispatched_at = now()
       FROM due WHERE c.id = due.id AND c.dispatched_at IS NULL
     RETURNING c.id, c.dispatched_at, c.schedule_date`,
    [batchSize],
  );
  return rows.map((r) => ({ id: r.id, dispatchedAt: r.dispatched_at, scheduleDate: r.schedule_date }));
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
