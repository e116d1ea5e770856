// A notification's targets (delivery.notification_targets; docs/api-decisions.md,
// "Notifications"): resolved once to the site's active subscribers (a person's: each of their
// active subscriptions), read back in subscriber-id slices for its chunks, and its results by
// target — the delivery log's outcome of each (a person's derived from their subscriptions'), in
// the request's order.
import type { Queryable } from '@webpush/shared/db.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import { logTableOf } from './delivery-log-store.js';
import type { Narrowing } from './run-store.js';

/**
 * Stores the targets of `notificationId` with the site's active subscriber each names (none: no
 * subscription, and never another site's). Once: a repeated dispatch finds them stored and
 * changes nothing.
 */
export async function resolveTargets(db: Queryable, notificationId: string, siteId: string, subscriptionIds: readonly string[]): Promise<void> {
  await db.query(
    `INSERT INTO delivery.notification_targets (notification_id, position, subscription_id, subscriber_id)
     SELECT $1, t.position, t.id, s.id
       FROM unnest($3::uuid[]) WITH ORDINALITY AS t(id, position)
       LEFT JOIN delivery.subscribers s ON s.public_id = t.id AND s.site_id = $2 AND s.active
     ON CONFLICT (notification_id, position) DO NOTHING`,
    [notificationId, siteId, subscriptionIds],
  );
}

/** Holds the notification's run until the transaction ends: one resolution of its people at a time. */
export async function lockNotificationRun(db: Queryable, notificationId: string): Promise<void> {
  await db.query(`SELECT 1 FROM delivery.campaign_runs WHERE campaign_id = $1 FOR UPDATE`, [notificationId]);
}

/**
 * Stores the people of `notificationId` (external ids in the request's order) with the active
 * subscriptions `subscriptions` found for them (people/'s activeSubscriptionsOfPeople): a row per
 * subscriber, one without a subscriber for a person with none; a person's rows share `target`
 * (their place in the request), each row has a position of its own. Only when the notification
 * has no targets yet, so the people are resolved once whatever repeats (call it under
 * lockNotificationRun).
 */
export async function storePersonTargets(
  db: Queryable,
  notificationId: string,
  externalIds: readonly string[],
  subscriptions: readonly { externalId: string; subscriberId: string }[],
): Promise<void> {
  await db.query(
    `INSERT INTO delivery.notification_targets (notification_id, position, target, external_id, subscriber_id)
     SELECT $1, (row_number() OVER (ORDER BY p.target, s.subscriber_id))::int, p.target, p.external_id, s.subscriber_id
       FROM unnest($2::text[]) WITH ORDINALITY AS p(external_id, target)
       LEFT JOIN unnest($3::text[], $4::bigint[]) AS s(external_id, subscriber_id) ON s.external_id = p.external_id
      WHERE NOT EXISTS (SELECT 1 FROM delivery.notification_targets WHERE notification_id = $1)
     ON CONFLICT (notification_id, position) DO NOTHING`,
    [notificationId, externalIds, subscriptions.map((s) => s.externalId), subscriptions.map((s) => s.subscriberId)],
  );
}

/**
 * Next slice of a notification's resolved targets after subscriber `afterId`, in id order (as
 * audienceSlice); a target whose outcome is set already (its template's rendering failed) is not
 * sent. A staged notification's (best time, quiet hours: stages.ts) narrowed to the stage's
 * subscribers by its conditions on `delivery.subscribers s` (stage-store.ts stageSql).
 */
export async function targetsSlice(db: Queryable, notificationId: string, afterId: string, limit: number, stage?: Narrowing): Promise<string[]> {
  const staged = stage?.(4);
  const { rows } = await db.query(
    `SELECT t.subscriber_id::text AS id FROM delivery.notification_targets t
      WHERE t.notification_id = $1 AND t.subscriber_id > $2::bigint AND t.outcome IS NULL
        ${staged ? `AND EXISTS (SELECT 1 FROM delivery.subscribers s WHERE s.id = t.subscriber_id${staged.sql})` : ''}
      ORDER BY t.subscriber_id LIMIT $3`,
    [notificationId, afterId, limit, ...(staged?.params ?? [])],
  );
  return rows.map((r) => r.id as string);
}

/**
 * A notification's targets still to send by the zone their browsers reported (null: none), as
 * countByZone answers a campaign's audience: what a staged notification is planned from.
 */
export async function countTargetsByZone(db: Queryable, notificationId: string): Promise<{ zone: string | null; users: number }[]> {
  const { rows } = await db.query(
    `SELECT s.time_zone AS zone, count(*)::int AS users
       FROM delivery.notification_targets t JOIN delivery.subscribers s ON s.id = t.subscriber_id
      WHERE t.notification_id = $1 AND t.outcome IS NULL AND s.active
      GROUP BY s.time_zone`,
    [notificationId],
  );
  return rows.map((r) => ({ zone: r.zone, users: r.users }));
}

/** A target row of a notification made from a template, still to be rendered. */
export interface TargetToRender {
  position: number;
  subscriberId: string;
  /** The person named, or null for a subscription named. */
  externalId: string | null;
}

/** The rows with a subscriber that have neither a content nor an outcome yet (call it under lockNotificationRun). */
export async function targetsToRender(db: Queryable, notificationId: string): Promise<TargetToRender[]> {
  const { rows } = await db.query(
    `SELECT position, subscriber_id::text AS subscriber_id, external_id FROM delivery.notification_targets
      WHERE notification_id = $1 AND subscriber_id IS NOT NULL AND content IS NULL AND outcome IS NULL ORDER BY position`,
    [notificationId],
  );
  return rows.map((r) => ({ position: r.position, subscriberId: r.subscriber_id, externalId: r.external_id }));
}

