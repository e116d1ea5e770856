// Removes idempotency keys past their 24 hours, so the table holds about one day of keys.
// Correctness does not depend on it (lookups check the age); it only bounds the table. Each
// batch is its own short statement, so a large backlog never holds locks for long, and a tick
// is bounded so shutdown never waits on a backlog; the next tick continues.
import type { Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { purgeExpiredKeys } from '../db/idempotency-repo.js';

export interface IdempotencyPurgeOptions {
  intervalMs: number;
  batchSize: number;
  /** Default 50: at most batchSize × this many rows per tick. */
  maxBatchesPerTick?: number;
}

export function createIdempotencyPurge(deps: { pool: Pool; log: Logger }, opts: IdempotencyPurgeOptions) {
  const maxBatches = opts.maxBatchesPerTick ?? 50;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let halting = false; // stop() was called: a tick in progress ends after its current batch

  /** One tick: batches until one comes back short, the cap is hit, or stop() was called. */
  async function tick(): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await purgeExpiredKeys(deps.pool, opts.batchSize);
      total += n;
      if (n < opts.batchSize || halting) break;
    }
    if (total > 0) deps.log.info('purged expired idempotency keys', { count: total });
    return total;
  }

  // The next tick is armed only when the current one ends: ticks never overlap.
  function arm() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = tick()
        .then(
          () => undefined,
          (err) => deps.log.error('idempotency key purge failed', { err }),
        )
        .finally(() => {
          running = null;
          arm();
        });
    }, opts.intervalMs);
    timer.unref();
  }

  return {
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      halting = false;
      arm();
    },
    async stop() {
      stopped = true;
      halting = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}

export type IdempotencyPurge = ReturnType<typeof createIdempotencyPurge>;
