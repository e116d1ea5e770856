// The SQL of webhooks: endpoints (a site's, by id), their deliveries (one row per event and
// endpoint; written by the triggers of migrations/20261126150000_webhooks.sql), the sender's
// claim and outcomes, and the impressions/clicks batches.
import type { PoolClient } from 'pg';
import type { Queryable } from '@webpush/shared/db.js';

export interface EndpointRow {
  id: string;
  siteId: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
}

const ENDPOINT_COLUMNS = `id::text, site_id::text, url, description, events, enabled, disabled_at, disabled_reason, failing_since,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at, created_at`;

function toEndpoint(r: Record<string, any>): EndpointRow {
  return {
    id: r.id,
    siteId: r.site_id,
    url: r.url,
    description: r.description,
    events: r.events,
    enabled: r.enabled,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since,
    previousSecretExpiresAt: r.previous_secret_expires_at,
    createdAt: r.created_at,
  };
}

export async function listEndpoints(db: Queryable, siteId: string): Promise<EndpointRow[]> {
  const { rows } = await db.query(`SELECT ${ENDPOINT_COLUMNS} FROM delivery.webhook_endpoints WHERE site_id = $1 ORDER BY created_at, id`, [siteId]);
  return rows.map(toEndpoint);
}

export async function findEndpoint(db: Queryable, siteId: string, id: string): Promise<EndpointRow | null> {
  const { rows } = await db.query(`SELECT ${ENDPOINT_COLUMNS} FROM delivery.webhook_endpoints WHERE site_id = $1 AND id = $2`, [siteId, id]);
  return rows[0] ? toEndpoint(rows[0]) : null;
}

/**
 * Inserts an endpoint unless the site already has `max`. Run in a transaction: the site's row is
 * locked by one statement and the endpoints counted by the next (whose snapshot is taken after
 * the lock is granted), so two creates at once cannot both pass the count. null when the site is full.
 */
export async function insertEndpoint(
  tx: PoolClient,
  e: { id: string; siteId: string; url: string; description: string; events: string[]; secretEnc: Buffer },
  max: number,
): Promise<EndpointRow | null> {
  await tx.query('SELECT 1 FROM delivery.sites WHERE site_id = $1 FOR UPDATE', [e.siteId]);
  const { rows } = await tx.query(
    `INSERT INTO delivery.webhook_endpoints (id, site_id, url, description, events, secret_enc)
     SELECT $1, $2, $3, $4, $5::text[], $6
      WHERE (SELECT count(*) FROM delivery.webhook_endpoints WHERE site_id = $2) < $7
     RETURNING ${ENDPOINT_COLUMNS}`,
    [e.id, e.siteId, e.url, e.description, e.events, e.secretEnc, max],
  );
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  events?: string[];
  enabled?: boolean;
}

/** Applies the changes given; turning an endpoint on clears why it was off and its failing streak. */
export async function updateEndpoint(db: Queryable, siteId: string, id: string, c: EndpointChanges): Promise<EndpointRow | null> {
  const { rows } = await db.query(
    `UPDATE delivery.webhook_endpoints SET
       url = coalesce($3, url),
       description = coalesce($4, description),
       events = coalesce($5::text[], events),
       enabled = coalesce($6, enabled),
       disabled_at = CASE WHEN $6 IS NULL THEN disabled_at WHEN $6 THEN NULL ELSE coalesce(disabled_at, now()) END,
       disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason WHEN $6 THEN NULL ELSE 'disabled through the API' END,
       failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END
     WHERE site_id = $1 AND id = $2
     RETURNING ${ENDPOINT_COLUMNS}`,
    [siteId, id, c.url ?? null, c.description ?? null, c.events ?? null, c.enabled ?? null],
  );
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export async function deleteEndpoint(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM delivery.webhook_endpoints WHERE site_id = $1 AND id = $2`, [siteId, id]);
  return (rowCount ?? 0) > 0;
}

/** The current secret becomes the previous one (signing too until `overlapHours` from now). */
export async function rotateSecret(db: Queryable, siteId: string, id: string, secretEnc: Buffer, overlapHours: number): Promise<EndpointRow | null> {
  const { rows } = await db.query(
    `UPDATE delivery.webhook_endpoints SET
       previous_secret_enc = CASE WHEN $4 > 0 THEN secret_enc END,
       previous_secret_expires_at = CASE WHEN $4 > 0 THEN now() + $4 * interval '1 hour' END,
       secret_enc = $3
     WHERE site_id = $1 AND id = $2
     RETURNING ${ENDPOINT_COLUMNS}`,
    [siteId, id, secretEnc, overlapHours],
  );
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export interface DeliveryRow {
  eventId: string;
  type: string;
  createdAt: Date;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

const DELIVERY_COLUMNS = `event_id::text, event_type, created_at, state, attempts,
  CASE WHEN state = 'pending' THEN next_attempt_at END AS next_attempt_at, last_attempt_at, last_status, last_latency_ms, last_error, delivered_at`;

function toDelivery(r: Record<string, any>): DeliveryRow {
  return {
    eventId: r.event_id,
    type: r.event_type,
    createdAt: r.created_at,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastAttemptAt: r.last_attempt_at,
    lastStatus: r.last_status,
    lastLatencyMs: r.last_latency_ms,
    lastError: r.last_error,
    deliveredAt: r.delivered_at,
  };
}

export async function recentDeliveries(db: Queryable, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  const { rows } = await db.query(
    `SELECT ${DELIVERY_COLUMNS} FROM delivery.webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
    [endpointId, limit],
  );
  return rows.map(toDelivery);
}

