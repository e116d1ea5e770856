// A throttled campaign's pace, kept where its pushes go out (docs/api-decisions.md "Throttling").
// The pacer (pacer.ts) publishes the chunks a little ahead of their time; here every push gets a
// slot of its own, 60,000 ÷ rate ms after the one before. A claim batch reserves its slots on the
// campaign's row of delivery.send_pace: one clock per campaign, shared by every instance sending
// it and kept across a restart. A reservation never starts in the past, so time no push used is
// not made up in a burst; a chunk that arrives late (consumer lag, a busy machine) only waits
// less. The request of each push starts at its slot, after its encryption and its `sending`
// mark; a push that misses its slot (a stall) takes a new one. What reaches the push service
// keeps the spacing of the slots, whatever the publishing and the consuming did.
import type { Queryable } from '../../../shared/src/db.js';

/**
 * Reserves `count` consecutive slots `spacingMs` apart on the campaign's clock; answers how many
 * ms from now (Postgres's clock, so instances' clocks need not agree) the first one starts.
 */
export async function reserveSlots(db: Queryable, campaignId: string, count: number, spacingMs: number): Promise<number> {
  const { rows } = await db.query(
    `INSERT INTO delivery.send_pace AS p (campaign_id, next_at) VALUES ($1, clock_timestamp() + $2::int * $3::float8 * interval '1 millisecond')
     ON CONFLICT (campaign_id) DO UPDATE SET next_at = greatest(p.next_at, clock_timestamp()) + $2::int * $3::float8 * interval '1 millisecond'
     RETURNING extract(epoch FROM p.next_at - clock_timestamp()) * 1000 - $2::int * $3::float8 AS first_in_ms`,
    [campaignId, count, spacingMs],
  );
  return Math.max(0, Number(rows[0].first_in_ms));
}

export interface SlotClock {
  now(): number;
  setTimer(fn: () => void, ms: number): void;
}

const systemClock: SlotClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => void setTimeout(fn, ms),
};

/**
 * A push released this much after its slot (a busy event loop, a slow mark) has missed it: sent
 * then, it would take a slot another push (of any instance) holds, and a stall would come out
 * as a burst. It takes a new slot instead. Smaller lateness keeps the slot, so timer jitter
 * does not slow the rate; it adds at most this much of the rate to any one second (5 % at 50 ms).
 */
export const STALL_MS = 50;

/** Waits for `slot` (a performance.now() time): true at it, false when released too late (STALL_MS). */
export function waitForSlot(slot: number, clock: SlotClock = systemClock): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      const late = clock.now() - slot;
      if (late < 0) clock.setTimer(check, -late);
      else resolve(late <= STALL_MS);
    };
    check();
  });
}
