// A throttled campaign's pace, kept where its pushes go out (docs/api-decisions.md "Throttling").
// The pacer (pacer.ts) publishes the chunks a little ahead of their time; here every push gets a
// slot of its own, 60,000 ÷ rate ms after the one before. A claim batch reserves its slots on the
// campaign's row of delivery.send_pace: one clock per campaign, shared by every instance sending
// it and kept across a restart. A reservation never starts in the past, so time no push used is
// not made up in a burst; a chunk that arrives late (consumer lag, a busy machine) only waits
// less. The request of each push starts at its slot, after its encryption and its `sending`
// mark; a push that misses its slot (a stall) takes a new one. What reaches the push service
// keeps the spacing of the slots, whatever the publishing and the consuming did.
import type { Queryable } from '@webpush/shared/db.js';
import { reserveSlots } from './send-pace-store.js';

/** How long a reading of Postgres's clock is trusted over a later one with a longer round trip. */
const CLOCK_READING_MS = 60_000;

/**
 * The reservations of one process. Slots are moments on Postgres's clock, mapped onto this
 * process's performance.now() by an offset read with each reservation: Postgres's clock was read
 * between the query's send and its answer, so the offset is known to half the round trip, and
 * the reading with the shortest round trip (of the last minute) is kept. One offset for every
 * batch keeps them apart: mapping each by its own round trip would shift each by its own delay
 * (a slow answer on a busy machine), and consecutive batches would overlap.
 */
export function createSendPace(db: Queryable) {
  let best: { rttMs: number; offsetMs: number; at: number } | null = null;
  return {
    /** Reserves `count` consecutive slots `spacingMs` apart on the campaign's clock; answers the first one's performance.now() time. */
    async reserve(campaignId: string, count: number, spacingMs: number): Promise<number> {
      const sent = performance.now();
      const slots = await reserveSlots(db, campaignId, count, spacingMs);
      const answered = performance.now();
      const reading = { rttMs: answered - sent, offsetMs: (sent + answered) / 2 - slots.nowMs, at: answered };
      if (!best || reading.rttMs <= best.rttMs || answered - best.at > CLOCK_READING_MS) best = reading;
      return slots.firstMs + best.offsetMs;
    },
  };
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
 * A push released this much after its slot (a busy event loop, a slow mark) has missed it and
 * takes a new one. Pushes that go up to this late add, to any one second, at most the pushes of
 * this much of the rate (pushes never go early), whatever their bunching: 10 % at 100 ms, within
 * the 1.15× promised. A later one, sent then, would add more; its missed slot is time lost
 * instead, so a smaller value loses more of the rate on a busy machine.
 */
export const STALL_MS = 100;

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