/** Each row's rendering stored: its content, or (content null) its outcome `failed` with the reason. */
export async function storeRenderings(db: Queryable, notificationId: string, renderings: readonly { position: number; content: CampaignContent | null; reason: string }[]): Promise<void> {
  if (renderings.length === 0) return;
  await db.query(
    `UPDATE delivery.notification_targets t
        SET content = r.content, outcome = CASE WHEN r.content IS NULL THEN 'failed' END, reason = CASE WHEN r.content IS NULL THEN r.reason END
       FROM unnest($2::int[], $3::jsonb[], $4::text[]) AS r(position, content, reason)
      WHERE t.notification_id = $1 AND t.position = r.position`,
    [notificationId, renderings.map((r) => r.position), renderings.map((r) => (r.content === null ? null : JSON.stringify(r.content))), renderings.map((r) => r.reason)],
  );
}

/** The contents rendered for the subscribers `subscriberIds` of a notification made from a template, by subscriber id. */
export async function renderedContents(db: Queryable, notificationId: string, subscriberIds: readonly string[]): Promise<Map<string, CampaignContent>> {
  const { rows } = await db.query(
    `SELECT subscriber_id::text AS id, content FROM delivery.notification_targets
      WHERE notification_id = $1 AND subscriber_id = ANY($2::bigint[]) AND content IS NOT NULL`,
    [notificationId, subscriberIds],
  );
  return new Map(rows.map((r) => [r.id as string, r.content as CampaignContent]));
}

export type TargetOutcome = 'sent' | 'noSubscription' | 'capped' | 'failed' | 'pending';

export interface TargetResult {
  position: number;
  /** The subscription named, or '' for a person. */
  subscriptionId: string;
  /** The person named, or '' for a subscription. */
  externalId: string;
  outcome: TargetOutcome;
  reason: string;
}

// A subscription the push service answered 404 or 410 for is gone (and deactivated): no subscription.
// Once the run is final its outcomes are kept with the targets (the same rule, in
// migrations/20261207070100_notification_outcomes.sql), so they outlive its delivery log.
const OUTCOME = `coalesce(t.outcome, CASE WHEN t.subscriber_id IS NULL OR l.state = 'expired' THEN 'noSubscription'
                      WHEN l.state IN ('sent', 'capped', 'failed') THEN l.state ELSE 'pending' END)`;
const REASON = `coalesce(t.reason, CASE WHEN l.state = 'failed' THEN coalesce(l.reason, '') ELSE '' END)`;
/**
 * A person's outcome is the best of their subscriptions': sent when any was sent, else pending
 * (not final yet), failed, capped, noSubscription, in that order (a failure is worth a look, a
 * cap is the site's own rule); the reason is the chosen row's. The migration's
 * delivery.notification_outcome_rank is the same order (the webhook's counts use it).
 */
const PERSON_RANK = `delivery.notification_outcome_rank(r.outcome)`;
/** A row's target: a person's place in the request (`target`), a subscription's own position. */
const TARGET = `coalesce(t.target, t.position)`;
/** Stands for a delivery log that retention has dropped: no row, every outcome kept with the targets. */
const NO_LOG = `(SELECT NULL::uuid AS campaign_id, NULL::bigint AS subscriber_id, NULL::text AS state, NULL::text AS reason WHERE false)`;

/** The targets' counts by outcome, and the page of results after position `after`. */
export async function targetResults(
  db: Queryable,
  notificationId: string,
  after: number,
  limit: number,
): Promise<{ counts: Record<TargetOutcome, number>; results: TargetResult[]; hasMore: boolean }> {
  const expired = await db.query(`SELECT 1 FROM delivery.campaign_runs WHERE campaign_id = $1 AND log_expired_at IS NOT NULL`, [notificationId]);
  const table = expired.rowCount ? NO_LOG : await logTableOf(db, notificationId);
  // One row per target: a subscription's own, or a person's derived from their subscriptions'
  // (PERSON_RANK). `filter` narrows the rows before they are grouped.
  const targets = (filter: string) => `
    WITH r AS (SELECT ${TARGET} AS position, t.subscription_id, t.external_id, t.subscriber_id, ${OUTCOME} AS outcome, ${REASON} AS reason
                 FROM delivery.notification_targets t LEFT JOIN ${table} l ON l.campaign_id = t.notification_id AND l.subscriber_id = t.subscriber_id
                WHERE t.notification_id = $1 ${filter})
    SELECT r.position, max(r.subscription_id::text) AS subscription_id, max(r.external_id) AS external_id,
           (array_agg(r.outcome ORDER BY ${PERSON_RANK}, r.subscriber_id))[1] AS outcome,
           (array_agg(r.reason ORDER BY ${PERSON_RANK}, r.subscriber_id))[1] AS reason
      FROM r GROUP BY r.position`;
  const counted = await db.query(`SELECT outcome, count(*)::int AS n FROM (${targets('')}) x GROUP BY 1`, [notificationId]);
  const counts: Record<TargetOutcome, number> = { sent: 0, noSubscription: 0, capped: 0, failed: 0, pending: 0 };
  for (const r of counted.rows) counts[r.outcome as TargetOutcome] = r.n;
  // Targets are 1…targets without gaps: the page's are after < target ≤ after + limit + 1.
  const page = await db.query(`SELECT * FROM (${targets(`AND ${TARGET} > $2 AND ${TARGET} <= $2 + $3`)}) x ORDER BY x.position`, [notificationId, after, limit + 1]);
  const rows = page.rows.slice(0, limit);
  return {
    counts,
    results: rows.map((r) => ({ position: r.position, subscriptionId: r.subscription_id ?? '', externalId: r.external_id ?? '', outcome: r.outcome, reason: r.reason })),
    hasMore: page.rows.length > limit,
  };
}
