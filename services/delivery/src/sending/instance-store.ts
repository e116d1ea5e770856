// Sending instances and their claim leases: an instance heartbeats; a lease is one attempt at a
// chunk. Rows held under a lease of a live instance are not taken over (delivery-log-store.ts).
// The statements made per chunk or heartbeat are prepared (named): parsed and planned once per connection.
import type { Queryable } from '../../../shared/src/db.js';

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
