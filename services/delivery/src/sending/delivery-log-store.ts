// The delivery log: one row per (campaign, subscriber) pushed, claimed under a lease, marked
// 'sending' right before its first request, then final with its outcome (chunk-worker.ts says
// how the states make a push exactly-once-or-counted-ambiguous).
import { bigintArray, withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { FailureClass } from '@webpush/contracts/messages.js';
import { pieceTable } from '../runs.js';
import type { FrequencyCap } from '../sites/index.js';

/**
 * The table holding a run's delivery log: its piece's child of delivery.delivery_log, or the
 * parent itself for a run without a piece (migrations/20261204190000_detail_pieces.sql). A run's
 * piece never changes, so it is looked up once per run and process; the map is cleared when it
 * grows past LOG_TABLES_CACHED runs (a lookup is one primary-key read).
 */
const logTables = new Map<string, string>();
const LOG_TABLES_CACHED = 10_000;

export async function logTableOf(db: Queryable, campaignId: string): Promise<string> {
  const known = logTables.get(campaignId);
  if (known) return known;
  const { rows } = await db.query({
    name: 'delivery-log:piece',
    text: `SELECT to_char(log_piece, 'YYYY-MM-DD') AS piece FROM delivery.campaign_runs WHERE campaign_id = $1`,
    values: [campaignId],
  });
  const table = pieceTable('delivery_log', rows[0]?.piece ?? null);
  // A run not found yet is not cached: it gets its piece when created.
  if (rows[0]) {
    if (logTables.size >= LOG_TABLES_CACHED) logTables.clear();
    logTables.set(campaignId, table);
  }
  return table;
}

/** One prepared statement per (kind, table): the same text on each run's own table. */
function perTable(name: string, text: (table: string) => string): (table: string) => { name: string; text: string } {
  const made = new Map<string, { name: string; text: string }>();
  return (table) => {
    let statement = made.get(table);
    if (!statement) made.set(table, (statement = { name: `${name}:${table}`, text: text(table) }));
    return statement;
  };
}

/** Who claims: the instance, the lease of this attempt, and every lease the instance has live. */
export interface Claimant {
  instanceId: string;
  lease: string;
  liveLeases: readonly string[];
}

// Every statement names its rows by (campaign_id, subscriber_id = ANY(the batch)), also where a
// join already says which: a campaign's rows are new, so its statistics say it has few, and a
// join on the campaign alone is then planned as a scan of all its rows so far for every batch —
// quadratic in the campaign (about 40 µs of Postgres CPU per push in a 30,000-push campaign).
// Postgres 16 and older plan even `campaign_id = $1 AND subscriber_id = ANY($2)` that way once
// the log has been analysed (the new campaign is in none of its statistics, so it looks like one
// row): the primary key is searched by campaign alone and the ids are a filter. Hence inBatch.

/**
 * `column = ANY(ids)`, also bounded by the batch's lowest and highest id: a range on the key's
 * second column is an index condition in every Postgres version, so a batch reads its own stretch
 * of the campaign's rows whatever the planner thinks of the campaign. Without the bounds, Postgres
 * 16 read 5,302 log entries for one batch's 'sending' marks 5,000 rows into a campaign, and 10,728
 * for its outcomes (services/delivery/test/sending/log-batch-reads.test.ts); Postgres 15 spent 65
 * and 121 µs per row on them over a 150,000-row campaign, against 4 and 5 with them
 * (docs/history/performance-log.md). A batch's ids are a slice of a chunk, and chunks are slices
 * of the audience in id order, so the stretch holds little besides the batch. An empty batch has
 * no bounds (NULL) and reads nothing.
 */
function inBatch(column: string, ids: string): string {
  const bound = (f: 'min' | 'max') => `(SELECT ${f}(b) FROM unnest(${ids}::bigint[]) AS b)`;
  return `${column} = ANY(${ids}::bigint[]) AND ${column} BETWEEN ${bound('min')} AND ${bound('max')}`;
}

/**
 * The claim statement: fresh rows inserted, stale rows taken over and the run's ambiguous
 * counter added to, at once (the inserted rows are not visible to the takeover: one snapshot).
 * The insert leaves out the ids that already have a row, so it needs no ON CONFLICT — whose
 * speculative insertion (a unique check, a lock and a confirmation per row) was a third of the
 * claim's cost — except when a concurrent claim of the same rows commits first: then the
 * insert fails on the primary key and the claim is made again with `onConflict`.
 */
function claimSql(onConflict: boolean, table: string): string {
  return `WITH fresh AS (
       INSERT INTO ${table} (campaign_id, subscriber_id, state, claimed_by, lease)
       SELECT $1, s.id, 'claimed', $3, $4
         FROM delivery.subscribers s
        WHERE s.id = ANY($2::bigint[]) AND s.active
          AND s.id <> ALL (ARRAY(SELECT subscriber_id FROM ${table} WHERE campaign_id = $1 AND ${inBatch('subscriber_id', '$2')}))
       ORDER BY s.id${onConflict ? '\n       ON CONFLICT (campaign_id, subscriber_id) DO NOTHING' : ''}
       RETURNING subscriber_id),
     stale AS (
       SELECT l.subscriber_id, l.state FROM ${table} l
        WHERE l.campaign_id = $1 AND ${inBatch('l.subscriber_id', '$2')} AND l.state IN ('claimed', 'sending')
          AND (l.lease IS NULL OR l.lease <> ALL($5::uuid[]))
          AND NOT EXISTS (
                SELECT 1 FROM delivery.claim_leases x JOIN delivery.instances i ON i.id = x.instance_id
                 WHERE x.id = l.lease AND x.instance_id <> $3 AND i.heartbeat_at > now() - make_interval(secs => $6))
          AND NOT (l.lease IS NULL AND l.claimed_by <> $3 AND EXISTS (
                SELECT 1 FROM delivery.instances i WHERE i.id = l.claimed_by AND i.heartbeat_at > now() - make_interval(secs => $6)))
        ORDER BY l.subscriber_id
        FOR UPDATE OF l SKIP LOCKED),
     resumed AS (
       UPDATE ${table} l
          SET state = 'claimed', claimed_by = $3, lease = $4, claimed_at = now(), attempts = l.attempts + 1,
              ambiguous = l.ambiguous + (stale.state = 'sending')::int
         FROM stale
        WHERE l.campaign_id = $1 AND ${inBatch('l.subscriber_id', '$2')} AND l.subscriber_id = stale.subscriber_id
        RETURNING l.subscriber_id, stale.state = 'sending' AS was_sending),
     counted AS (
       UPDATE delivery.campaign_runs SET ambiguous = ambiguous + (SELECT count(*) FROM resumed WHERE was_sending)
        WHERE campaign_id = $1 AND EXISTS (SELECT 1 FROM resumed WHERE was_sending))
   SELECT subscriber_id::text, false AS was_sending FROM fresh
   UNION ALL
   SELECT subscriber_id::text, was_sending FROM resumed`;
}
const CLAIM = perTable('delivery-log:claim', (table) => claimSql(false, table));
const CLAIM_ON_CONFLICT = perTable('delivery-log:claim-on-conflict', (table) => claimSql(true, table));

/**
 * Claims the rows of `subscriberIds` under the claimant's lease: never-claimed rows of active
 * subscribers, and rows not final whose lease is not live — another instance's that stopped
 * heartbeating or ended its attempt, or this instance's own from an attempt that failed (the
 * instance knows which of its leases are live). A row taken over while 'sending' may have been
 * delivered: it is counted ambiguous here, and goes back to 'claimed' until it is sent again.
 * Rows another transaction holds locked are skipped (they are in someone's hands right now).
 * One statement, atomic on its own: call it outside a transaction, so that a claim that loses a
 * race for fresh rows can be made again (see claimSql).
 */
export async function claim(db: Queryable, campaignId: string, subscriberIds: string[], who: Claimant, deadAfterSec: number): Promise<{ ids: string[]; ambiguous: number }> {
  const table = await logTableOf(db, campaignId);
  const values = [campaignId, bigintArray(subscriberIds), who.instanceId, who.lease, who.liveLeases, deadAfterSec];
  const { rows } = await db.query({ ...CLAIM(table), values }).catch((err: { code?: string }) => {
    if (err?.code !== '23505') throw err;
    return db.query({ ...CLAIM_ON_CONFLICT(table), values });
  });
  return { ids: rows.map((r) => r.subscriber_id as string), ambiguous: rows.filter((r) => r.was_sending).length };
}

export type { FrequencyCap };

/** Advisory-lock class of a subscriber under a frequency cap (the second key is the subscriber id). */
const CAP_LOCK_CLASS = 7_031_126;
/** The longest cap window: history older than this counts for no cap. */
const CAP_HISTORY_HOURS = 720;

/**
 * The claim for a campaign of a site with a frequency cap: one transaction that first locks the
 * batch's subscribers (advisory locks, in id order, so two campaigns claiming the same
 * subscribers at once take turns and cannot deadlock), then — unless the campaign opted out
 * (`enforce` false) — makes final 'capped' rows for the subscribers already claimed for `cap`
 * campaigns in the window (counted in the run), claims the others as `claim` does, and records
 * them in the subscriber's history (opted-out campaigns too: they reached the subscriber). Two
 * campaigns sending at once therefore never both pass one subscriber's last place under the cap.
 */
export async function claimCapped(
  pool: Pool,
  campaignId: string,
  subscriberIds: string[],
  who: Claimant,
  deadAfterSec: number,
  cap: FrequencyCap,
  enforce: boolean,
): Promise<{ ids: string[]; ambiguous: number; capped: number }> {
  const table = await logTableOf(pool, campaignId);
  return withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1, (u.id % 2147483647)::int) FROM unnest($2::bigint[]) AS u(id) ORDER BY u.id`, [CAP_LOCK_CLASS, bigintArray(subscriberIds)]);
    let capped = new Set<string>();
    let cappedCount = 0;
    if (enforce) {
      // Subscribers this campaign has no row for yet (a resumed row was judged when first claimed).
      const { rows } = await tx.query(
        `SELECT u.id::text AS id FROM unnest($1::bigint[]) AS u(id)
          WHERE NOT EXISTS (SELECT 1 FROM ${table} l WHERE l.campaign_id = $2 AND l.subscriber_id = u.id)
            AND (SELECT count(*) FROM delivery.subscriber_pushes p
                  WHERE p.subscriber_id = u.id AND p.campaign_id <> $2 AND p.at > now() - $3 * interval '1 hour') >= $4`,
        [bigintArray(subscriberIds), campaignId, cap.hours, cap.campaigns],
      );
      capped = new Set(rows.map((r) => r.id as string));
      if (capped.size > 0) {
        const { rows: counted } = await tx.query(
          `WITH ins AS (
             INSERT INTO ${table} (campaign_id, subscriber_id, state, claimed_by, lease, reason, finished_at)
             SELECT $1, s.id, 'capped', $3, $4, 'frequency cap', now() FROM delivery.subscribers s
              WHERE s.id = ANY($2::bigint[]) AND s.active
             ORDER BY s.id
             ON CONFLICT (campaign_id, subscriber_id) DO NOTHING
             RETURNING 1),
           n AS (SELECT count(*) AS n FROM ins),
           counted AS (UPDATE delivery.campaign_runs r SET capped = r.capped + n.n FROM n WHERE r.campaign_id = $1 AND n.n > 0)
           SELECT n::int FROM n`,
          [campaignId, bigintArray([...capped]), who.instanceId, who.lease],
        );
        cappedCount = counted[0].n;
      }
    }
    const rest = subscriberIds.filter((id) => !capped.has(id));
    if (rest.length === 0) return { ids: [], ambiguous: 0, capped: cappedCount };
    // ON CONFLICT: inside a transaction a lost race cannot be retried (see claimSql).
    const { rows } = await tx.query({ ...CLAIM_ON_CONFLICT(table), values: [campaignId, bigintArray(rest), who.instanceId, who.lease, who.liveLeases, deadAfterSec] });
    const ids = rows.map((r) => r.subscriber_id as string);
    if (ids.length > 0) {
      await tx.query(
        `INSERT INTO delivery.subscriber_pushes (subscriber_id, campaign_id) SELECT u.id, $2 FROM unnest($1::bigint[]) AS u(id) ORDER BY u.id ON CONFLICT DO NOTHING`,
        [bigintArray(ids), campaignId],
      );
      await tx.query(`DELETE FROM delivery.subscriber_pushes WHERE subscriber_id = ANY($1::bigint[]) AND at < now() - $2 * interval '1 hour'`, [bigintArray(ids), CAP_HISTORY_HOURS]);
    }
    return { ids, ambiguous: rows.filter((r) => r.was_sending).length, capped: cappedCount };
  });
}

/** The site's frequency cap, or null when it has none. */
export async function frequencyCapOf(db: Queryable, siteId: string): Promise<FrequencyCap | null> {
  const { rows } = await db.query({
    name: 'delivery-log:frequency-cap',
    text: 'SELECT cap_campaigns, cap_hours FROM delivery.sites WHERE site_id = $1 AND cap_campaigns IS NOT NULL',
    values: [siteId],
  });
  return rows[0] ? { campaigns: rows[0].cap_campaigns, hours: rows[0].cap_hours } : null;
}

const MARK_SENDING = perTable(
  'delivery-log:mark-sending',
  (table) => `UPDATE ${table} SET state = 'sending'
      WHERE campaign_id = $1 AND ${inBatch('subscriber_id', '$2')} AND lease = $3 AND state IN ('claimed', 'sending')
      RETURNING subscriber_id::text`,
);

/**
 * Marks claimed rows 'sending' right before their first request (group-committed by the
 * caller). Returns the rows marked: a row missing was taken over, and must not be sent.
 */
export async function markSending(db: Queryable, campaignId: string, lease: string, subscriberIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query({
    ...MARK_SENDING(await logTableOf(db, campaignId)),
    values: [campaignId, bigintArray(subscriberIds), lease],
  });
  return new Set(rows.map((r) => r.subscriber_id as string));
}

const UNFINISHED = perTable(
  'delivery-log:unfinished',
  (table) => `SELECT count(*)::int AS n FROM ${table}
      WHERE campaign_id = $1 AND ${inBatch('subscriber_id', '$2')} AND state IN ('claimed', 'sending')`,
);

/** Rows of these subscribers without a final outcome yet (after a pass: held by a live lease of someone else). */
export async function unfinishedRows(db: Queryable, campaignId: string, subscriberIds: string[]): Promise<number> {
  const { rows } = await db.query({
    ...UNFINISHED(await logTableOf(db, campaignId)),
    values: [campaignId, bigintArray(subscriberIds)],
  });
  return rows[0].n;
}

/**
 * Who holds the unfinished rows of a chunk, for the message of an attempt that gave up waiting:
 * another attempt of this same instance (the chunk redelivered while its first attempt still
 * runs) or other instances.
 */
export async function unfinishedHolders(db: Queryable, campaignId: string, subscriberIds: string[], instanceId: string): Promise<{ thisInstance: number; others: number }> {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE claimed_by = $3)::int AS mine, count(*) FILTER (WHERE claimed_by IS DISTINCT FROM $3)::int AS others
       FROM ${await logTableOf(db, campaignId)}
      WHERE campaign_id = $1 AND ${inBatch('subscriber_id', '$2')} AND state IN ('claimed', 'sending')`,
    [campaignId, bigintArray(subscriberIds), instanceId],
  );
  return { thisInstance: rows[0].mine, others: rows[0].others };
}

export interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** Its browser shows Declarative Web Push messages itself (said at subscribe time). */
  declarative: boolean;
}

export async function subscriptions(db: Queryable, ids: string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query({
    name: 'delivery-log:subscriptions',
    text: `SELECT s.id::text AS id, s.endpoint, s.p256dh, s.auth, s.declarative FROM delivery.subscribers s WHERE s.id = ANY($1::bigint[]) ORDER BY s.id`,
    values: [bigintArray(ids)],
  });
  return rows as SubscriptionRow[];
}

export interface Outcome {
  subscriberId: string;
  outcome: 'sent' | 'expired' | 'failed';
  status: number | null;
  reason: string | null;
  /** Why a failed push failed (packages/push/src/outcome.ts, failureClassOf); counted per class in the run. */
  failureClass?: FailureClass | null;
  /** Attempts that broke after their request went out: copies this push may have left beyond one (or, failed, the one). */
  ambiguous?: number;
}

/**
 * The outcome statement. A batch is nearly always one outcome repeated (sent, 201): those rows —
 * the batch's most common outcome — are updated by id with the outcome as constants ($3–$8);
 * the rest, each with its own ($9–$14), find theirs by position in the arrays. Neither half
 * joins the batch to the log: a join of two small inputs is planned as a nested loop that
 * rescans one of them per row of the other (quadratic in the batch: 84 µs per row at 250).
 * `deactivate`: with the update of expired subscriptions (see recordOutcomes).
 */
