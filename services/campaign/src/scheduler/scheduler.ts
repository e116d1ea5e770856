// Moves due scheduled campaigns to dispatch: marks them and writes their send jobs in one
// statement per batch. Safe with any number of instances (SKIP LOCKED); a tick never overlaps
// itself (shared/periodic.ts). A crowd due in the same second goes out without a long tail:
// the scheduler wakes at the earliest schedule date ahead (not on its next interval), runs
// several batches at once, and goes on at once when a tick ended with campaigns still due.
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { dispatchDue, nextDueDate } from './scheduler-store.js';

/** Bounds one tick, so a huge backlog cannot starve shutdown; a tick that hits it wakes the next at once. */
const MAX_BATCHES_PER_TICK = 60;

/**
 * Batches in flight at once: Postgres works on them in parallel (four of 100 dispatched 10,000
 * due campaigns 1.7× faster than one after another on the 2-core machine, docs/history/performance-log.md);
 * three leave most of the pool's connections to the API.
 */
const PARALLEL_BATCHES = 3;

export interface SchedulerOptions {
  intervalMs: number;
  batchSize: number;
}

export interface SchedulerDeps {
  pool: Pool;
  log: Logger;
  /** Seconds between schedule date and dispatch, per campaign. */
  onLateness?: (seconds: number) => void;
  /** After a batch that wrote outbox rows has committed (wakes the relay). */
  onDispatched?: () => void;
}

export function createScheduler(deps: SchedulerDeps, opts: SchedulerOptions) {
  /** One batch in one statement; resolves to how many campaigns it dispatched. */
  async function dispatchBatch(): Promise<number> {
    const dispatched = await dispatchDue(deps.pool, opts.batchSize);
    // Observed after commit: only dispatches that happened count.
    for (const c of dispatched) deps.onLateness?.(Math.max(0, (c.dispatchedAt.getTime() - c.scheduleDate.getTime()) / 1000));
    if (dispatched.length > 0) deps.onDispatched?.();
    return dispatched.length;
  }

  let dueTimer: NodeJS.Timeout | undefined;

  /** Arms a wake at the earliest schedule date ahead, when it comes before the next interval's pass. */
  async function wakeAtNextDue(): Promise<void> {
    const next = await nextDueDate(deps.pool);
    if (!next || !loop.started()) return;
    const delayMs = next.getTime() - Date.now();
    if (delayMs >= opts.intervalMs) return;
    clearTimeout(dueTimer);
    // A timer that fires a little early finds nothing due and arms again for the same date.
    dueTimer = setTimeout(loop.wake, Math.max(0, delayMs));
    dueTimer.unref();
  }

  async function tick(): Promise<number> {
    let total = 0;
    let batches = 0;
    let drained = false;
    const worker = async () => {
      while (!drained && batches < MAX_BATCHES_PER_TICK && !loop.stopping()) {
        batches++;
        const n = await dispatchBatch();
        total += n;
        if (n < opts.batchSize) drained = true;
      }
    };
    // Settled, not Promise.all: the tick ends only when every batch in flight has ended.
    const failed = (await Promise.allSettled(Array.from({ length: PARALLEL_BATCHES }, worker))).find((r) => r.status === 'rejected');
    if (total > 0) deps.log.info('dispatched scheduled campaigns', { count: total });
    if (failed) throw failed.reason;
    if (drained) await wakeAtNextDue();
    else loop.wake();
    return total;
  }

  // The first pass at once: campaigns that fell due while no scheduler ran go out on start.
  const loop = createPeriodic(tick, { intervalMs: opts.intervalMs, firstPassDelayMs: 0, onError: (err) => deps.log.error('scheduler tick failed', { err }) });

  return {
    tick,
    start: loop.start,
    async stop() {
      clearTimeout(dueTimer);
      await loop.stop();
      clearTimeout(dueTimer);
    },
  };
}