/** Due now, with a fresh retry window; null when the endpoint never had that event. */
export async function redeliver(db: Queryable, endpointId: string, eventId: string): Promise<DeliveryRow | null> {
  const { rows } = await db.query(
    `UPDATE delivery.webhook_deliveries SET state = 'pending', next_attempt_at = now(), retry_from = now()
      WHERE endpoint_id = $1 AND event_id = $2
      RETURNING ${DELIVERY_COLUMNS}`,
    [endpointId, eventId],
  );
  return rows[0] ? toDelivery(rows[0]) : null;
}

/** A `webhook.ping` event for this endpoint alone. */
export async function insertPing(db: Queryable, endpointId: string): Promise<DeliveryRow> {
  const { rows } = await db.query(
    `WITH ev AS MATERIALIZED (SELECT gen_random_uuid() AS id, now() AS at)
     INSERT INTO delivery.webhook_deliveries (endpoint_id, event_id, event_type, body, created_at, retry_from)
     SELECT $1, ev.id, 'webhook.ping',
            json_build_object('id', ev.id, 'type', 'webhook.ping', 'createdAt', delivery.webhook_time(ev.at),
                              'data', json_build_object('webhookId', $1::uuid))::text,
            ev.at, ev.at
       FROM ev
     RETURNING ${DELIVERY_COLUMNS}`,
    [endpointId],
  );
  return toDelivery(rows[0]);
}

/** Due rows looked at per claim (the earliest): bounds the claim's work whatever the backlog. */
const CLAIM_CANDIDATES = 500;

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  siteId: string;
  eventId: string;
  eventType: string;
  body: string;
  /** This attempt's number: the fence of its outcome. */
  attempt: number;
  url: string;
  secretEnc: Buffer;
  previousSecretEnc: Buffer | null;
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints other than `busy` (those at their share
 * of the sender's requests), at most `perEndpoint` of any one: each
 * is pushed `leaseMs` ahead (a sender that dies leaves it due again then) and its attempt counted.
 * Rows another instance is claiming are skipped, not waited for. The candidates are the earliest
 * due (bounded, read through the due index); locking re-checks that each is still due.
 */
export async function claimDue(db: Queryable, limit: number, leaseMs: number, perEndpoint: number, busy: readonly string[] = []): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { rows } = await db.query(
    `WITH candidates AS (
       SELECT id FROM (
         SELECT d.id, d.next_attempt_at, row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at) AS nth
           FROM (SELECT id, endpoint_id, next_attempt_at FROM delivery.webhook_deliveries
                  WHERE state = 'pending' AND next_attempt_at <= now() AND endpoint_id <> ALL($5::uuid[])
                  ORDER BY next_attempt_at LIMIT $4) d
          WHERE EXISTS (SELECT 1 FROM delivery.webhook_endpoints e WHERE e.id = d.endpoint_id AND e.enabled)) c
        WHERE nth <= $3
        ORDER BY next_attempt_at LIMIT $1),
     due AS (
       SELECT d.id FROM delivery.webhook_deliveries d
        WHERE d.id IN (SELECT id FROM candidates) AND d.state = 'pending' AND d.next_attempt_at <= now()
        FOR UPDATE OF d SKIP LOCKED)
     UPDATE delivery.webhook_deliveries d
        SET next_attempt_at = now() + $2 * interval '1 millisecond', attempts = d.attempts + 1
       FROM due, delivery.webhook_endpoints e
      WHERE d.id = due.id AND e.id = d.endpoint_id
     RETURNING d.id::text, d.endpoint_id::text, e.site_id::text, d.event_id::text, d.event_type, d.body, d.attempts, e.url, e.secret_enc,
               CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_enc END AS previous_secret_enc`,
    [limit, leaseMs, perEndpoint, CLAIM_CANDIDATES, busy],
  );
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    siteId: r.site_id,
    eventId: r.event_id,
    eventType: r.event_type,
    body: r.body,
    attempt: r.attempts,
    url: r.url,
    secretEnc: r.secret_enc,
    previousSecretEnc: r.previous_secret_enc,
  }));
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** A failure: when to try again (ms from now). */
  retryInMs: number;
}

export interface OutcomeRules {
  /** Retries stop this long after the delivery's retry_from. */
  retryForMs: number;
  /** An endpoint failing this long without a success is disabled. */
  disableAfterMs: number;
}

