// Moves due scheduled campaigns to dispatch: marks them and writes their send jobs in one
// transaction. Safe with any number of instances (SKIP LOCKED); a tick never overlaps itself
// (shared/periodic.ts).
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { createPeriodic } from '../../../shared/src/periodic.js';
import { markDueDispatched } from '../db/scheduler-repo.js';
import { insertOutbox } from '../db/outbox-repo.js';
import { dispatchJob } from './dispatch-job.js';

/** Bounds one tick, so a huge backlog cannot starve shutdown; the next tick continues. */
const MAX_BATCHES_PER_TICK = 20;

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
  /** One batch in one transaction; resolves to how many campaigns it dispatched. */
  async function dispatchBatch(): Promise<number> {
    const dispatched = await withTransaction(deps.pool, async (tx) => {
      const due = await markDueDispatched(tx, opts.batchSize);
      await insertOutbox(tx, due.map((c) => dispatchJob(c.id)));
      return due;
    });
    // Observed after commit: only dispatches that happened count.
    for (const c of dispatched) deps.onLateness?.(Math.max(0, (c.dispatchedAt.getTime() - c.scheduleDate.getTime()) / 1000));
    if (dispatched.length > 0) deps.onDispatched?.();
    return dispatched.length;
  }

  async function tick(): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) {
      const n = await dispatchBatch();
      total += n;
      if (n < opts.batchSize) break;
    }
    if (total > 0) deps.log.info('dispatched scheduled campaigns', { count: total });
    return total;
  }

  const loop = createPeriodic(tick, { intervalMs: opts.intervalMs, onError: (err) => deps.log.error('scheduler tick failed', { err }) });

  return {
    tick,
    start: loop.start,
    stop: loop.stop,
  };
}
