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

/** Who claims: the instance, the lease of this attempt, and every lease the instance has live. */
export interface Claimant {
  instanceId: string;
  lease: string;
  liveLeases: readonly string[];
}

/**
 * Claims the rows of `subscriberIds` under the claimant's lease: never-claimed rows of active
 * subscribers, and rows not final whose lease is not live — another instance's that stopped
 * heartbeating or ended its attempt, or this instance's own from an attempt that failed (the
 * instance knows which of its leases are live). A row taken over while 'sending' may have been
 * delivered: it is counted ambiguous here, and goes back to 'claimed' until it is sent again.
 * Rows another transaction holds locked are skipped (they are in someone's hands right now).
 */
export async function claim(tx: PoolClient, campaignId: string, subscriberIds: string[], who: Claimant, deadAfterSec: number): Promise<{ ids: string[]; ambiguous: number }> {
  const fresh = await tx.query(
    `INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by, lease)
     SELECT $1, s.id, 'claimed', $3, $4
       FROM delivery.subscribers s
      WHERE s.id = ANY($2::bigint[]) AND s.active
     ORDER BY s.id
     ON CONFLICT (campaign_id, subscriber_id) DO NOTHING
     RETURNING subscriber_id::text`,
    [campaignId, subscriberIds, who.instanceId, who.lease],
  );
  const resumed = await tx.query(
    `WITH stale AS (
       SELECT l.subscriber_id, l.state FROM delivery.delivery_log l
        WHERE l.campaign_id = $1 AND l.subscriber_id = ANY($2::bigint[]) AND l.state IN ('claimed', 'sending')
          AND (l.lease IS NULL OR l.lease <> ALL($5::uuid[]))
          AND NOT EXISTS (
                SELECT 1 FROM delivery.claim_leases x JOIN delivery.instances i ON i.id = x.instance_id
                 WHERE x.id = l.lease AND x.instance_id <> $3 AND i.heartbeat_at > now() - make_interval(secs => $6))
          AND NOT (l.lease IS NULL AND l.claimed_by <> $3 AND EXISTS (
                SELECT 1 FROM delivery.instances i WHERE i.id = l.claimed_by AND i.heartbeat_at > now() - make_interval(secs => $6)))
        ORDER BY l.subscriber_id
        FOR UPDATE OF l SKIP LOCKED)
     UPDATE delivery.delivery_log l
        SET state = 'claimed', claimed_by = $3, lease = $4, claimed_at = now(), attempts = l.attempts + 1,
            ambiguous = l.ambiguous + (stale.state = 'sending')::int
       FROM stale
      WHERE l.campaign_id = $1 AND l.subscriber_id = stale.subscriber_id
      RETURNING l.subscriber_id::text, stale.state = 'sending' AS was_sending`,
    [campaignId, subscriberIds, who.instanceId, who.lease, who.liveLeases, deadAfterSec],
  );
  const ambiguous = resumed.rows.filter((r) => r.was_sending).length;
  if (ambiguous > 0) await tx.query(`UPDATE delivery.campaign_runs SET ambiguous = ambiguous + $2 WHERE campaign_id = $1`, [campaignId, ambiguous]);
  return { ids: [...fresh.rows, ...resumed.rows].map((r) => r.subscriber_id as string), ambiguous };
}

/**
 * Marks claimed rows 'sending' right before their first request (group-committed by the
 * caller). Returns the rows marked: a row missing was taken over, and must not be sent.
 */
export async function markSending(db: Queryable, campaignId: string, lease: string, subscriberIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query(
    `UPDATE delivery.delivery_log SET state = 'sending'
      WHERE campaign_id = $1 AND subscriber_id = ANY($2::bigint[]) AND lease = $3 AND state IN ('claimed', 'sending')
      RETURNING subscriber_id::text`,
    [campaignId, subscriberIds, lease],
  );
  return new Set(rows.map((r) => r.subscriber_id as string));
}

