// SQL of the sending side: campaign runs, audience expansion, the delivery log, tracking.
import type { PoolClient } from 'pg';
import type { Queryable } from '../../../shared/src/db.js';
import type { DispatchMessage, FailureClass } from '../../../shared/src/messages.js';

export type RunState = 'expanding' | 'sending' | 'completed' | 'failed';

export interface RunRow {
  campaignId: string;
  siteId: string;
  job: DispatchMessage;
  state: RunState;
  expandedThrough: string;
  chunksPublished: number;
  chunksTotal: number | null;
  chunksDone: number;
  sent: number;
  failed: number;
  expired: number;
  ambiguous: number;
  impressions: number;
  clicks: number;
  reason: string | null;
}

const RUN_COLUMNS = `campaign_id, site_id, job, state, expanded_through::text, chunks_published, chunks_total, chunks_done,
  sent::int, failed::int, expired::int, ambiguous::int, impressions::int, clicks::int, reason`;

function toRun(r: Record<string, any>): RunRow {
  return {
    campaignId: r.campaign_id,
    siteId: r.site_id,
    job: r.job,
    state: r.state,
    expandedThrough: r.expanded_through,
    chunksPublished: r.chunks_published,
    chunksTotal: r.chunks_total,
    chunksDone: r.chunks_done,
    sent: r.sent,
    failed: r.failed,
    expired: r.expired,
    ambiguous: r.ambiguous,
    impressions: r.impressions,
    clicks: r.clicks,
    reason: r.reason,
  };
}

/** The run of a dispatched campaign, created on first sight (a repeated dispatch finds it). */
export async function runFor(db: Queryable, job: DispatchMessage): Promise<RunRow> {
  const { rows } = await db.query(
    `WITH ins AS (
       INSERT INTO delivery.campaign_runs (campaign_id, site_id, job) VALUES ($1, $2, $3)
       ON CONFLICT (campaign_id) DO NOTHING RETURNING ${RUN_COLUMNS})
     SELECT * FROM ins
     UNION ALL
     SELECT ${RUN_COLUMNS} FROM delivery.campaign_runs WHERE campaign_id = $1 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [job.campaignId, job.siteId, JSON.stringify(job)],
  );
  return toRun(rows[0]);
}

export async function findRun(db: Queryable, campaignId: string): Promise<RunRow | null> {
  const { rows } = await db.query(`SELECT ${RUN_COLUMNS} FROM delivery.campaign_runs WHERE campaign_id = $1`, [campaignId]);
  return rows[0] ? toRun(rows[0]) : null;
}

export async function failRun(db: Queryable, campaignId: string, reason: string): Promise<RunRow> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs SET state = 'failed', reason = $2, completed_at = now()
      WHERE campaign_id = $1 RETURNING ${RUN_COLUMNS}`,
    [campaignId, reason],
  );
  return toRun(rows[0]);
}

/** Next slice of the audience after `afterId`: active subscribers in any of the topics or countries. */
export async function audienceSlice(
  db: Queryable,
  siteId: string,
  topics: string[],
  countries: string[],
  afterId: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query(
    // Ordered by the bigint column, not the text output (which would sort "10" before "9").
    `SELECT s.id::text AS id FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND s.id > $2::bigint AND (s.country = ANY($3::text[]) OR s.topics && $4::text[])
      ORDER BY s.id LIMIT $5`,
    [siteId, afterId, countries, topics, limit],
  );
  return rows.map((r) => r.id as string);
}

export async function recordExpansion(db: Queryable, campaignId: string, through: string, chunks: number, subscribers: number): Promise<void> {
  await db.query(
    `UPDATE delivery.campaign_runs
        SET expanded_through = $2::bigint, chunks_published = chunks_published + $3, audience_size = audience_size + $4
      WHERE campaign_id = $1`,
    [campaignId, through, chunks, subscribers],
  );
}

