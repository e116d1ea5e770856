// Publishes campaign counters from what is stored: every `intervalMs`, the runs whose counters
// changed since their last publication (tracking reports, outcomes, expansion, completion) are
// published as stats events, then marked published at the version read. Nothing depends on a
// publish succeeding at the moment a counter changes: while Kafka is down the changes wait in
// Postgres and go out on the first pass after it is back. The events carry absolute values and
// the campaign service keeps the greatest, so publishing a run twice is harmless.
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { changedCounters, fillResultsByBrowser, refreshAbResults, refreshBestTimeResults, markCountersPublished, tryLockPublisher, unlockPublisher, type RunCounters } from './counter-store.js';

export interface CounterPublisherDeps {
  pool: Pool;
  log: Logger;
  publish(counters: RunCounters[]): Promise<void>;
}

export interface CounterPublisherOptions {
  intervalMs: number;
  /** Runs per stats batch (one produce call). */
  batchSize: number;
}

/** Batches per pass: a pass ends even if counters change faster than they are published. */
const MAX_BATCHES_PER_PASS = 50;
/** A/B runs whose variant results are recomputed per batch (each an aggregate of its test share). */
const AB_REFRESHES_PER_BATCH = 20;
/** A woken pass starts at least this long after the previous one ended (busy tracking traffic). */
const WAKE_GAP_MS = 50;

export function createCounterPublisher(deps: CounterPublisherDeps, opts: CounterPublisherOptions) {
  let failing = false;

  /**
   * One pass: publishes every changed run (in batches) and returns how many were published; 0
   * when another instance's publisher holds the lock. Rejects when publishing fails.
   */
  const publishChanged = async (): Promise<number> => {
    const client = await deps.pool.connect();
    // A connection that failed, or whose lock might still be held, does not go back to the pool.
    let discard = false;
    try {
      if (!(await tryLockPublisher(client))) return 0;
      try {
        let total = 0;
        for (let i = 0; i < MAX_BATCHES_PER_PASS; i++) {
          await fillResultsByBrowser(client, opts.batchSize);
          await refreshAbResults(client, AB_REFRESHES_PER_BATCH);
          await refreshBestTimeResults(client, AB_REFRESHES_PER_BATCH);
          const changed = await changedCounters(client, opts.batchSize);
          if (changed.length === 0) break;
          await deps.publish(changed);
          await markCountersPublished(client, changed);
          total += changed.length;
          if (changed.length < opts.batchSize) break;
        }
        return total;
      } finally {
        await unlockPublisher(client).catch(() => (discard = true));
      }
    } catch (err) {
      discard = true;
      throw err;
    } finally {
      client.release(discard);
    }
  };

  const pass = async () => {
    try {
      const n = await publishChanged();
      if (failing) deps.log.info('campaign counters published again', { runs: n });
      failing = false;
    } catch (err) {
      // One line per outage, not one per pass.
      if (!failing) deps.log.warn('publishing campaign counters failed; they stay stored and are retried', { err });
      failing = true;
    }
  };

  // `pass` handles its own failures; onError is only the loop's required last resort.
  const loop = createPeriodic(pass, {
    intervalMs: opts.intervalMs,
    wakeGapMs: WAKE_GAP_MS,
    onError: (err) => deps.log.error('counter publisher pass failed', { err }),
  });

  return {
    start: loop.start,
    /**
     * Asks for a pass soon (counters were just stored), without waiting for it: wakes arriving
     * during a pass make one more pass, not one each.
     */
    wake: loop.wake,
    /**
     * Stops the loop. A last pass publishes what changed until now, unless publishing is failing
     * (not to hold up shutdown): whatever is left is published by the next publisher to run.
     */
    async stop() {
      const wasRunning = loop.started();
      await loop.stop();
      if (wasRunning && !failing) await pass();
    },
    publishChanged,
  };
}
