// Moves due scheduled campaigns to dispatch: marks them and writes their send jobs in one
// transaction. Safe with any number of instances (SKIP LOCKED); a tick never overlaps itself
// (periodic.ts).
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { markDueDispatched } from '../db/scheduler-repo.js';
import { insertOutbox } from '../db/outbox-repo.js';
import { dispatchJob } from './dispatch-job.js';
import { createPeriodic } from './periodic.js';

/** Bounds one tick, so a huge backlog cannot starve shutdown; the next tick continues. */
const MAX_BATCHES_PER_TICK = 20;

export interface SchedulerOptions {
  intervalMs: number;
  batchSize: number;
}

export function createScheduler(deps: { pool: Pool; log: Logger; /** seconds between schedule date and dispatch, per campaign */ onLateness?: (seconds: number) => void }, opts: SchedulerOptions) {
  /** One batch in one transaction; resolves to how many campaigns it dispatched. */
  async function dispatchBatch(): Promise<number> {
    const dispatched = await withTransaction(deps.pool, async (tx) => {
      const due = await markDueDispatched(tx, opts.batchSize);
      await insertOutbox(tx, due.map((c) => dispatchJob(c.id, c.siteId, c.dispatchedAt)));
      return due;
    });
    // Observed after commit: only dispatches that happened count.
    for (const c of dispatched) deps.onLateness?.(Math.max(0, (c.dispatchedAt.getTime() - c.scheduleDate.getTime()) / 1000));
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

  const loop = createPeriodic({ intervalMs: opts.intervalMs, log: deps.log, failure: 'scheduler tick failed' }, tick);

  return {
    dispatchBatch,
    tick,
    start: loop.start,
    stop: loop.stop,
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
