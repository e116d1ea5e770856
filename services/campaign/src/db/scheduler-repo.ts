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
