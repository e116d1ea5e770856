// Moves due scheduled campaigns to dispatch: marks them and writes their send jobs in one
// transaction. Safe with any number of instances (SKIP LOCKED); a tick never overlaps itself
// because the next one is only armed when the current one ends.
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { markDueDispatched } from '../db/scheduler-repo.js';
import { insertOutbox } from '../db/outbox-repo.js';
import { dispatchJob } from './dispatch-job.js';

/** Bounds one tick, so a huge backlog cannot starve shutdown; the next tick continues. */
const MAX_BATCHES_PER_TICK = 20;

export interface SchedulerOptions {
  intervalMs: number;
  batchSize: number;
}

export function createScheduler(deps: { pool: Pool; log: Logger; /** seconds between schedule date and dispatch, per campaign */ onLateness?: (seconds: number) => void }, opts: SchedulerOptions) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

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

  function arm() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = tick()
        .then(
          () => undefined,
          (err) => deps.log.error('scheduler tick failed', { err }),
        )
        .finally(() => {
          running = null;
          arm();
        });
    }, opts.intervalMs);
  }

  return {
    dispatchBatch,
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      arm();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
