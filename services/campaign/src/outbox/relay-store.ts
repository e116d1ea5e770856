// The outbox relay's SQL: dispatch jobs with their campaign, revision jobs with their revision
// and its campaign, notification jobs with their notification. Rows are claimed by state (published_at IS NULL) under row locks, not
// by "id greater than the last one seen": ids are handed out before commit, so a smaller id can
// commit after a larger one and an id cursor would skip it.
import type { PoolClient } from 'pg';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { CONTENT_COLUMN_LIST, contentOfRow } from '../base/content-columns.js';

/** An outbox row with its campaign: the dispatch message's content, still to be published. */
export type ClaimedDispatch = Omit<DispatchMessage, 'type' | 'version' | 'dispatchedAt'> & {
  outboxId: string;
  dispatchedAt: Date;
  /** Request id of the call that dispatched it (a Kafka header), when known. */
  requestId: string | null;
};

/** Locks up to `limit` unpublished rows (skipping rows another relay holds) with their campaign. */
export async function claimUnpublished(tx: PoolClient, limit: number): Promise<ClaimedDispatch[]> {
  const { rows } = await tx.query(
    `SELECT o.id::text AS outbox_id, c.id AS campaign_id, c.site_id, c.dispatched_at, ${CONTENT_COLUMN_LIST.map((col) => `c.${col}`).join(', ')}, c.ttl, c.topics,
            c.segment, c.throttle_per_minute, c.ignore_frequency_cap, c.ignore_quiet_hours, COALESCE(c.edited_at, c.created_at) AS planned_at, c.urgency,
            c.local_time->>'date' AS local_date, c.local_time->>'time' AS local_time, c.ab_test, c.best_time,
            o.payload->>'requestId' AS request_id,
            r.id AS revision_id, r.revision, r.action AS revision_action, r.content AS revision_content, r.created_at AS revised_at
       FROM campaign.outbox o
       JOIN campaign.campaigns c ON c.id = o.campaign_id
       LEFT JOIN campaign.campaign_revisions r ON o.kind = 'campaign.revision' AND r.id = (o.payload->>'revisionId')::uuid
      WHERE o.published_at IS NULL AND o.kind IN ('campaign.dispatch', 'campaign.revision')
      ORDER BY o.id
      LIMIT $1
      FOR UPDATE OF o SKIP LOCKED`,
    [limit],
  );
  return rows.map((r) => (r.revision_id ? revisionOfRow(r) : {
    outboxId: r.outbox_id,
    campaignId: r.campaign_id,
    siteId: r.site_id,
    dispatchedAt: r.dispatched_at,
    content: contentOfRow(r),
    ttl: r.ttl,
    audience: r.topics,
    segment: r.segment ?? undefined,
    throttlePerMinute: r.throttle_per_minute ?? undefined,
    ignoreFrequencyCap: r.ignore_frequency_cap || undefined,
    ignoreQuietHours: r.ignore_quiet_hours || undefined,
    // The zone groups are measured from the moment its plan was made: the campaign's creation, or
    // the last edit of the draft it was (update-draft.ts).
    localTime: r.local_date ? { date: r.local_date, time: r.local_time, createdAt: (r.planned_at as Date).toISOString() } : undefined,
    abTest: r.ab_test ?? undefined,
    bestTime: r.best_time ?? undefined,
    urgency: r.urgency,
    requestId: r.request_id ?? null,
  }));
}

/**
 * A revision's job (docs/api-decisions.md, "Update and recall"): the revision's own id, the
 * campaign's site, TTL and urgency, the corrected content (an update's) or the campaign's (a
 * recall's, which its pushes do not carry), no audience (the delivery service sends to whom the
 * campaign was sent) and none of the sending controls: a revision goes at once.
 */
function revisionOfRow(r: Record<string, any>): ClaimedDispatch {
  return {
    outboxId: r.outbox_id,
    campaignId: r.revision_id,
    siteId: r.site_id,
    dispatchedAt: r.revised_at,
    content: r.revision_content ?? contentOfRow(r),
    ttl: r.ttl,
    audience: [],
    urgency: r.urgency,
    revision: { campaignId: r.campaign_id, number: r.revision, action: r.revision_action },
    requestId: r.request_id ?? null,
  };
}

/** Locks up to `limit` unpublished notification jobs (skipping rows another relay holds) with their notification. */
export async function claimNotifications(tx: PoolClient, limit: number): Promise<ClaimedDispatch[]> {
  const { rows } = await tx.query(
    `SELECT o.id::text AS outbox_id, n.id, n.site_id, n.created_at, n.content, n.ttl, n.urgency, n.transactional,
            n.subscription_ids::text[] AS subscription_ids, n.external_ids, n.template, n.send_time, n.respect_quiet_hours, o.payload->>'requestId' AS request_id
       FROM campaign.outbox o
       JOIN campaign.notifications n ON n.id = o.campaign_id
      WHERE o.published_at IS NULL AND o.kind = 'notification.dispatch'
      ORDER BY o.id
      LIMIT $1
      FOR UPDATE OF o SKIP LOCKED`,
    [limit],
  );
  // A notification's job (docs/api-decisions.md, "Notifications"): its own id, no audience (the
  // delivery service sends to the site's active subscriptions among those named, or those of the
  // people named), a
  // transactional one past the frequency cap.
  return rows.map((r) => ({
    outboxId: r.outbox_id,
    campaignId: r.id,
    siteId: r.site_id,
    dispatchedAt: r.created_at,
    content: r.content,
    ttl: r.ttl,
    audience: [],
    ignoreFrequencyCap: r.transactional || undefined,
    urgency: r.urgency,
    // At each target's best time: the campaigns' best time without a holdout.
    ...(r.send_time ? { bestTime: { withinHours: r.send_time.withinHours, holdoutPercent: 0 } } : {}),
    notification: {
      ...(r.external_ids.length > 0 ? { externalIds: r.external_ids } : { subscriptionIds: r.subscription_ids }),
      // The template's texts and the call's values (its id and version stay here: the delivery service renders, it does not need to know which).
      ...(r.template ? { template: { content: r.template.content, variables: r.template.variables } } : {}),
      // Always beside best time, so that a release without notifications' best time refuses the job (messages.ts).
      ...(r.respect_quiet_hours || r.send_time ? { quietHours: r.respect_quiet_hours } : {}),
    },
    requestId: r.request_id ?? null,
  }));
}

export async function markPublished(tx: PoolClient, outboxIds: string[]): Promise<void> {
  await tx.query(`UPDATE campaign.outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [outboxIds]);
}

/** Rows written but not yet published: the relay's backlog. */
export async function backlog(tx: { query: PoolClient['query'] }): Promise<number> {
  const { rows } = await tx.query(`SELECT count(*)::int AS n FROM campaign.outbox WHERE published_at IS NULL`);
  return rows[0].n;
}

/**
 * Seconds since the oldest unpublished row was written (0 when none): a relay that is stuck
 * shows as this growing, while the backlog alone can be large and moving.
 */
export async function oldestUnpublishedAge(tx: { query: PoolClient['query'] }): Promise<number> {
  const { rows } = await tx.query(
    `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age FROM campaign.outbox WHERE published_at IS NULL`,
  );
  return rows[0].age;
}
