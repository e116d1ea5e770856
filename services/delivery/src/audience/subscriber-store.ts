// Subscribers: one row per (site, push endpoint). The audience counters follow every write
// through statement-level triggers, so nothing here maintains them.
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { PageViewInput, SubscriptionChangeInput } from './subscription-input.js';
import { COUNTRY_PREFIX, UNKNOWN_COUNTRY } from './names.js';

export const MAX_TOPICS_PER_SUBSCRIBER = 20;

export interface SubscriberInput {
  siteId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  country: string;
  /** sorted, distinct */
  topics: string[];
  language: string | null;
  timeZone: string | null;
  /** Shows Declarative Web Push messages itself; null: not said (a new subscriber does not, a known one keeps its flag). */
  declarative: boolean | null;
  /** The opt-in funnel's prompt that led here (optin/), null when the call did not say: counted 'subscribed' only when given and the subscriber was not active. */
  promptId: string | null;
}

/**
 * Inserts a subscriber or refreshes the one with the same endpoint: new keys, the country
 * unless the edge could not tell it this time (a known country is not forgotten), topics
 * merged with the old ones (the request's first, then the stored ones, up to the cap so the
 * group key stays small), language, time zone and the declarative flag when given, active again.
 * `id` is the subscriber's public id (a random UUID, see the migration adding it), never the
 * internal sequence: it is shown to anonymous callers. With a prompt, a subscriber that was not
 * active before is counted 'subscribed' in the opt-in funnel in the same statement.
 */
export async function upsertSubscriber(db: Queryable, s: SubscriberInput): Promise<{ id: string; created: boolean }> {
  const { rows } = await db.query(
    `WITH before AS (
       -- The row as it was: every part of a statement sees the same snapshot, not up's change.
       SELECT active FROM delivery.subscribers WHERE site_id = $1 AND endpoint = $2),
     up AS (
     INSERT INTO delivery.subscribers AS s (site_id, endpoint, p256dh, auth, country, topics, language, time_zone, declarative)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, coalesce($11::boolean, false))
     ON CONFLICT (site_id, endpoint) DO UPDATE SET
       p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth,
       country = CASE WHEN EXCLUDED.country = $10 THEN s.country ELSE EXCLUDED.country END,
       topics = delivery.merge_topics(EXCLUDED.topics, s.topics, $9),
       language = coalesce(EXCLUDED.language, s.language),
       time_zone = coalesce(EXCLUDED.time_zone, s.time_zone),
       declarative = coalesce($11::boolean, s.declarative),
       active = true,
       deactivated_at = NULL,
       updated_at = now(),
       public_id = coalesce(s.public_id, gen_random_uuid())
     RETURNING public_id, country, topics, language, time_zone, (xmax = 0) AS created),
     -- subscriber.created for the endpoints that want it (docs/webhooks.md), in this statement so
     -- it cannot be lost; referenced below because a CTE nobody reads is never run.
     hook AS (
       SELECT delivery.emit_webhook_event($1, 'subscriber.created',
                json_build_object('subscriberId', public_id,
                                  -- as the subscribers export writes it: 'BR', or null when unknown
                                  'country', CASE WHEN country = $10 THEN NULL ELSE upper(substr(country, ${COUNTRY_PREFIX.length + 1})) END,
                                  'topics', topics, 'language', language, 'timeZone', time_zone)) AS n
         FROM up WHERE created),
     funnel AS (
       SELECT delivery.count_optin($1, $12, 'subscribed') AS n
         FROM up WHERE $12::text IS NOT NULL AND NOT coalesce((SELECT active FROM before), false))
     SELECT public_id::text AS id, created, (SELECT count(*) FROM hook) AS hooked, (SELECT count(*) FROM funnel) AS counted FROM up`,
    [s.siteId, s.endpoint, s.p256dh, s.auth, s.country, s.topics, s.language, s.timeZone, MAX_TOPICS_PER_SUBSCRIBER, UNKNOWN_COUNTRY, s.declarative, s.promptId],
  );
  return { id: rows[0].id as string, created: rows[0].created as boolean };
}

/**
 * Marks the subscription inactive; false when there was no active one with that endpoint. With a
 * prompt (the plugin's opt-out), a deactivation is counted 'unsubscribed' in the opt-in funnel in
 * the same statement.
 */
export async function deactivateByEndpoint(db: Queryable, siteId: string, endpoint: string, promptId: string | null = null): Promise<boolean> {
  const { rows } = await db.query(
    `WITH gone AS (
       UPDATE delivery.subscribers SET active = false, deactivated_at = now(), updated_at = now()
        WHERE site_id = $1 AND endpoint = $2 AND active
        RETURNING 1),
     funnel AS (SELECT delivery.count_optin($1, $3, 'unsubscribed') AS n FROM gone WHERE $3::text IS NOT NULL)
     SELECT (SELECT count(*) FROM gone) AS gone, (SELECT count(*) FROM funnel) AS counted`,
    [siteId, endpoint, promptId],
  );
  return Number(rows[0].gone) > 0;
}

