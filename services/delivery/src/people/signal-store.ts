// The people's signals outbox (migrations/20261209010000_person_signals.sql): rows written in the
// transaction of their fact (by the statements of people-store.ts, counter-store.ts's click hook,
// the subscribers' trigger), read in order and deleted once published.
import type { PeopleMessage } from '@webpush/contracts/messages.js';
import type { Queryable } from '@webpush/shared/db.js';

export interface PendingSignal {
  id: string;
  message: PeopleMessage;
}

/**
 * `person.deleted`, in the privacy delete's transaction, in place of the person's signals not yet
 * published: what the campaign service would start from them it would end at once, and their id
 * and tags need not travel any further.
 */
export async function signalPersonDeleted(db: Queryable, siteId: string, externalId: string): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM delivery.person_signals WHERE site_id = $1 AND external_id = $2)
     INSERT INTO delivery.person_signals (site_id, kind, external_id) VALUES ($1, 'person.deleted', $2)`,
    [siteId, externalId],
  );
}

const messageOf = (r: Record<string, any>): PeopleMessage => {
  const base = { version: 1 as const, siteId: r.site_id as string, externalId: r.external_id as string };
  switch (r.kind) {
    case 'person.subscribed':
      return { type: 'person.subscribed', ...base, subscribedAt: (r.subscribed_at as Date).toISOString() };
    case 'notification.clicked':
      return { type: 'notification.clicked', ...base, notificationId: r.notification_id };
    case 'person.tagged':
      return { type: 'person.tagged', ...base, tags: r.tags };
    default:
      return { type: r.kind as 'person.deleted' | 'person.unsubscribed', ...base };
  }
};

/**
 * One publisher at a time across instances, for the caller's transaction: a site's signals are
 * published in the order they were written (a person subscribed, then deleted), which two
 * publishers taking batches side by side would not keep.
 */
export async function tryLockSignals(tx: Queryable): Promise<boolean> {
  const { rows } = await tx.query(`SELECT pg_try_advisory_xact_lock(hashtext('delivery:person-signals')) AS locked`);
  return rows[0].locked === true;
}

/** The oldest `limit` signals. */
export async function pendingSignals(tx: Queryable, limit: number): Promise<PendingSignal[]> {
  const { rows } = await tx.query(
    `SELECT id::text, site_id, kind, external_id, subscribed_at, notification_id, tags FROM delivery.person_signals
      ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ id: r.id, message: messageOf(r) }));
}

export async function deleteSignals(tx: Queryable, ids: readonly string[]): Promise<void> {
  await tx.query(`DELETE FROM delivery.person_signals WHERE id = ANY($1::bigint[])`, [ids]);
}
