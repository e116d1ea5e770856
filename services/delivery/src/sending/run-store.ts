// Campaign runs: one per dispatched campaign — its job, the audience expansion's progress,
// its chunks and counters, and the rule that finishes it.
import type { PoolClient } from 'pg';
import { logTableOf, unfinishedRows } from './delivery-log-store.js';
import type { Queryable } from '@webpush/shared/db.js';
import { dispatchForWire, upgradeDispatch, type DispatchMessage, type FailureClass } from '@webpush/contracts/messages.js';
import { segmentSql } from '../audience/index.js';
import type { AbWinner } from '@webpush/contracts/ab-test.js';
import type { RunState } from '../runs.js';

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
  /** An A/B test's winner, once chosen (ab-tests/winners.ts). */
  abWinner: AbWinner | null;
  /** True once an A/B test's window has started (its first push). */
  abWindowStarted: boolean;
}

const RUN_COLUMNS = `campaign_id, site_id, job, state, expanded_through::text, chunks_published, chunks_total, chunks_done,
  sent::int, failed::int, expired::int, ambiguous::int, impressions::int, clicks::int, reason, ab_winner,
  ab_window_ends_at IS NOT NULL AS ab_window_started`;

function toRun(r: Record<string, any>): RunRow {
  return {
    campaignId: r.campaign_id,
    siteId: r.site_id,
    // Runs dispatched before version 2 of the message stored version 1.
    job: upgradeDispatch(r.job),
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
    abWinner: r.ab_winner,
    abWindowStarted: r.ab_window_started,
  };
}

/**
 * How long after its last heartbeat an instance of the previous release still counts as live
 * when a run picks where its detail goes: longer than any INSTANCE_DEAD_AFTER_SEC in use.
 */
const PREVIOUS_RELEASE_LIVE_SEC = 600;

/**
 * The run of a dispatched campaign, created on first sight (a repeated dispatch finds it). Its
 * detail (delivery log, tracking) goes to the piece of this week (migrations/
 * 20261204190000_detail_pieces.sql) when that piece exists and no previous-release instance is
 * live (that release writes into the parent tables only); otherwise to the parents.
 */
