// A throttled campaign's clock (send-pace.ts): its row of delivery.send_pace, the next free slot,
// shared by every instance sending the campaign and kept across a restart.
import type { Queryable } from '@webpush/shared/db.js';

/**
 * Reserves `count` consecutive slots `spacingMs` apart, never starting in the past; answers the
 * first one and Postgres's clock at the reservation, both in epoch milliseconds.
 */
export async function reserveSlots(db: Queryable, campaignId: string, count: number, spacingMs: number): Promise<{ firstMs: number; nowMs: number }> {
  const { rows } = await db.query(
    `INSERT INTO delivery.send_pace AS p (campaign_id, next_at) VALUES ($1, clock_timestamp() + $2::int * $3::float8 * interval '1 millisecond')
     ON CONFLICT (campaign_id) DO UPDATE SET next_at = greatest(p.next_at, clock_timestamp()) + $2::int * $3::float8 * interval '1 millisecond'
     RETURNING extract(epoch FROM p.next_at) * 1000 - $2::int * $3::float8 AS first_ms, extract(epoch FROM clock_timestamp()) * 1000 AS now_ms`,
    [campaignId, count, spacingMs],
  );
  return { firstMs: Number(rows[0].first_ms), nowMs: Number(rows[0].now_ms) };
}
