// Publishes the people's signals (docs/people.md, "Signals") from their outbox: every
// `intervalMs` (a backlog: at once again), the oldest rows are published to
// delivery.people.v1 and deleted in one transaction per batch. The pattern of the counter
// publisher (tracking/counter-publisher.ts: what is stored is published, whatever happened to the
// process that stored it) with an outbox of rows rather than versions: a signal is an event,
// not a value to bring up to date. A crash after a publish and before its delete publishes the
// batch again (at least once; the campaign service's consumer is idempotent); while Kafka is down
// the rows wait.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic, quietWhileFailing } from '@webpush/shared/periodic.js';
import type { PeopleMessage } from '@webpush/contracts/messages.js';
import { deleteSignals, pendingSignals, tryLockSignals } from './signal-store.js';

/** How often stored signals are looked for: a welcome or an exit waits at most about this long. */
export const SIGNALS_INTERVAL_MS = 1000;
/** Batches per pass: a pass ends even if signals are written faster than they are published. */
const MAX_BATCHES_PER_PASS = 20;

export interface SignalPublisherDeps {
  pool: Pool;
  log: Logger;
  publish(messages: PeopleMessage[]): Promise<void>;
}

export function createSignalPublisher(deps: SignalPublisherDeps, opts: { intervalMs: number; batchSize: number }) {
  /** One batch: published, then deleted, in one transaction. Answers how many; 0 when another instance publishes. */
  const publishBatch = (): Promise<number> =>
    withTransaction(deps.pool, async (tx) => {
      if (!(await tryLockSignals(tx))) return 0;
      const pending = await pendingSignals(tx, opts.batchSize);
      if (pending.length === 0) return 0;
      await deps.publish(pending.map((p) => p.message));
      await deleteSignals(tx, pending.map((p) => p.id));
      return pending.length;
    });

  /** Publishes what is stored, batch by batch; rejects when publishing fails (the rows stay). */
  const publishPending = async (): Promise<number> => {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_PASS; i++) {
      const n = await publishBatch();
      total += n;
      if (n < opts.batchSize) return total;
    }
    loop.wake();
    return total;
  };

  const loop = createPeriodic(quietWhileFailing(publishPending, deps.log, { failed: "publishing people's signals failed; they stay stored and are retried", recovered: "people's signals published again" }), {
    intervalMs: opts.intervalMs,
    onError: (err) => deps.log.error('signal publisher pass failed', { err }),
  });

  return {
    start: loop.start,
    stop: loop.stop,
    publishPending,
  };
}