function outcomesSql(deactivate: boolean, table: string): string {
  const other = (column: string) => `(${column})[array_position($9::bigint[], l.subscriber_id)]`;
  return `WITH same AS (
       UPDATE ${table} l
          SET state = $4::text, status = $5::int, reason = $6::text, finished_at = now(), ambiguous = l.ambiguous + $8::int
        WHERE l.campaign_id = $1 AND ${inBatch('l.subscriber_id', '$3')} AND l.lease = $2 AND l.state IN ('claimed', 'sending')
       RETURNING l.subscriber_id, l.state, $7::text AS failure_class, $8::int AS ambiguous),
     others AS (
       UPDATE ${table} l
          SET state = ${other('$10::text[]')}, status = ${other('$11::int[]')}, reason = ${other('$12::text[]')}, finished_at = now(),
              ambiguous = l.ambiguous + ${other('$14::int[]')}
        WHERE l.campaign_id = $1 AND ${inBatch('l.subscriber_id', '$9')} AND l.lease = $2 AND l.state IN ('claimed', 'sending')
       RETURNING l.subscriber_id, l.state, ${other('$13::text[]')} AS failure_class, ${other('$14::int[]')} AS ambiguous),
     upd AS (SELECT * FROM same UNION ALL SELECT * FROM others),${
       deactivate
         ? `
     gone AS (
       UPDATE delivery.subscribers s SET active = false, deactivated_at = now(), updated_at = now()
         FROM upd WHERE s.id = upd.subscriber_id AND upd.state = 'expired' AND s.active),`
         : ''
     }
     c AS (
       SELECT count(*) AS recorded,
              count(*) FILTER (WHERE state = 'sent') AS sent,
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
      WHERE r.campaign_id = $1 AND c.recorded > 0`;
}
const RECORD_OUTCOMES = perTable('delivery-log:outcomes', (table) => outcomesSql(false, table));
const RECORD_OUTCOMES_EXPIRED = perTable('delivery-log:outcomes-expired', (table) => outcomesSql(true, table));

