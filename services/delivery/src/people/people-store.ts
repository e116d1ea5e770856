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
 * first use), taking it from any other person it had, and writes `person.subscribed` to the
 * people's outbox when the link is new or moved. Answers when the subscription was made; null,
 * and nothing written, when no active subscription has the endpoint (the plugin registers it
 * again first). One statement: the person is made only together with its link.
 */
export async function linkSubscription(db: Queryable, siteId: string, endpoint: string, externalId: string): Promise<Date | null> {
  const { rows } = await db.query(
    `WITH sub AS (
       SELECT id, created_at FROM delivery.subscribers WHERE site_id = $1 AND endpoint = $2 AND active),
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
       RETURNING subscriber_id),
     -- A new or moved link is the person's signal (people's outbox); an identify that changes nothing is not.
     signal AS (
       INSERT INTO delivery.person_signals (site_id, kind, external_id, subscribed_at)
       SELECT $1, 'person.subscribed', $3, sub.created_at FROM sub WHERE EXISTS (SELECT 1 FROM link))
     SELECT (SELECT created_at FROM sub) AS subscribed_at, (SELECT count(*) FROM link)::int AS changed`,
    [siteId, endpoint, externalId],
  );
  return rows[0].subscribed_at;
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

/** A person's tags as a template's values: text as it is, numbers as JavaScript writes them, booleans as true/false, dates in ISO 8601 (UTC). */
export type TagTexts = Record<string, string>;

const tagText = (r: Record<string, any>): string =>
  r.kind === 'string' ? r.string_value : r.kind === 'number' ? String(r.number_value) : r.kind === 'boolean' ? String(r.boolean_value) : (r.date_value as Date).toISOString();

/** Groups rows of (owner, tag) by owner into tag texts, without prototypes (a tag named __proto__ is a tag). */
function tagTextsBy(rows: Record<string, any>[], owner: string): Map<string, TagTexts> {
  const out = new Map<string, TagTexts>();
  for (const r of rows) {
    let tags = out.get(r[owner]);
    if (!tags) out.set(r[owner], (tags = Object.create(null) as TagTexts));
    tags[r.key] = tagText(r);
  }
  return out;
}

/** The tags of the site's people named by `externalIds` (a notification's template rendered per person), by external id; a person without tags is absent. */
export async function tagTextsOfPeople(db: Queryable, siteId: string, externalIds: readonly string[]): Promise<Map<string, TagTexts>> {
  const { rows } = await db.query(
    `SELECT p.external_id, t.key, t.kind, t.string_value, t.number_value, t.date_value, t.boolean_value
       FROM delivery.people p JOIN delivery.person_tags t ON t.person_id = p.id
      WHERE p.site_id = $1 AND p.external_id = ANY($2::text[])`,
    [siteId, externalIds],
  );
  return tagTextsBy(rows, 'external_id');
}

/** The tags of the people the subscriptions `subscriberIds` (of the site) are linked to, by subscriber id; one of nobody's, or of a person without tags, is absent. */
export async function tagTextsOfSubscribers(db: Queryable, siteId: string, subscriberIds: readonly string[]): Promise<Map<string, TagTexts>> {
  const { rows } = await db.query(
    `SELECT l.subscriber_id::text AS subscriber_id, t.key, t.kind, t.string_value, t.number_value, t.date_value, t.boolean_value
       FROM delivery.person_subscriptions l
       JOIN delivery.people p ON p.id = l.person_id AND p.site_id = $1
       JOIN delivery.person_tags t ON t.person_id = p.id
      WHERE l.subscriber_id = ANY($2::bigint[])`,
    [siteId, subscriberIds],
  );
  return tagTextsBy(rows, 'subscriber_id');
}

// ---- /v2/users/{externalId} (docs/people.md, "The API") ---------------------------------------

export interface PersonRow {
  id: string;
  externalId: string;
  createdAt: Date;
}

export async function findPerson(db: Queryable, siteId: string, externalId: string, lock = false): Promise<PersonRow | null> {
  const { rows } = await db.query(
    `SELECT id::text, external_id, created_at FROM delivery.people WHERE site_id = $1 AND external_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [siteId, externalId],
  );
  return rows[0] ? { id: rows[0].id, externalId: rows[0].external_id, createdAt: rows[0].created_at } : null;
}

/** The person, made when absent, locked for the caller's transaction. */
export async function lockOrCreatePerson(tx: PoolClient, siteId: string, externalId: string): Promise<PersonRow> {
  const { rows } = await tx.query(
    `INSERT INTO delivery.people (site_id, external_id) VALUES ($1, $2)
     ON CONFLICT (site_id, external_id) DO UPDATE SET external_id = EXCLUDED.external_id
     RETURNING id::text, external_id, created_at`,
    [siteId, externalId],
  );
  return { id: rows[0].id, externalId: rows[0].external_id, createdAt: rows[0].created_at };
}

export interface PersonSubscriptionRow {
  publicId: string | null;
  browser: string;
  createdAt: Date;
  active: boolean;
  lastEngagedAt: Date | null;
  /** delivery.subscribers.country as stored (`country__…`). */
  country: string;
  topics: string[];
}

/** The person's subscriptions, active or not, oldest first. */
export async function subscriptionsOfPerson(db: Queryable, personId: string): Promise<PersonSubscriptionRow[]> {
  const { rows } = await db.query(
    `SELECT s.public_id::text, delivery.browser_of(s.endpoint) AS browser, s.created_at, s.active, e.last_engaged_at, s.country, s.topics
       FROM delivery.person_subscriptions l
       JOIN delivery.subscribers s ON s.id = l.subscriber_id
       LEFT JOIN delivery.subscriber_engagement e ON e.subscriber_id = s.id
      WHERE l.person_id = $1
      ORDER BY s.id`,
    [personId],
  );
  return rows.map((r) => ({
    publicId: r.public_id,
    browser: r.browser,
    createdAt: r.created_at,
    active: r.active,
    lastEngagedAt: r.last_engaged_at,
    country: r.country,
    topics: r.topics,
  }));
}

export interface TagRow {
  key: string;
  kind: 'string' | 'number' | 'date' | 'boolean';
  value: string | number | boolean | Date;
}

export async function tagsOfPerson(db: Queryable, personId: string): Promise<TagRow[]> {
  const { rows } = await db.query(
    `SELECT key, kind, string_value, number_value, date_value, boolean_value FROM delivery.person_tags WHERE person_id = $1 ORDER BY key`,
    [personId],
  );
  return rows.map((r) => ({ key: r.key, kind: r.kind, value: r.string_value ?? r.number_value ?? r.date_value ?? r.boolean_value }));
}

/**
 * Sets and removes the person's tags in the caller's transaction; answers how many tags the
 * person has after. The tags set to a value they did not have are one `person.tagged` signal
 * (people's outbox: tag automations start); a value set again changes nothing, not even
 * `updated_at`.
 */
export async function writeTags(
  tx: PoolClient,
  personId: string,
  set: readonly { key: string; kind: string; string: string | null; number: number | null; date: Date | null; boolean: boolean | null }[],
  remove: readonly string[],
): Promise<number> {
  if (remove.length > 0) await tx.query(`DELETE FROM delivery.person_tags WHERE person_id = $1 AND key = ANY($2::text[])`, [personId, remove]);
  if (set.length > 0) {
    await tx.query(
      `WITH changed AS (
         INSERT INTO delivery.person_tags AS o (person_id, key, kind, string_value, number_value, date_value, boolean_value)
         SELECT $1, k, t, s, n, d, b FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::timestamptz[], $7::boolean[]) AS x(k, t, s, n, d, b)
         ON CONFLICT (person_id, key) DO UPDATE SET kind = EXCLUDED.kind, string_value = EXCLUDED.string_value, number_value = EXCLUDED.number_value,
           date_value = EXCLUDED.date_value, boolean_value = EXCLUDED.boolean_value, updated_at = now()
           WHERE (o.kind, o.string_value, o.number_value, o.date_value, o.boolean_value)
                 IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.string_value, EXCLUDED.number_value, EXCLUDED.date_value, EXCLUDED.boolean_value)
         RETURNING key, kind, string_value, number_value, date_value, boolean_value)
       INSERT INTO delivery.person_signals (site_id, kind, external_id, tags)
       SELECT p.site_id, 'person.tagged', p.external_id,
              jsonb_object_agg(c.key, CASE c.kind WHEN 'string' THEN to_jsonb(c.string_value) WHEN 'number' THEN to_jsonb(c.number_value)
                                               WHEN 'boolean' THEN to_jsonb(c.boolean_value)
                                               ELSE to_jsonb(to_char(c.date_value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END)
         FROM changed c, delivery.people p WHERE p.id = $1
        GROUP BY p.site_id, p.external_id`,
      [personId, set.map((t) => t.key), set.map((t) => t.kind), set.map((t) => t.string), set.map((t) => t.number), set.map((t) => t.date), set.map((t) => t.boolean)],
    );
  }
  const { rows } = await tx.query(`SELECT count(*)::int AS n FROM delivery.person_tags WHERE person_id = $1`, [personId]);
  return rows[0].n;
}

/** The internal and public ids of every subscription of the person, active or not. */
async function subscriberIdsOf(db: Queryable, personId: string): Promise<{ ids: string[]; publicIds: string[] }> {
  const { rows } = await db.query(
    `SELECT s.id::text, s.public_id::text FROM delivery.person_subscriptions l JOIN delivery.subscribers s ON s.id = l.subscriber_id WHERE l.person_id = $1`,
    [personId],
  );
  return { ids: rows.map((r) => r.id), publicIds: rows.map((r) => r.public_id).filter((p): p is string => p !== null) };
}

export interface PersonHistory {
  deliveries: { subscriptionId: string | null; campaignId: string; state: string; claimedAt: Date; finishedAt: Date | null }[];
  events: { subscriptionId: string | null; campaignId: string; kind: string; at: Date }[];
}

/**
 * What was sent to the person's subscriptions and what they did with it: the site's delivery log
 * and tracking rows of those subscriptions. Found through the site's campaign runs, so each
 * lookup is a primary-key probe (campaign, subscriber), never a scan of the log.
 */
export async function historyOfPerson(db: Queryable, siteId: string, personId: string): Promise<PersonHistory> {
  const subs = `SELECT s.id, s.public_id FROM delivery.person_subscriptions l JOIN delivery.subscribers s ON s.id = l.subscriber_id WHERE l.person_id = $2`;
  const [deliveries, events] = await Promise.all([
    db.query(
      `WITH subs AS (${subs})
       SELECT subs.public_id::text, g.campaign_id::text, g.state, g.claimed_at, g.finished_at
         FROM delivery.campaign_runs r JOIN delivery.delivery_log g ON g.campaign_id = r.campaign_id JOIN subs ON subs.id = g.subscriber_id
        WHERE r.site_id = $1 ORDER BY g.claimed_at, g.campaign_id`,
      [siteId, personId],
    ),
    db.query(
      `WITH subs AS (${subs})
       SELECT subs.public_id::text, t.campaign_id::text, t.kind, t.at
         FROM delivery.campaign_runs r JOIN delivery.tracking t ON t.campaign_id = r.campaign_id JOIN subs ON subs.id = t.subscriber_id
        WHERE r.site_id = $1 ORDER BY t.at, t.campaign_id, t.kind`,
      [siteId, personId],
    ),
  ]);
  return {
    deliveries: deliveries.rows.map((r) => ({ subscriptionId: r.public_id, campaignId: r.campaign_id, state: r.state, claimedAt: r.claimed_at, finishedAt: r.finished_at })),
    events: events.rows.map((r) => ({ subscriptionId: r.public_id, campaignId: r.campaign_id, kind: r.kind, at: r.at })),
  };
}

export interface PersonSendRow {
  runId: string;
  kind: 'campaign' | 'notification' | 'revision';
  campaignId: string;
  title: string;
  subscriptionId: string | null;
  state: string;
  claimedAt: Date;
  finishedAt: Date | null;
  impressionAt: Date | null;
  clickAt: Date | null;
}

/**
 * The newest `limit` delivery-log rows of the person's subscriptions (the console's People page),
 * newest first, each with its run's kind and title and that subscription's impression and click
 * of the run. Found as historyOfPerson finds them — through the site's runs, a primary-key probe
 * (campaign, subscriber) each — then the top `limit` kept by the sort; the reports are probes of
 * the tracking's primary key. A revision's reports count for the campaign it revises (its pushes
 * carry that campaign's tracking tokens), so its row has none of its own.
 */
export async function recentSendsOfPerson(db: Queryable, siteId: string, personId: string, limit: number): Promise<PersonSendRow[]> {
  const { rows } = await db.query(
    `WITH subs AS (
       SELECT s.id, s.public_id FROM delivery.person_subscriptions l JOIN delivery.subscribers s ON s.id = l.subscriber_id WHERE l.person_id = $2),
     sends AS (
       SELECT r.campaign_id, r.job, subs.id AS subscriber_id, subs.public_id, g.state, g.claimed_at, g.finished_at
         FROM delivery.campaign_runs r JOIN delivery.delivery_log g ON g.campaign_id = r.campaign_id JOIN subs ON subs.id = g.subscriber_id
        WHERE r.site_id = $1
        ORDER BY g.claimed_at DESC, g.campaign_id, g.subscriber_id
        LIMIT $3)
     SELECT x.campaign_id::text AS run_id,
            CASE WHEN x.job ? 'notification' THEN 'notification' WHEN x.job ? 'revision' THEN 'revision' ELSE 'campaign' END AS kind,
            COALESCE(x.job->'revision'->>'campaignId', x.campaign_id::text) AS campaign_id,
            -- A version-1 job carries its content at the top (contracts' messages.ts).
            COALESCE(x.job->'content'->>'title', x.job->>'title', '') AS title,
            x.public_id::text, x.state, x.claimed_at, x.finished_at,
            (SELECT t.at FROM delivery.tracking t WHERE t.campaign_id = x.campaign_id AND t.subscriber_id = x.subscriber_id AND t.kind = 'impression') AS impression_at,
            (SELECT t.at FROM delivery.tracking t WHERE t.campaign_id = x.campaign_id AND t.subscriber_id = x.subscriber_id AND t.kind = 'click') AS click_at
       FROM sends x
      ORDER BY x.claimed_at DESC, x.campaign_id, x.subscriber_id`,
    [siteId, personId, limit],
  );
  return rows.map((r) => ({
    runId: r.run_id,
    kind: r.kind,
    campaignId: r.campaign_id,
    title: r.title,
    subscriptionId: r.public_id,
    state: r.state,
    claimedAt: r.claimed_at,
    finishedAt: r.finished_at,
    impressionAt: r.impression_at,
    clickAt: r.click_at,
  }));
}

export interface ExportedSubscriptionRow extends PersonSubscriptionRow {
  language: string | null;
  timeZone: string | null;
  deactivatedAt: Date | null;
  linkedAt: Date;
}

/** Every stored fact of the person's subscriptions but their push credentials (endpoint and keys). */
export async function exportedSubscriptionsOf(db: Queryable, personId: string): Promise<ExportedSubscriptionRow[]> {
  const { rows } = await db.query(
    `SELECT s.public_id::text, delivery.browser_of(s.endpoint) AS browser, s.created_at, s.active, e.last_engaged_at,
            s.country, s.topics, s.language, s.time_zone, s.deactivated_at, l.linked_at
       FROM delivery.person_subscriptions l
       JOIN delivery.subscribers s ON s.id = l.subscriber_id
       LEFT JOIN delivery.subscriber_engagement e ON e.subscriber_id = s.id
      WHERE l.person_id = $1 ORDER BY s.id`,
    [personId],
  );
  return rows.map((r) => ({
    publicId: r.public_id,
    browser: r.browser,
    createdAt: r.created_at,
    active: r.active,
    lastEngagedAt: r.last_engaged_at,
    country: r.country,
    topics: r.topics,
    language: r.language,
    timeZone: r.time_zone,
    deactivatedAt: r.deactivated_at,
    linkedAt: r.linked_at,
  }));
}

/**
 * The privacy delete, in the caller's transaction (the person locked): the rows of the person's
 * subscriptions in the site's delivery log and tracking (through the site's runs, by primary
 * key), the frequency cap's history, tracking waiting for a webhook batch, stored webhook events
 * that name one of the subscriptions, the subscriptions themselves (their engagement and links
 * cascade, the audience counters follow by their triggers), their external id and their
 * renderings in notifications' targets, then the person with its tags. Answers how many
 * subscriptions went.
 */
export async function deletePersonEverywhere(tx: PoolClient, siteId: string, personId: string): Promise<number> {
  const { ids, publicIds } = await subscriberIdsOf(tx, personId);
  if (ids.length > 0) {
    const runs = `SELECT campaign_id FROM delivery.campaign_runs WHERE site_id = $1`;
    await tx.query(`DELETE FROM delivery.delivery_log WHERE campaign_id IN (${runs}) AND subscriber_id = ANY($2::bigint[])`, [siteId, ids]);
    await tx.query(`DELETE FROM delivery.tracking WHERE campaign_id IN (${runs}) AND subscriber_id = ANY($2::bigint[])`, [siteId, ids]);
    await tx.query(`DELETE FROM delivery.subscriber_pushes WHERE subscriber_id = ANY($1::bigint[])`, [ids]);
    await tx.query(`DELETE FROM delivery.webhook_tracking_buffer WHERE site_id = $1 AND subscriber_id = ANY($2::bigint[])`, [siteId, ids]);
    if (publicIds.length > 0) {
      await tx.query(
        `DELETE FROM delivery.webhook_deliveries d USING delivery.webhook_endpoints w
          WHERE d.endpoint_id = w.id AND w.site_id = $1 AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS p WHERE strpos(d.body, p) > 0)`,
        [siteId, publicIds],
      );
    }
    await tx.query(`DELETE FROM delivery.subscribers WHERE site_id = $1 AND id = ANY($2::bigint[])`, [siteId, ids]);
  }
  // The notifications that named them (docs/api-decisions.md, "Notifications"): their external id
  // becomes '' (the result keeps its place and outcome, naming nobody), and every content rendered
  // with their tags goes (a notification still sending fails their rows: their subscriptions are gone).
  await tx.query(
    `UPDATE delivery.notification_targets t SET external_id = CASE WHEN t.external_id IS NULL THEN NULL ELSE '' END, content = NULL
       FROM delivery.campaign_runs r
      WHERE r.campaign_id = t.notification_id AND r.site_id = $1
        AND (t.external_id = (SELECT external_id FROM delivery.people WHERE id = $2) OR t.subscriber_id = ANY($3::bigint[]))`,
    [siteId, personId, ids],
  );
  await tx.query(`DELETE FROM delivery.people WHERE id = $1`, [personId]);
  return ids.length;
}

/** A webhook event of the site (docs/webhooks.md), written in the caller's transaction. */
export async function emitPersonEvent(db: Queryable, siteId: string, type: 'person.deleted' | 'person.exported', data: Record<string, unknown>): Promise<void> {
  await db.query(`SELECT delivery.emit_webhook_event($1, $2, $3::json)`, [siteId, type, JSON.stringify(data)]);
}

// ---- tags from the page (docs/people.md, "Tags from the page") --------------------------------

export async function setVisitorTagKeys(db: Queryable, siteId: string, keys: readonly string[]): Promise<void> {
  await db.query(`UPDATE delivery.sites SET visitor_tags = $2::text[] WHERE site_id = $1`, [siteId, keys]);
}

export async function visitorTagKeys(db: Queryable, siteId: string): Promise<string[]> {
  const { rows } = await db.query(`SELECT visitor_tags FROM delivery.sites WHERE site_id = $1`, [siteId]);
  return rows[0]?.visitor_tags ?? [];
}

/** The person of the site's active subscription with this endpoint, locked for the caller's transaction; null when it has none. */
export async function lockPersonOfEndpoint(tx: PoolClient, siteId: string, endpoint: string): Promise<string | null> {
  const { rows } = await tx.query(
    `SELECT p.id::text FROM delivery.subscribers s
       JOIN delivery.person_subscriptions l ON l.subscriber_id = s.id
       JOIN delivery.people p ON p.id = l.person_id
      WHERE s.site_id = $1 AND s.endpoint = $2 AND s.active
      FOR UPDATE OF p`,
    [siteId, endpoint],
  );
  return rows[0]?.id ?? null;
}
