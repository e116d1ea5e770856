// Rows for the relay to publish (it lives elsewhere); always written in the caller's transaction.
import type { Queryable } from '@webpush/shared/db.js';

export interface OutboxEntry {
  campaignId: string;
  kind: string;
  payload: Record<string, unknown>;
}

export async function insertOutbox(db: Queryable, entries: readonly OutboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO campaign.outbox (campaign_id, kind, payload)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[])`,
    [entries.map((e) => e.campaignId), entries.map((e) => e.kind), entries.map((e) => JSON.stringify(e.payload))],
  );
}