/** What is stored of an outcome, as the statement's values (the reason cut to 300 characters). */
function stored(o: Outcome): [string, number | null, string | null, string | null, number] {
  return [o.outcome, o.status, o.reason ? o.reason.slice(0, 300) : null, o.failureClass ?? null, o.ambiguous ?? 0];
}

/**
 * Records outcomes of rows this lease holds, deactivates expired subscriptions, and adds what
 * was recorded to the run's counters — one statement, so atomic without a transaction and one
 * round trip. Idempotent: a row already final, or taken over by another lease, is left alone
 * and not counted, so a write whose outcome was lost with its connection can simply be made again.
 * A batch without an expired push leaves delivery.subscribers out of the statement: an UPDATE of
 * it, even of no row, runs its statement triggers (the audience counters).
 */
export async function recordOutcomes(db: Queryable, campaignId: string, lease: string, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  // The most common outcome goes by constants, the others by position (see outcomesSql).
  const rows = outcomes.map((o) => ({ id: o.subscriberId, values: stored(o), key: '' }));
  const counts = new Map<string, number>();
  let common = rows[0];
  for (const r of rows) {
    r.key = JSON.stringify(r.values);
    const n = (counts.get(r.key) ?? 0) + 1;
    counts.set(r.key, n);
    if (n > counts.get(common.key)!) common = r;
  }
  const same = rows.filter((r) => r.key === common.key);
  const others = rows.filter((r) => r.key !== common.key);
  const table = await logTableOf(db, campaignId);
  await db.query({
    ...(outcomes.some((o) => o.outcome === 'expired') ? RECORD_OUTCOMES_EXPIRED : RECORD_OUTCOMES)(table),
    values: [
      campaignId,
      lease,
      bigintArray(same.map((r) => r.id)),
      ...common.values,
      bigintArray(others.map((r) => r.id)),
      ...common.values.map((_, i) => others.map((r) => r.values[i])),
    ],
  });
}
