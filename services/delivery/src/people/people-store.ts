// People (a site's own user ids) and which subscriptions each was identified on, with the site's
// identity secret (migrations/20261207050000_people.sql). A subscription has at most one person.
import type { PoolClient } from 'pg';
import type { Queryable } from '@webpush/shared/db.js';

export interface SealedIdentitySecrets {
  secretEnc: Buffer;
  /** The secret before a rotation while it is still accepted; null otherwise. */
  previousSecretEnc: Buffer | null;
}

/** The site's sealed secrets, the previous one only while its overlap lasts; null when the site has none. */
export async function identitySecretsOf(db: Queryable, siteId: string): Promise<SealedIdentitySecrets | null> {
  const { rows } = await db.query(
    `SELECT secret_enc, CASE WHEN previous_secret_expires_at > now() THEN previous_secret_enc END AS previous_secret_enc
       FROM delivery.site_identity_secrets WHERE site_id = $1`,
    [siteId],
  );
  return rows[0] ? { secretEnc: rows[0].secret_enc, previousSecretEnc: rows[0].previous_secret_enc } : null;
}

/** Stores the site's first secret; false (nothing changed) when it has one already. */
export async function insertIdentitySecret(db: Queryable, siteId: string, secretEnc: Buffer): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO delivery.site_identity_secrets (site_id, secret_enc) VALUES ($1, $2) ON CONFLICT (site_id) DO NOTHING`,
    [siteId, secretEnc],
  );
  return (rowCount ?? 0) > 0;
}

/** A new secret in place of the current one, which stays accepted for `overlapHours` (0: not at all). */
export async function rotateIdentitySecret(db: Queryable, siteId: string, secretEnc: Buffer, overlapHours: number): Promise<void> {
  await db.query(
    `INSERT INTO delivery.site_identity_secrets AS s (site_id, secret_enc, rotated_at) VALUES ($1, $2, now())
     ON CONFLICT (site_id) DO UPDATE SET
       previous_secret_enc = CASE WHEN $3 > 0 THEN s.secret_enc END,
       previous_secret_expires_at = CASE WHEN $3 > 0 THEN now() + $3 * interval '1 hour' END,
       secret_enc = EXCLUDED.secret_enc,
       rotated_at = now()`,
    [siteId, secretEnc, overlapHours],
  );
}

/** For `vapid reencrypt`: these sites' sealed identity secrets, locked in the caller's transaction. */
export async function lockIdentitySecrets(tx: PoolClient, siteIds: readonly string[]): Promise<{ site_id: string; secret_enc: Buffer; previous_secret_enc: Buffer | null }[]> {
  const { rows } = await tx.query(
    `SELECT site_id, secret_enc, previous_secret_enc FROM delivery.site_identity_secrets
      WHERE site_id = ANY($1::uuid[]) ORDER BY site_id FOR UPDATE`,
    [siteIds],
  );
  return rows;
}

export async function storeIdentitySecrets(tx: PoolClient, siteId: string, secretEnc: Buffer, previousSecretEnc: Buffer | null): Promise<void> {
  await tx.query(`UPDATE delivery.site_identity_secrets SET secret_enc = $2, previous_secret_enc = $3 WHERE site_id = $1`, [siteId, secretEnc, previousSecretEnc]);
}

/**
 * Links the site's active subscription with this endpoint to the person `externalId` (made on
 * first use), taking it from any other person it had. False, and nothing written, when no
 * active subscription has the endpoint (the plugin registers it again first). One statement:
 * the person is made only together with its link.
 */
export async function linkSubscription(db: Queryable, siteId: string, endpoint: string, externalId: string): Promise<boolean> {
  const { rows } = await db.query(
    `WITH sub AS (
       SELECT id FROM delivery.subscribers WHERE site_id = $1 AND endpoint = $2 AND active),
     person AS (
       -- DO UPDATE (to itself) rather than DO NOTHING, so that RETURNING yields the existing row.
       INSERT INTO delivery.people (site_id, external_id) SELECT $1, $3 WHERE EXISTS (SELECT 1 FROM sub)
       ON CONFLICT (site_id, external_id) DO UPDATE SET external_id = EXCLUDED.external_id
       RETURNING id),
     link AS (
       INSERT INTO delivery.person_subscriptions AS l (subscriber_id, person_id)
       SELECT sub.id, person.id FROM sub, person
       ON CONFLICT (subscriber_id) DO UPDATE SET person_id = EXCLUDED.person_id, linked_at = now()
         WHERE l.person_id <> EXCLUDED.person_id
       RETURNING subscriber_id)
     SELECT (SELECT count(*) FROM sub)::int AS found, (SELECT count(*) FROM link)::int AS changed`,
    [siteId, endpoint, externalId],
  );
  return rows[0].found > 0;
}

/** Unlinks the site's subscription with this endpoint from its person; false when it had none. */
export async function unlinkSubscription(db: Queryable, siteId: string, endpoint: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM delivery.person_subscriptions l USING delivery.subscribers s
      WHERE l.subscriber_id = s.id AND s.site_id = $1 AND s.endpoint = $2`,
    [siteId, endpoint],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A browser replaced its subscription (pushsubscriptionchange, after audience's replaceSubscriber):
 * the new one belongs to the old one's person, unless it has one already.
 */
export async function carryPersonOver(db: Queryable, siteId: string, oldEndpoint: string, endpoint: string): Promise<void> {
  await db.query(
    `INSERT INTO delivery.person_subscriptions (subscriber_id, person_id)
     SELECT n.id, l.person_id
       FROM delivery.subscribers o
       JOIN delivery.person_subscriptions l ON l.subscriber_id = o.id
       JOIN delivery.subscribers n ON n.site_id = $1 AND n.endpoint = $3
      WHERE o.site_id = $1 AND o.endpoint = $2
     ON CONFLICT (subscriber_id) DO NOTHING`,
    [siteId, oldEndpoint, endpoint],
  );
}

export interface PersonSubscription {
  externalId: string;
  /** The internal subscriber id (delivery.subscribers.id), as sending and the delivery log name it. */
  subscriberId: string;
}

/**
 * The active subscriptions of these people of the site: what a notification to a person
 * (issue 37) is sent to. Ids the site does not have, or whose subscriptions are all inactive,
 * yield nothing. Another site's people are never reached: the people are looked up by
 * (site, external id), and a subscription is linked only to a person of its own site.
 */
export async function activeSubscriptionsOfPeople(db: Queryable, siteId: string, externalIds: readonly string[]): Promise<PersonSubscription[]> {
  const { rows } = await db.query(
    `SELECT p.external_id, s.id::text AS subscriber_id
       FROM delivery.people p
       JOIN delivery.person_subscriptions l ON l.person_id = p.id
       JOIN delivery.subscribers s ON s.id = l.subscriber_id AND s.active
      WHERE p.site_id = $1 AND p.external_id = ANY($2::text[])
      ORDER BY s.id`,
    [siteId, externalIds],
  );
  return rows.map((r) => ({ externalId: r.external_id as string, subscriberId: r.subscriber_id as string }));
}
