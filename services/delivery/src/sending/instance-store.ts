// Sending instances and their claim leases: an instance heartbeats; a lease is one attempt at a
// chunk. Rows held under a lease of a live instance are not taken over (delivery-log-store.ts).
// The statements made per chunk or heartbeat are prepared (named): parsed and planned once per connection.
import type { Queryable } from '@webpush/shared/db.js';

/** writes_pieces: this release writes runs' detail into pieces (see run-store.ts runFor). */
export async function heartbeat(db: Queryable, instanceId: string): Promise<void> {
  await db.query({
    name: 'instances:heartbeat',
    text: `INSERT INTO delivery.instances (id, writes_pieces) VALUES ($1, true) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
    values: [instanceId],
  });
}

/** A stopping instance: its claims are free at once (it hands back finished work only). */
export async function forgetInstance(db: Queryable, instanceId: string): Promise<void> {
  await db.query(
    `WITH leases AS (DELETE FROM delivery.claim_leases WHERE instance_id = $1)
     DELETE FROM delivery.instances WHERE id = $1`,
    [instanceId],
  );
}

/** Stored before any row carries the lease, so others see it live while the instance heartbeats. */
export async function beginLease(db: Queryable, lease: string, instanceId: string): Promise<void> {
  await db.query({
    name: 'instances:begin-lease',
    text: `INSERT INTO delivery.claim_leases (id, instance_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
    values: [lease, instanceId],
  });
}

export async function endLeases(db: Queryable, leases: string[]): Promise<void> {
  if (leases.length > 0) await db.query({ name: 'instances:end-leases', text: `DELETE FROM delivery.claim_leases WHERE id = ANY($1::uuid[])`, values: [leases] });
}

/**
 * Instances silent for `afterSec` (crashed or killed: one that stops deletes itself) and their
 * leases, oldest first, at most `limit` instances a call; likewise leases whose instance row is
 * gone. Their claims were free to take over long before (a claim counts only under a live
 * instance), so this changes no decision, it only keeps both tables from growing with every crash.
 */
export async function purgeDeadInstances(db: Queryable, afterSec: number, limit: number): Promise<{ instances: number; leases: number }> {
  const { rows } = await db.query(
    `WITH dead AS (
       SELECT id FROM delivery.instances WHERE heartbeat_at < now() - make_interval(secs => $1)
        ORDER BY heartbeat_at LIMIT $2 FOR UPDATE SKIP LOCKED),
     their_leases AS (
       DELETE FROM delivery.claim_leases x USING dead WHERE x.instance_id = dead.id RETURNING x.id),
     orphans AS (
       DELETE FROM delivery.claim_leases x
        WHERE x.id IN (SELECT o.id FROM delivery.claim_leases o
                        WHERE o.started_at < now() - make_interval(secs => $1)
                          AND NOT EXISTS (SELECT 1 FROM delivery.instances i WHERE i.id = o.instance_id)
                        LIMIT $2)
        RETURNING x.id),
     gone AS (DELETE FROM delivery.instances i USING dead WHERE i.id = dead.id RETURNING i.id)
     SELECT (SELECT count(*) FROM gone)::int AS instances,
            ((SELECT count(*) FROM their_leases) + (SELECT count(*) FROM orphans))::int AS leases`,
    [afterSec, limit],
  );
  return rows[0];
}