export async function runFor(db: Queryable, job: DispatchMessage): Promise<RunRow> {
  const { rows } = await db.query(
    `WITH ins AS (
       INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, log_piece)
       SELECT $1::uuid, $2::uuid, $3::jsonb, CASE WHEN NOT EXISTS (
                SELECT 1 FROM delivery.instances i
                 WHERE NOT i.writes_pieces AND i.heartbeat_at > now() - make_interval(secs => ${PREVIOUS_RELEASE_LIVE_SEC}))
              THEN (SELECT p.piece FROM delivery.detail_pieces p WHERE p.piece = delivery.detail_week(now()) AND p.log_expired_at IS NULL) END
       ON CONFLICT (campaign_id) DO NOTHING RETURNING ${RUN_COLUMNS})
     SELECT * FROM ins
     UNION ALL
     SELECT ${RUN_COLUMNS} FROM delivery.campaign_runs WHERE campaign_id = $1 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [job.campaignId, job.siteId, JSON.stringify(dispatchForWire(job))],
  );
  if (rows[0]) return toRun(rows[0]);
  // Created at the same moment by another handling of the job (another instance): the insert
  // waited for it and did nothing, and this statement's snapshot predates it. A new one sees it.
  const run = await findRun(db, job.campaignId);
  if (!run) throw new Error(`the run of campaign ${job.campaignId} was neither created nor found`);
  return run;
}

// Statements run per chunk are prepared (named): parsed and planned once per connection.
const FIND_RUN = { name: 'runs:find', text: `SELECT ${RUN_COLUMNS} FROM delivery.campaign_runs WHERE campaign_id = $1` };

export async function findRun(db: Queryable, campaignId: string): Promise<RunRow | null> {
  const { rows } = await db.query({ ...FIND_RUN, values: [campaignId] });
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

/** A campaign's stored audience as the queries take it: topic names and `country__…` names apart. */
export function splitAudience(audience: string[]): { topics: string[]; countries: string[] } {
  return {
    topics: audience.filter((n) => !n.startsWith('country__')),
    countries: audience.filter((n) => n.startsWith('country__')),
  };
}

/** More conditions on `delivery.subscribers s` (a stage's: stage-store.ts stageSql), their parameters numbered from `firstParam`. */
export type Narrowing = (firstParam: number) => { sql: string; params: unknown[] };

/**
 * Next slice of the audience after `afterId`: active subscribers in any of the topics or
 * countries (and the segment, if any, and the stage's conditions, if any).
 */
export async function audienceSlice(
  db: Queryable,
  job: Pick<DispatchMessage, 'siteId' | 'audience' | 'segment'>,
  afterId: string,
  limit: number,
  stage?: Narrowing,
): Promise<string[]> {
  const { topics, countries } = splitAudience(job.audience);
  const narrowed = segmentSql(job.segment, 6, true);
  const staged = stage?.(6 + narrowed.params.length) ?? { sql: '', params: [] };
  const { rows } = await db.query(
    // Ordered by the bigint column, not the text output (which would sort "10" before "9").
    `SELECT s.id::text AS id FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND s.id > $2::bigint AND (s.country = ANY($3::text[]) OR s.topics && $4::text[])${narrowed.sql}${staged.sql}
      ORDER BY s.id LIMIT $5`,
    [job.siteId, afterId, countries, topics, limit, ...narrowed.params, ...staged.params],
  );
  return rows.map((r) => r.id as string);
}

/**
 * The revised campaign's run as a revision needs it: its state and whether its delivery log is
 * still kept (retention drops it: docs/architecture.md, "Retention"). null: no run.
 */
export async function revisedRun(db: Queryable, campaignId: string): Promise<{ state: RunState; logExpired: boolean } | null> {
  const { rows } = await db.query(`SELECT state, log_expired_at IS NOT NULL AS log_expired FROM delivery.campaign_runs WHERE campaign_id = $1`, [campaignId]);
  return rows[0] ? { state: rows[0].state, logExpired: rows[0].log_expired } : null;
}

/**
 * Next slice of a revision's audience after `afterId`: the subscribers the revised campaign was
 * sent to (its delivery-log rows `sent`), in id order like audienceSlice; those no longer active
 * are left out when claimed (claim).
 */
export async function recipientsSlice(db: Queryable, revisedCampaignId: string, afterId: string, limit: number): Promise<string[]> {
  const table = await logTableOf(db, revisedCampaignId);
  const { rows } = await db.query(
    `SELECT subscriber_id::text AS id FROM ${table}
      WHERE campaign_id = $1 AND subscriber_id > $2::bigint AND state = 'sent'
      ORDER BY subscriber_id LIMIT $3`,
    [revisedCampaignId, afterId, limit],
  );
  return rows.map((r) => r.id as string);
}

/**
 * Records a group of chunks published: numbered from `from`, the run's chunks_published as the
 * caller read it. False, and nothing recorded, when the run has moved on since (another handling
 * of the same job recorded its group of those numbers first, or finished the expansion): counted
 * twice, a run would wait for chunks that never exist.
 */
export async function recordExpansion(db: Queryable, campaignId: string, from: number, through: string, chunks: number, subscribers: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE delivery.campaign_runs
        SET expanded_through = $2::bigint, chunks_published = chunks_published + $3, audience_size = audience_size + $4
      WHERE campaign_id = $1 AND chunks_published = $5 AND state = 'expanding'`,
    [campaignId, through, chunks, subscribers, from],
  );
  return rowCount === 1;
}

/** A staged run is handed to the pacer (pacer.ts: its first stage due at `at`); a repeated dispatch changes nothing. */
export async function startPacing(db: Queryable, campaignId: string, at: Date): Promise<void> {
  await db.query(`UPDATE delivery.campaign_runs SET next_expand_at = coalesce(next_expand_at, $2) WHERE campaign_id = $1 AND state = 'expanding'`, [campaignId, at]);
}

/** A staged run due for its pacer pass (pacer.ts), locked for it. */
export interface DueRun {
  job: DispatchMessage;
  /** How long ago the run became due (≥ 0). */
  lateMs: number;
  chunksPublished: number;
  winner: AbWinner | null;
  windowEndsAt: Date | null;
}