/** Rows of these subscribers without a final outcome yet (after a pass: held by a live lease of someone else). */
export async function unfinishedRows(db: Queryable, campaignId: string, subscriberIds: string[]): Promise<number> {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM delivery.delivery_log
      WHERE campaign_id = $1 AND subscriber_id = ANY($2::bigint[]) AND state IN ('claimed', 'sending')`,
    [campaignId, subscriberIds],
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
  /** Attempts that broke after their request went out: copies this push may have left beyond one (or, failed, the one). */
  ambiguous?: number;
}

/**
 * Records outcomes of rows this lease holds, deactivates expired subscriptions, and adds what
 * was recorded to the run's counters — one statement, so atomic without a transaction and one
 * round trip. Idempotent: a row already final, or taken over by another lease, is left alone
 * and not counted, so a write whose outcome was lost with its connection can simply be made again.
 */
export async function recordOutcomes(db: Queryable, campaignId: string, lease: string, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db.query(
    `WITH v AS (
       SELECT * FROM unnest($3::bigint[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[])
                  AS t(subscriber_id, state, status, reason, failure_class, ambiguous)),
     upd AS (
       UPDATE delivery.delivery_log l
          SET state = v.state, status = v.status, reason = v.reason, finished_at = now(), ambiguous = l.ambiguous + v.ambiguous
         FROM v
        WHERE l.campaign_id = $1 AND l.subscriber_id = v.subscriber_id AND l.lease = $2 AND l.state IN ('claimed', 'sending')
       RETURNING l.subscriber_id, l.state, v.failure_class, v.ambiguous),
     gone AS (
       UPDATE delivery.subscribers s SET active = false, deactivated_at = now(), updated_at = now()
         FROM upd WHERE s.id = upd.subscriber_id AND upd.state = 'expired' AND s.active),
     c AS (
       SELECT count(*) FILTER (WHERE state = 'sent') AS sent,
              count(*) FILTER (WHERE state = 'failed') AS failed,
              count(*) FILTER (WHERE state = 'expired') AS expired,
              count(*) FILTER (WHERE state = 'failed' AND failure_class = 'rejected') AS rejected,
              count(*) FILTER (WHERE state = 'failed' AND failure_class = 'unauthorized') AS unauthorized,
              count(*) FILTER (WHERE state = 'failed' AND failure_class = 'unreachable') AS unreachable,
              count(*) FILTER (WHERE state = 'failed' AND failure_class = 'refused') AS refused,
              coalesce(sum(ambiguous), 0) AS ambiguous
         FROM upd)
     UPDATE delivery.campaign_runs r
        SET sent = r.sent + c.sent, failed = r.failed + c.failed, expired = r.expired + c.expired, ambiguous = r.ambiguous + c.ambiguous,
            failed_rejected = r.failed_rejected + c.rejected, failed_unauthorized = r.failed_unauthorized + c.unauthorized,
            failed_unreachable = r.failed_unreachable + c.unreachable, failed_refused = r.failed_refused + c.refused
       FROM c
      WHERE r.campaign_id = $1 AND (SELECT count(*) FROM upd) > 0`,
    [
      campaignId,
      lease,
      outcomes.map((o) => o.subscriberId),
      outcomes.map((o) => o.outcome),
      outcomes.map((o) => o.status),
      outcomes.map((o) => (o.reason ? o.reason.slice(0, 300) : null)),
      outcomes.map((o) => o.failureClass ?? null),
      outcomes.map((o) => o.ambiguous ?? 0),
    ],
  );
}

/**
 * Marks a chunk done once; the last chunk of an expanded run completes it. null, and nothing
 * marked, while a row of the chunk has no final outcome: a run completes only when every row
 * claimed for it is final.
 */
export async function chunkDone(tx: PoolClient, campaignId: string, chunkNo: number, subscriberIds: string[]): Promise<RunRow | null> {
  if ((await unfinishedRows(tx, campaignId, subscriberIds)) > 0) return null;
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
  await db.query(`INSERT INTO delivery.claim_leases (id, instance_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [lease, instanceId]);
}

export async function endLeases(db: Queryable, leases: string[]): Promise<void> {
  if (leases.length > 0) await db.query(`DELETE FROM delivery.claim_leases WHERE id = ANY($1::uuid[])`, [leases]);
}
