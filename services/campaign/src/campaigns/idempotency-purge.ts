// Removes idempotency keys past their 24 hours, so the table holds about one day of keys.
// Correctness does not depend on it (lookups check the age); it only bounds the table. Each
// batch is its own short statement, so a large backlog never holds locks for long, and a tick
// is bounded so shutdown never waits on a backlog; the next tick continues.
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { purgeExpiredKeys } from './idempotency-store.js';

export interface IdempotencyPurgeOptions {
  intervalMs: number;
  batchSize: number;
  /** Default 50: at most batchSize × this many rows per tick. */
  maxBatchesPerTick?: number;
}

export function createIdempotencyPurge(deps: { pool: Pool; log: Logger }, opts: IdempotencyPurgeOptions) {
  const maxBatches = opts.maxBatchesPerTick ?? 50;

  /** One tick: batches until one comes back short, the cap is hit, or stop() was called. */
  async function tick(): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await purgeExpiredKeys(deps.pool, opts.batchSize);
      total += n;
      if (n < opts.batchSize || loop.stopping()) break; // stop(): end after the current batch
    }
    if (total > 0) deps.log.info('purged expired idempotency keys', { count: total });
    return total;
  }

  const loop = createPeriodic(tick, { intervalMs: opts.intervalMs, onError: (err) => deps.log.error('idempotency key purge failed', { err }) });

  return {
    tick,
    start: loop.start,
    stop: loop.stop,
  };
}