/**
 * Records an attempt's outcome — unless the row was claimed again meanwhile (its lease ran out),
 * whose attempt then owns it — and the endpoint's failing streak: cleared by a success; started
 * by a failure, which disables the endpoint once the streak is `disableAfterMs` old.
 */
export async function recordAttempt(db: Queryable, claimed: ClaimedDelivery, o: AttemptOutcome, rules: OutcomeRules): Promise<void> {
  await db.query(
    `WITH d AS (
       UPDATE delivery.webhook_deliveries SET
         state = CASE WHEN $3 THEN 'delivered'
                      WHEN now() + $7 * interval '1 millisecond' > retry_from + $8 * interval '1 millisecond' THEN 'failed'
                      ELSE 'pending' END,
         next_attempt_at = CASE WHEN $3 THEN next_attempt_at ELSE now() + $7 * interval '1 millisecond' END,
         delivered_at = CASE WHEN $3 THEN now() ELSE delivered_at END,
         last_attempt_at = now(), last_status = $4, last_latency_ms = $5, last_error = $6
       WHERE id = $1 AND attempts = $2
       RETURNING endpoint_id)
     UPDATE delivery.webhook_endpoints e SET
       failing_since = CASE WHEN $3 THEN NULL ELSE coalesce(e.failing_since, now()) END,
       enabled = e.enabled AND ($3 OR coalesce(e.failing_since, now()) > now() - $9 * interval '1 millisecond'),
       disabled_at = CASE WHEN e.enabled AND NOT $3 AND e.failing_since <= now() - $9 * interval '1 millisecond' THEN now() ELSE e.disabled_at END,
       disabled_reason = CASE WHEN e.enabled AND NOT $3 AND e.failing_since <= now() - $9 * interval '1 millisecond'
                              THEN 'every delivery failed since ' || delivery.webhook_time(e.failing_since) ELSE e.disabled_reason END
      FROM d WHERE e.id = d.endpoint_id`,
    [claimed.id, claimed.attempt, o.ok, o.status, Math.round(o.latencyMs), o.error, o.retryInMs, rules.retryForMs, rules.disableAfterMs],
  );
}

/** Delivered and given-up rows older than `keepMs`, at most `limit` at a time. */
export async function purgeFinished(db: Queryable, keepMs: number, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM delivery.webhook_deliveries WHERE id IN (
       SELECT id FROM delivery.webhook_deliveries
        WHERE state <> 'pending' AND created_at < now() - $1 * interval '1 millisecond' LIMIT $2)`,
    [keepMs, limit],
  );
  return rowCount ?? 0;
}

/**
 * Turns up to `limit` buffered impressions and clicks into events: one per site and kind, its
 * items in the order they were stored. Answers how many buffered rows were taken.
 */
export async function batchTracking(db: Queryable, limit: number): Promise<number> {
  const { rows } = await db.query(
    `WITH taken AS (
       DELETE FROM delivery.webhook_tracking_buffer WHERE id IN (
         SELECT id FROM delivery.webhook_tracking_buffer ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, site_id, campaign_id, subscriber_id, kind, at),
     grouped AS (
       SELECT t.site_id, t.kind, count(*) AS n,
              json_agg(json_build_object('campaignId', t.campaign_id, 'subscriberId', s.public_id, 'at', delivery.webhook_time(t.at)) ORDER BY t.id) AS items
         FROM taken t JOIN delivery.subscribers s ON s.id = t.subscriber_id
        GROUP BY t.site_id, t.kind),
     emitted AS (
       SELECT delivery.emit_webhook_event(site_id, 'notification.' || kind || 's', json_build_object('count', n, 'items', items)) FROM grouped)
     SELECT (SELECT count(*) FROM taken)::int AS taken, (SELECT count(*) FROM emitted)::int AS events`,
    [limit],
  );
  return rows[0].taken;
}

/** The sealed signing secrets of these sites' endpoints, locked for the caller's transaction (a re-seal after a key rotation). */
export interface SealedSecretsRow {
  id: string;
  site_id: string;
  secret_enc: Buffer;
  previous_secret_enc: Buffer | null;
}

export async function lockSealedSecrets(tx: PoolClient, siteIds: readonly string[]): Promise<SealedSecretsRow[]> {
  const { rows } = await tx.query<SealedSecretsRow>(
    `SELECT id::text, site_id::text, secret_enc, previous_secret_enc FROM delivery.webhook_endpoints
      WHERE site_id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [siteIds],
  );
  return rows;
}

export async function storeSealedSecrets(tx: PoolClient, id: string, secretEnc: Buffer, previousSecretEnc: Buffer | null): Promise<void> {
  await tx.query('UPDATE delivery.webhook_endpoints SET secret_enc = $2, previous_secret_enc = $3 WHERE id = $1', [id, secretEnc, previousSecretEnc]);
}
