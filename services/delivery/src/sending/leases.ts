// The chunk attempts this instance is running. Each attempt claims its rows under a lease of
// its own, so the instance can tell "mine, in progress" from "mine, left behind by an attempt
// that failed" — the latter it takes over again at once on Kafka's redelivery, instead of
// mistaking them for work in progress and skipping them. Other instances see a lease as live
// while its row exists and this instance heartbeats (delivery-log-store.ts claim).
import { randomUUID } from 'node:crypto';
import type { Pool, Queryable } from '@webpush/shared/db.js';
import { beginLease, endLeases, forgetInstance, heartbeat, purgeDeadInstances } from './instance-store.js';
import { retrying, type RetryPolicy } from './retrying.js';

export interface Leases {
  readonly instanceId: string;
  /** A new lease, stored before any row carries it: with `db` (the caller's pool: a notification's lane has its own), else the registry's pool. */
  begin(db?: Queryable): Promise<string>;
  /** The attempt is over: its rows not final are free again (for this instance at once). */
  end(lease: string): void;
  /** Leases of attempts still running in this instance. */
  live(): string[];
  /**
   * The instance's heartbeat; also deletes leases whose delete failed when their attempt ended,
   * and, every `purge.everyMs`, the rows of instances that died without deleting them.
   */
  beat(): Promise<void>;
  /** Stopping: the instance and its leases are deleted, so its claims are free at once. */
  forget(): Promise<void>;
}

/**
 * Rows of crashed instances: purged once silent for an hour (no shorter than the longest
 * INSTANCE_DEAD_AFTER_SEC, after which their claims were already free), checked every minute by
 * each instance, at most 1,000 a time so one pass never holds many row locks.
 */
export const DEAD_INSTANCE_PURGE = Object.freeze({ afterSec: 3600, everyMs: 60_000, limit: 1000 });

export function createLeases(pool: Pool, instanceId: string, retry: RetryPolicy = { budgetMs: 0 }, purge: { afterSec: number; everyMs: number; limit: number } = DEAD_INSTANCE_PURGE): Leases {
  const live = new Set<string>();
  const ended = new Set<string>();
  let purgedAt = -Infinity;
  return {
    instanceId,
    async begin(db = pool) {
      const lease = randomUUID();
      live.add(lease);
      try {
        await retrying('lease', retry, () => beginLease(db, lease, instanceId));
      } catch (err) {
        live.delete(lease);
        throw err;
      }
      return lease;
    },
    end(lease) {
      live.delete(lease);
      // Not awaited: nothing waits for it. Until it is gone, other instances treat the lease as
      // live (a failed delete is retried by the next heartbeat); this instance never does.
      endLeases(pool, [lease]).catch(() => ended.add(lease));
    },
    live: () => [...live],
    async beat() {
      await heartbeat(pool, instanceId);
      if (ended.size > 0) {
        const gone = [...ended];
        await endLeases(pool, gone);
        for (const lease of gone) ended.delete(lease);
      }
      if (Date.now() - purgedAt >= purge.everyMs) {
        purgedAt = Date.now();
        await purgeDeadInstances(pool, purge.afterSec, purge.limit);
      }
    },
    forget: () => forgetInstance(pool, instanceId),
  };
}