/**
 * Adds the page's topics to the active subscriber with this endpoint. The stored array stays a
 * sorted set (the audience counters' group key); when more than the cap would remain, the
 * page's topics are kept first, then the stored ones in name order. A write happens only when
 * the set changes, so re-reading a section costs no counter update. `known` is false when no
 * active subscriber has the endpoint (the plugin then registers again).
 */
export async function mergePageTopics(db: Queryable, siteId: string, view: PageViewInput): Promise<{ known: boolean; changed: boolean }> {
  const { rows } = await db.query(
    `WITH target AS (
       SELECT id, topics FROM delivery.subscribers
        WHERE site_id = $1 AND endpoint = $2 AND active
        FOR UPDATE),
     merged AS (
       SELECT id, topics AS old_topics,
              delivery.merge_topics($3::text[], target.topics, $4) AS new_topics
         FROM target),
     updated AS (
       UPDATE delivery.subscribers s SET topics = m.new_topics, updated_at = now()
         FROM merged m
        WHERE s.id = m.id AND m.new_topics IS DISTINCT FROM m.old_topics
       RETURNING s.id)
     SELECT (SELECT count(*) FROM target)::int AS known, (SELECT count(*) FROM updated)::int AS changed`,
    [siteId, view.endpoint, view.topics, MAX_TOPICS_PER_SUBSCRIBER],
  );
  return { known: rows[0].known > 0, changed: rows[0].changed > 0 };
}

/**
 * Moves the old subscriber's topics and person into the new one (the new one's topics first, then
 * the old one's in name order, up to the cap: the stored array stays a sorted set) and deactivates
 * the old one, in one transaction. Both must be active subscribers of the site; otherwise nothing
 * changes and `replaced` is false (an unknown new endpoint must be registered first; an
 * unknown old one was already retired, for instance after the push service expired it).
 */
export async function replaceSubscriber(pool: Pool, siteId: string, change: SubscriptionChangeInput): Promise<{ replaced: boolean }> {
  return withTransaction(pool, async (db) => {
    // Both rows locked in id order, so two changes crossing each other cannot deadlock.
    const { rows } = await db.query(
      `SELECT id::text AS id, endpoint FROM delivery.subscribers
        WHERE site_id = $1 AND endpoint = ANY($2::text[]) AND active
        ORDER BY id FOR UPDATE`,
      [siteId, [change.oldEndpoint, change.endpoint]],
    );
    const old = rows.find((r) => r.endpoint === change.oldEndpoint);
    const next = rows.find((r) => r.endpoint === change.endpoint);
    if (!old || !next) return { replaced: false };
    await db.query(
      `UPDATE delivery.subscribers s SET
         topics = delivery.merge_topics(s.topics, o.topics, $3),
         country = CASE WHEN s.country = $4 THEN o.country ELSE s.country END,
         language = coalesce(s.language, o.language),
         time_zone = coalesce(s.time_zone, o.time_zone),
         -- The same browser: the service worker re-subscribes without saying (webpush-sw.js).
         declarative = s.declarative OR o.declarative,
         updated_at = now()
        FROM delivery.subscribers o
       WHERE s.id = $1 AND o.id = $2`,
      [next.id, old.id, MAX_TOPICS_PER_SUBSCRIBER, UNKNOWN_COUNTRY],
    );
    // The new subscription keeps the old one's person (unless it has one), before the old one ends:
    // the person never has no active subscription, so no person.unsubscribed is signalled.
    await db.query(
      `INSERT INTO delivery.person_subscriptions (subscriber_id, person_id)
       SELECT $1, person_id FROM delivery.person_subscriptions WHERE subscriber_id = $2
       ON CONFLICT (subscriber_id) DO NOTHING`,
      [next.id, old.id],
    );
    await db.query(`UPDATE delivery.subscribers SET active = false, deactivated_at = now(), updated_at = now() WHERE id = $1`, [old.id]);
    return { replaced: true };
  });
}

export interface NewSubscriberRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  country: string;
  topics: string[];
  /** ISO date-time; default now. */
  createdAt?: string | null;
  /** As a subscribe stores them; default none. */
  language?: string | null;
  timeZone?: string | null;
}

// Topic names never contain control characters (see names.ts), so U+001F can join a
// row's topics into one text value: arrays of arrays must be rectangular in Postgres.
const TOPIC_SEPARATOR = '\u001f';

/**
 * One multi-row INSERT for a whole batch (seeded or imported subscribers); endpoints already
 * present, or repeated within the batch, are skipped. Answers how many rows were inserted.
 */