/** Up to `limit` expanding runs due now, longest due first, each locked; runs another instance holds are skipped. */
export async function lockDueRuns(db: Queryable, limit: number): Promise<DueRun[]> {
  const { rows } = await db.query(
    `SELECT campaign_id, job, chunks_published, ab_winner, ab_window_ends_at, extract(epoch FROM now() - next_expand_at) * 1000 AS late_ms
       FROM delivery.campaign_runs
      WHERE state = 'expanding' AND next_expand_at <= now()
      ORDER BY next_expand_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows.map((r) => ({ job: upgradeDispatch(r.job), lateMs: Math.max(0, Number(r.late_ms)), chunksPublished: r.chunks_published, winner: r.ab_winner, windowEndsAt: r.ab_window_ends_at }));
}

/** The run is next due `aheadMs` from now (negative: already). */
export async function nextExpandIn(db: Queryable, campaignId: string, aheadMs: number): Promise<void> {
  await db.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() + $2 * interval '1 millisecond' WHERE campaign_id = $1`, [campaignId, aheadMs]);
}

/** The run leaves the pacer: every stage expanded. */
export async function stopPacing(db: Queryable, campaignId: string): Promise<void> {
  await db.query('UPDATE delivery.campaign_runs SET next_expand_at = NULL WHERE campaign_id = $1', [campaignId]);
}

/** Expansion done: the run is complete at once when every chunk is already done (or there were none). */
export async function finishExpansion(db: Queryable, campaignId: string): Promise<RunRow> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs
        SET chunks_total = chunks_published,
            ${finishWhen('chunks_done >= chunks_published', `'sending'`)}
      WHERE campaign_id = $1 AND state = 'expanding'
      RETURNING ${RUN_COLUMNS}`,
    [campaignId],
  );
  return rows[0] ? toRun(rows[0]) : ((await findRun(db, campaignId)) as RunRow);
}

/**
 * The SET clauses that finish a run once `done` holds (the rule in one place): `failed`, with the
 * reason "every push failed", when nothing was sent and something failed for a reason other
 * than expiry; `completed` otherwise. While not done the state becomes `otherwise`.
 */
function finishWhen(done: string, otherwise: string, r = ''): string {
  const everyPushFailed = `${r}sent = 0 AND ${r}failed > 0`;
  return `state = CASE WHEN ${done} THEN (CASE WHEN ${everyPushFailed} THEN 'failed' ELSE 'completed' END) ELSE ${otherwise} END,
            reason = CASE WHEN ${done} AND ${everyPushFailed} THEN 'every push failed' ELSE ${r}reason END,
            completed_at = CASE WHEN ${done} THEN now() ELSE ${r}completed_at END`;
}

const INSERT_CHUNK = {
  name: 'runs:insert-chunk',
  text: `INSERT INTO delivery.campaign_chunks (campaign_id, chunk_no) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING chunk_no`,
};
const COUNT_CHUNK = {
  name: 'runs:count-chunk',
  text: `UPDATE delivery.campaign_runs r
        SET chunks_done = r.chunks_done + 1,
            ${finishWhen(`r.state = 'sending' AND r.chunks_done + 1 >= r.chunks_total`, 'r.state', 'r.')}
      WHERE r.campaign_id = $1
      RETURNING ${RUN_COLUMNS}`,
};

/**
 * Marks a chunk done once; the last chunk of an expanded run completes it. null, and nothing
 * marked, while a row of the chunk has no final outcome: a run completes only when every row
 * claimed for it is final.
 */
export async function chunkDone(tx: PoolClient, campaignId: string, chunkNo: number, subscriberIds: string[]): Promise<RunRow | null> {
  if ((await unfinishedRows(tx, campaignId, subscriberIds)) > 0) return null;
  const ins = await tx.query({ ...INSERT_CHUNK, values: [campaignId, chunkNo] });
  if (ins.rowCount === 0) return (await findRun(tx, campaignId)) as RunRow;
  const { rows } = await tx.query({ ...COUNT_CHUNK, values: [campaignId] });
  return toRun(rows[0]);
}