/** Expansion done: the run is complete at once when every chunk is already done (or there were none). */
export async function finishExpansion(db: Queryable, campaignId: string): Promise<RunRow> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs
        SET chunks_total = chunks_published,
            state = CASE WHEN chunks_done >= chunks_published THEN ${completionState('')} ELSE 'sending' END,
            reason = CASE WHEN chunks_done >= chunks_published AND sent = 0 AND failed > 0 THEN 'every push failed' ELSE reason END,
            completed_at = CASE WHEN chunks_done >= chunks_published THEN now() ELSE NULL END
      WHERE campaign_id = $1 AND state = 'expanding'
      RETURNING ${RUN_COLUMNS}`,
    [campaignId],
  );
  return rows[0] ? toRun(rows[0]) : ((await findRun(db, campaignId)) as RunRow);
}

/** A finished run is `failed` when nothing was sent and something failed for a reason other than expiry. */
function completionState(prefix: string): string {
  return `(CASE WHEN ${prefix}sent = 0 AND ${prefix}failed > 0 THEN 'failed' ELSE 'completed' END)`;
}

/** Claims never-claimed rows, and rows left 'claimed' by an instance that stopped heartbeating. */
export async function claim(
  tx: PoolClient,
  campaignId: string,
  subscriberIds: string[],
  me: string,
  deadAfterSec: number,
): Promise<{ fresh: string[]; takenOver: string[] }> {
  const fresh = await tx.query(
    `INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by)
     SELECT $1, s.id, 'claimed', $3
       FROM delivery.subscribers s
      WHERE s.id = ANY($2::bigint[]) AND s.active
     ORDER BY s.id
     ON CONFLICT (campaign_id, subscriber_id) DO NOTHING
     RETURNING subscriber_id::text`,
    [campaignId, subscriberIds, me],
  );
  const takenOver = await tx.query(
    `UPDATE delivery.delivery_log l
        SET claimed_by = $3, claimed_at = now(), attempts = l.attempts + 1
      WHERE l.campaign_id = $1 AND l.subscriber_id = ANY($2::bigint[]) AND l.state = 'claimed' AND l.claimed_by <> $3
        AND NOT EXISTS (SELECT 1 FROM delivery.instances i
                         WHERE i.id = l.claimed_by AND i.heartbeat_at > now() - make_interval(secs => $4))
      RETURNING l.subscriber_id::text`,
    [campaignId, subscriberIds, me, deadAfterSec],
  );
  return { fresh: fresh.rows.map((r) => r.subscriber_id), takenOver: takenOver.rows.map((r) => r.subscriber_id) };
}

/** Rows of this chunk still held by another (live) instance. */
export async function heldByOthers(db: Queryable, campaignId: string, subscriberIds: string[], me: string): Promise<number> {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM delivery.delivery_log
      WHERE campaign_id = $1 AND subscriber_id = ANY($2::bigint[]) AND state = 'claimed' AND claimed_by <> $3`,
    [campaignId, subscriberIds, me],
  );
  return rows[0].n;
}

export interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export async function subscriptions(db: Queryable, ids: string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query(
    `SELECT s.id::text AS id, s.endpoint, s.p256dh, s.auth FROM delivery.subscribers s WHERE s.id = ANY($1::bigint[]) ORDER BY s.id`,
    [ids],
  );
  return rows as SubscriptionRow[];
}

export interface Outcome {
  subscriberId: string;
  outcome: 'sent' | 'expired' | 'failed';
  status: number | null;
  reason: string | null;
  /** Why a failed push failed (sending/failure-class.ts); counted per class in the run. */
  failureClass?: FailureClass | null;
}

/**
 * Records outcomes of rows this instance holds (one multi-row statement), deactivates expired
 * subscriptions, and adds what was recorded to the run's counters. Returns the run afterwards.
 */