export async function insertNewSubscribers(db: Queryable, siteId: string, rows: NewSubscriberRow[]): Promise<number> {
  const result = await db.query(
    `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, created_at, language, time_zone)
     SELECT $1, e, p, a, c, CASE WHEN t = '' THEN '{}'::text[] ELSE string_to_array(t, chr(31)) END, coalesce(d, now()), l, z
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::text[]) AS x(e, p, a, c, t, d, l, z)
     ON CONFLICT (site_id, endpoint) DO NOTHING`,
    [
      siteId,
      rows.map((r) => r.endpoint),
      rows.map((r) => r.p256dh),
      rows.map((r) => r.auth),
      rows.map((r) => r.country),
      rows.map((r) => r.topics.join(TOPIC_SEPARATOR)),
      rows.map((r) => r.createdAt ?? null),
      rows.map((r) => r.language ?? null),
      rows.map((r) => r.timeZone ?? null),
    ],
  );
  return result.rowCount ?? 0;
}

// A site's topic names, changed on every subscriber who has them, inactive ones too
// (topic-maintenance.ts): each change is one UPDATE, whose statement-level triggers turn it into
// exact counter changes. Each answers the subscribers changed.

/** The names among `topics` that at least one subscriber of the site (active or not) has. */
export async function topicsInUse(db: Queryable, siteId: string, topics: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query(
    `SELECT DISTINCT t FROM delivery.subscribers s, unnest(s.topics) AS t
      WHERE s.site_id = $1 AND s.topics && $2::text[] AND t = ANY ($2::text[])`,
    [siteId, topics],
  );
  return new Set(rows.map((r) => r.t as string));
}

export async function renameSubscriberTopic(db: Queryable, siteId: string, from: string, to: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE delivery.subscribers SET topics = delivery.topic_set(array_replace(topics, $2, $3)), updated_at = now()
      WHERE site_id = $1 AND topics @> ARRAY[$2]::text[]`,
    [siteId, from, to],
  );
  return rowCount ?? 0;
}

/** Every subscriber with any of `from` gets `into` instead (once). */
export async function mergeSubscriberTopics(db: Queryable, siteId: string, from: readonly string[], into: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE delivery.subscribers
        SET topics = delivery.topic_set(array_append(ARRAY(SELECT t FROM unnest(topics) AS t WHERE t <> ALL ($2::text[])), $3)),
            updated_at = now()
      WHERE site_id = $1 AND topics && $2::text[]`,
    [siteId, from, into],
  );
  return rowCount ?? 0;
}

export async function removeSubscriberTopic(db: Queryable, siteId: string, topic: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE delivery.subscribers SET topics = array_remove(topics, $2), updated_at = now()
      WHERE site_id = $1 AND topics @> ARRAY[$2]::text[]`,
    [siteId, topic],
  );
  return rowCount ?? 0;
}

/** A row of the subscribers export (export.ts). */
export interface ExportRow {
  id: string;
  public_id: string;
  created_at: Date;
  country: string;
  topics: string[];
  language: string | null;
  time_zone: string | null;
  active: boolean;
  /** delivery.browser_of(endpoint): the one rule (migrations/20261126170000_browser_of.sql). */
  browser: string;
  last_engaged_at: Date | null;
}

/**
 * One page of a site's subscribers for the export, in id order after `after`: everyone, or those
 * with one of `topics` or one of `countries` (stored names), active and retired alike.
 */
export async function subscriberExportPage(
  db: Queryable,
  siteId: string,
  filter: { everyone: boolean; topics: readonly string[]; countries: readonly string[] },
  after: string,
  limit: number,
): Promise<ExportRow[]> {
  // The page first (by the site's index, in id order), then each row's engagement by its primary
  // key: joined before the LIMIT, the planner walked the whole table's primary key to merge the
  // two; joined after it, it hashed the whole engagement table (every site's) for each page, 14 ms
  // a page at 66,666 engagement rows and growing with them. A subquery per row is 500 key lookups.
  // s.id, not id: the output column `id` is text, and ORDER BY would sort by it ("10" < "9").
  const { rows } = await db.query<ExportRow>(
    `SELECT s.id::text AS id, public_id::text AS public_id, created_at, country, topics, language, time_zone, active,
              delivery.browser_of(endpoint) AS browser,
              (SELECT e.last_engaged_at FROM delivery.subscriber_engagement e WHERE e.subscriber_id = s.id) AS last_engaged_at
         FROM delivery.subscribers s
        WHERE site_id = $3 AND s.id > $1::bigint AND ($4 OR topics && $5::text[] OR country = ANY($6::text[]))
        ORDER BY s.id LIMIT $2`,
    [after, limit, siteId, filter.everyone, filter.topics, filter.countries],
  );
  return rows;
}

/** A row of the migration export: an active subscription with its push endpoint and keys. */
export interface MigrationRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  topics: string[];
  country: string;
  created_at: Date;
}

/** One page of a site's active subscriptions for the operators' migration export, in id order after `after`. */
export async function migrationExportPage(db: Queryable, siteId: string, after: string, limit: number): Promise<MigrationRow[]> {
  const { rows } = await db.query<MigrationRow>(
    `SELECT s.id::text AS id, endpoint, p256dh, auth, topics, country, created_at FROM delivery.subscribers s
                WHERE site_id = $3 AND active AND s.id > $1::bigint ORDER BY s.id LIMIT $2`,
    [after, limit, siteId],
  );
  return rows;
}
