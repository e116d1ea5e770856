// Impressions and clicks reported by service workers. Reports are gathered for a short moment
// and written together (one statement for the batch), each (campaign, subscription, kind) once.
// The caller's request waits for its batch, so a 202 means the report is stored — and stored is
// enough: the counters it changed are published by the counter publisher (counter-publisher.ts,
// woken after each batch) from what is stored, so a report never fails, and never needs a
// retry, because Kafka is down.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { recordTracking } from './counter-store.js';

export interface TrackingReport {
  campaignId: string;
  subscriberId: string;
  kind: 'impression' | 'click';
}

export interface TrackingDeps {
  pool: Pool;
  log: Logger;
  /** Called after a batch changed counters (the counter publisher's wake: publish soon). */
  onStored?(): void;
}

export function createTrackingRecorder(deps: TrackingDeps, opts: { flushMs: number; maxBatch: number }) {
  let queue: { report: TrackingReport; done: (err?: Error) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let flushing = Promise.resolve();

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return flushing;
    flushing = flushing.then(async () => {
      try {
        const touched = await withTransaction(deps.pool, (tx) => recordTracking(tx, batch.map((b) => b.report)));
        for (const b of batch) b.done();
        if (touched.length > 0) deps.onStored?.();
      } catch (err) {
        deps.log.error('tracking batch failed', { err, reports: batch.length });
        for (const b of batch) b.done(err as Error);
      }
    });
    return flushing;
  };

  return {
    record(report: TrackingReport): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ report, done: (err) => (err ? reject(err) : resolve()) });
        if (queue.length >= opts.maxBatch) void flush();
        else timer ??= setTimeout(() => void flush(), opts.flushMs);
      });
    },
    async close() {
      await flush();
    },
  };
}