export async function recordOutcomes(tx: PoolClient, campaignId: string, me: string, outcomes: Outcome[], ambiguous: number): Promise<void> {
  if (outcomes.length === 0 && ambiguous === 0) return;
  const { rows } = await tx.query(
    `WITH v AS (
       SELECT * FROM unnest($3::bigint[], $4::text[], $5::int[], $6::text[], $7::text[]) AS t(subscriber_id, state, status, reason, failure_class)),
     upd AS (
       UPDATE delivery.delivery_log l
          SET state = v.state, status = v.status, reason = v.reason, finished_at = now()
         FROM v
        WHERE l.campaign_id = $1 AND l.subscriber_id = v.subscriber_id AND l.claimed_by = $2 AND l.state = 'claimed'
       RETURNING l.state, v.failure_class)
     SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent,
            count(*) FILTER (WHERE state = 'failed')::int AS failed,
            count(*) FILTER (WHERE state = 'expired')::int AS expired,
            count(*) FILTER (WHERE state = 'failed' AND failure_class = 'rejected')::int AS rejected,
            count(*) FILTER (WHERE state = 'failed' AND failure_class = 'unauthorized')::int AS unauthorized,
            count(*) FILTER (WHERE state = 'failed' AND failure_class = 'unreachable')::int AS unreachable,
            count(*) FILTER (WHERE state = 'failed' AND failure_class = 'refused')::int AS refused
       FROM upd`,
    [
      campaignId,
      me,
      outcomes.map((o) => o.subscriberId),
      outcomes.map((o) => o.outcome),
      outcomes.map((o) => o.status),
      outcomes.map((o) => (o.reason ? o.reason.slice(0, 300) : null)),
      outcomes.map((o) => o.failureClass ?? null),
    ],
  );
  const expiredIds = outcomes.filter((o) => o.outcome === 'expired').map((o) => o.subscriberId);
  if (expiredIds.length > 0) {
    await tx.query(
      `UPDATE delivery.subscribers SET active = false, deactivated_at = now(), updated_at = now()
        WHERE id = ANY($1::bigint[]) AND active`,
      [expiredIds],
    );
  }
  const c = rows[0];
  await tx.query(
    `UPDATE delivery.campaign_runs SET sent = sent + $2, failed = failed + $3, expired = expired + $4, ambiguous = ambiguous + $5,
            failed_rejected = failed_rejected + $6, failed_unauthorized = failed_unauthorized + $7,
            failed_unreachable = failed_unreachable + $8, failed_refused = failed_refused + $9
      WHERE campaign_id = $1`,
    [campaignId, c.sent, c.failed, c.expired, ambiguous, c.rejected, c.unauthorized, c.unreachable, c.refused],
  );
}

/** Marks a chunk done once; the last chunk of an expanded run completes it. */
export async function chunkDone(tx: PoolClient, campaignId: string, chunkNo: number): Promise<RunRow> {
  const ins = await tx.query(
    `INSERT INTO delivery.campaign_chunks (campaign_id, chunk_no) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING chunk_no`,
    [campaignId, chunkNo],
  );
  if (ins.rowCount === 0) return (await findRun(tx, campaignId)) as RunRow;
  const { rows } = await tx.query(
    `UPDATE delivery.campaign_runs r
        SET chunks_done = r.chunks_done + 1,
            state = CASE WHEN r.state = 'sending' AND r.chunks_done + 1 >= r.chunks_total THEN ${completionState('r.')} ELSE r.state END,
            reason = CASE WHEN r.state = 'sending' AND r.chunks_done + 1 >= r.chunks_total AND r.sent = 0 AND r.failed > 0 THEN 'every push failed' ELSE r.reason END,
            completed_at = CASE WHEN r.state = 'sending' AND r.chunks_done + 1 >= r.chunks_total THEN now() ELSE r.completed_at END
      WHERE r.campaign_id = $1
      RETURNING ${RUN_COLUMNS}`,
    [campaignId],
  );
  return toRun(rows[0]);
}

/** Stores tracking reports once each and adds the new ones to their runs' counters; returns the campaigns whose counters changed. */
export async function recordTracking(
  tx: PoolClient,
  reports: { campaignId: string; subscriberId: string; kind: 'impression' | 'click' }[],
): Promise<string[]> {
  if (reports.length === 0) return [];
  const { rows } = await tx.query(
    `WITH ins AS (
       INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind)
       SELECT DISTINCT t.campaign_id, t.subscriber_id, t.kind
         FROM unnest($1::uuid[], $2::bigint[], $3::text[]) AS t(campaign_id, subscriber_id, kind)
         JOIN delivery.campaign_runs r ON r.campaign_id = t.campaign_id
       ON CONFLICT DO NOTHING
       RETURNING campaign_id, kind),
     agg AS (
       SELECT campaign_id, count(*) FILTER (WHERE kind = 'impression') AS imp, count(*) FILTER (WHERE kind = 'click') AS clk
         FROM ins GROUP BY campaign_id ORDER BY campaign_id)
     UPDATE delivery.campaign_runs r SET impressions = r.impressions + agg.imp, clicks = r.clicks + agg.clk
       FROM agg WHERE r.campaign_id = agg.campaign_id
     RETURNING r.campaign_id`,
    [reports.map((r) => r.campaignId), reports.map((r) => r.subscriberId), reports.map((r) => r.kind)],
  );
  return rows.map((r) => r.campaign_id as string);
}

export async function heartbeat(db: Queryable, instanceId: string): Promise<void> {
  await db.query(
    `INSERT INTO delivery.instances (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
    [instanceId],
  );
}

export async function forgetInstance(db: Queryable, instanceId: string): Promise<void> {
  await db.query(`DELETE FROM delivery.instances WHERE id = $1`, [instanceId]);
}
