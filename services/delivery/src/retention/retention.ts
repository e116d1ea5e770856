// Retention (docs/architecture.md, "Retention"; docs/operations.md, "Retention"): the detail of
// finished runs leaves in whole pieces, the aggregates customers see stay.
//
// - Delivery log and tracking reports: weekly pieces (migrations/20261204190000_detail_pieces.sql).
//   A piece's half expires once every run in it is final, published (so its counters, results by
//   browser and A/B results are stored and sent) and finished more than the half's retention ago.
//   Expiring marks the piece and its runs (no more tracking reports are counted for them); a grace
//   period later the child table is dropped. The parents' own rows (runs from before pieces, or
//   written while a previous-release instance was live) leave with TRUNCATE ONLY once every such
//   run has expired the same way.
// - Frequency-cap history: rows older than its retention (never shorter than the longest cap
//   window), deleted in bounded slices of the subscriber key.
// - Webhook deliveries: the webhook loop's own purge (webhooks/delivery-loop.ts keepMs).
// - Campaign minutes, audience days and the runs' counters are the aggregates: kept.
//
// Every DDL step waits at most LOCK_TIMEOUT_MS for its lock, so no send, subscribe or report is
// held up longer than that; a step that times out is tried again on the next pass.
import type { Pool, Queryable } from '@webpush/shared/db.js';
import { withTransaction } from '@webpush/shared/db.js';
import { pieceTable } from '../runs.js';

export interface RetentionSettings {
  deliveryLogDays: number;
  trackingDays: number;
  capHistoryDays: number;
  /** From marking a piece expired to dropping it: statements that looked up its runs' pieces before the mark have ended. */
  dropGraceSeconds: number;
}

/** The longest frequency-cap window a site may set (sites.cap_hours), in days: cap history never keeps less. */
export const LONGEST_CAP_WINDOW_DAYS = 30;

/** How long a lock may be waited for by one retention step (docs/operations.md, "Retention"). */
const LOCK_TIMEOUT_MS = 50;
/** Pieces expired and dropped per pass, per half. */
const PIECES_PER_PASS = 4;
/** Subscriber ids scanned per cap-history slice, and slices per pass. */
const CAP_SLICE_IDS = 50_000;
const CAP_SLICES_PER_PASS = 20;

export interface RetentionReport {
  piecesCreated: string[];
  logExpired: string[];
  logDropped: string[];
  trackingExpired: string[];
  trackingDropped: string[];
  /** Whether the parents' own rows were truncated this pass (delivery log, tracking). */
  legacyLogTruncated: boolean;
  legacyTrackingTruncated: boolean;
  capHistoryDeleted: number;
  /** Steps that did not get their lock within LOCK_TIMEOUT_MS (tried again next pass). */
  lockTimeouts: number;
}

type Half = 'log' | 'tracking';
const TABLE_PREFIX = { log: 'delivery_log', tracking: 'tracking' } as const;

/** Creates this week's and next week's pieces if missing (runs are given this week's). */
export async function ensurePieces(db: Queryable): Promise<string[]> {
  const { rows } = await db.query(
    `WITH weeks AS (SELECT delivery.detail_week(now() + w * interval '7 days') AS piece FROM generate_series(0, 1) AS w),
     missing AS (SELECT piece FROM weeks WHERE NOT EXISTS (SELECT 1 FROM delivery.detail_pieces p WHERE p.piece = weeks.piece))
     SELECT to_char(piece, 'YYYY-MM-DD') AS piece, delivery.ensure_detail_piece(piece) FROM missing`,
  );
  return rows.map((r) => r.piece as string);
}

/** A run whose `half` may not expire yet: not final, not published, or finished within the retention. */
function stillNeeded(half: Half): string {
  return `(r.state NOT IN ('completed', 'failed') OR r.stats_version > r.stats_published OR r.completed_at IS NULL
           OR r.completed_at > now() - $1 * interval '1 day')
          AND r.${half}_expired_at IS NULL`;
}

/**
 * Whether the parent's own rows may all go: every run without a piece may expire, and no run
 * with a piece that may not has rows there (a previous-release instance, after a rollback, writes
 * any run's rows into the parent). The second is one primary-key probe per such run.
 */
function legacyExpirable(half: Half): string {
  const table = pieceTable(TABLE_PREFIX[half], null);
  return `NOT EXISTS (SELECT 1 FROM delivery.campaign_runs r WHERE r.log_piece IS NULL AND ${stillNeeded(half)})
      AND NOT EXISTS (SELECT 1 FROM delivery.campaign_runs r WHERE r.log_piece IS NOT NULL AND ${stillNeeded(half)}
                         AND EXISTS (SELECT 1 FROM ONLY ${table} l WHERE l.campaign_id = r.campaign_id))`;
}

/** Marks up to PIECES_PER_PASS pieces (and their runs) whose `half` may expire. */
async function expirePieces(pool: Pool, half: Half, days: number): Promise<string[]> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query(
      `UPDATE delivery.detail_pieces p SET ${half}_expired_at = now()
        WHERE p.piece IN (
          SELECT p2.piece FROM delivery.detail_pieces p2
           WHERE p2.${half}_expired_at IS NULL AND p2.piece + 7 <= delivery.detail_week(now() - $1 * interval '1 day')
             AND NOT EXISTS (SELECT 1 FROM delivery.campaign_runs r WHERE r.log_piece = p2.piece AND ${stillNeeded(half)})
           ORDER BY p2.piece LIMIT $2)
        RETURNING to_char(p.piece, 'YYYY-MM-DD') AS piece`,
      [days, PIECES_PER_PASS],
    );
    if (rows.length > 0) {
      await tx.query(`UPDATE delivery.campaign_runs SET ${half}_expired_at = now() WHERE log_piece = ANY($1::date[]) AND ${half}_expired_at IS NULL`, [
        rows.map((r) => r.piece),
      ]);
    }
    return rows.map((r) => r.piece as string);
  });
}

function isLockTimeout(err: unknown): boolean {
  return (err as { code?: string })?.code === '55P03';
}

/** Drops the child tables of pieces expired more than the grace ago; a lock not had in time waits for the next pass. */
async function dropPieces(pool: Pool, half: Half, graceSeconds: number, report: RetentionReport): Promise<string[]> {
  const { rows } = await pool.query(
    `SELECT to_char(piece, 'YYYY-MM-DD') AS piece FROM delivery.detail_pieces
      WHERE ${half}_dropped_at IS NULL AND ${half}_expired_at <= now() - $1 * interval '1 second' ORDER BY piece LIMIT $2`,
    [graceSeconds, PIECES_PER_PASS],
  );
  const dropped: string[] = [];
  for (const { piece } of rows) {
    try {
      await withTransaction(pool, async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
        // Only the child is locked (ACCESS EXCLUSIVE): no statement of a running campaign names it.
        await tx.query(`DROP TABLE IF EXISTS ${pieceTable(TABLE_PREFIX[half], piece)}`);
        await tx.query(`UPDATE delivery.detail_pieces SET ${half}_dropped_at = now() WHERE piece = $1`, [piece]);
      });
      dropped.push(piece);
    } catch (err) {
      if (!isLockTimeout(err)) throw err;
      report.lockTimeouts++;
    }
  }
  return dropped;
}

/**
 * The parents' own rows: when every run without a piece may expire, they are marked and the
 * parent is truncated (ONLY: its children are other pieces), in one transaction whose
 * ACCESS EXCLUSIVE lock on the parent is waited for at most LOCK_TIMEOUT_MS. Checked under that
 * lock, so a run without a piece created meanwhile keeps its rows.
 */
async function truncateLegacy(pool: Pool, half: Half, days: number, report: RetentionReport): Promise<boolean> {
  const table = pieceTable(TABLE_PREFIX[half], null);
  const { rows } = await pool.query(
    `SELECT EXISTS (SELECT 1 FROM ONLY ${table}) AS has_rows,
            ${legacyExpirable(half)} AS expirable`,
    [days],
  );
  if (!rows[0].has_rows || !rows[0].expirable) return false;
  try {
    return await withTransaction(pool, async (tx) => {
      await tx.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
      await tx.query(`LOCK TABLE ONLY ${table} IN ACCESS EXCLUSIVE MODE`);
      const { rows: again } = await tx.query(
        `SELECT ${legacyExpirable(half)} AS expirable`,
        [days],
      );
      if (!again[0].expirable) return false;
      await tx.query(`UPDATE delivery.campaign_runs SET ${half}_expired_at = now() WHERE log_piece IS NULL AND ${half}_expired_at IS NULL`);
      await tx.query(`TRUNCATE ONLY ${table}`);
      return true;
    });
  } catch (err) {
    if (!isLockTimeout(err)) throw err;
    report.lockTimeouts++;
    return false;
  }
}

/** Cap history older than its retention, a bounded number of subscriber-key slices per pass from `from`. */
async function pruneCapHistory(pool: Pool, days: number, from: bigint): Promise<{ deleted: number; next: bigint }> {
  let deleted = 0;
  let at = from;
  for (let i = 0; i < CAP_SLICES_PER_PASS; i++) {
    const { rowCount } = await pool.query(
      `DELETE FROM delivery.subscriber_pushes WHERE subscriber_id > $1 AND subscriber_id <= $1 + $2 AND at < now() - $3 * interval '1 day'`,
      [at.toString(), CAP_SLICE_IDS, days],
    );
    deleted += rowCount ?? 0;
    at += BigInt(CAP_SLICE_IDS);
    const { rows } = await pool.query('SELECT EXISTS (SELECT 1 FROM delivery.subscriber_pushes WHERE subscriber_id > $1) AS more', [at.toString()]);
    if (!rows[0].more) return { deleted, next: 0n };
  }
  return { deleted, next: at };
}

/** Refuses a cap-history retention shorter than the longest cap window (the cap would forget pushes it counts). */
export function checkRetention(settings: RetentionSettings): RetentionSettings {
  if (settings.capHistoryDays < LONGEST_CAP_WINDOW_DAYS) {
    throw new Error(`the frequency-cap history must be kept at least ${LONGEST_CAP_WINDOW_DAYS} days (the longest cap window), not ${settings.capHistoryDays}`);
  }
  return settings;
}

export function createRetention(pool: Pool, settings: RetentionSettings) {
  checkRetention(settings);
  let capFrom = 0n;
  /** One bounded pass of every kind; another instance's pass at the same time is skipped (advisory lock). */
  async function pass(): Promise<RetentionReport | null> {
    const client = await pool.connect();
    let discard = false;
    try {
      const { rows } = await client.query(`SELECT pg_try_advisory_lock(hashtext('delivery:retention')) AS locked`);
      if (!rows[0].locked) return null;
      try {
        const report: RetentionReport = {
          piecesCreated: await ensurePieces(pool),
          logExpired: [],
          logDropped: [],
          trackingExpired: [],
          trackingDropped: [],
          legacyLogTruncated: false,
          legacyTrackingTruncated: false,
          capHistoryDeleted: 0,
          lockTimeouts: 0,
        };
        report.logExpired = await expirePieces(pool, 'log', settings.deliveryLogDays);
        report.trackingExpired = await expirePieces(pool, 'tracking', settings.trackingDays);
        report.logDropped = await dropPieces(pool, 'log', settings.dropGraceSeconds, report);
        report.trackingDropped = await dropPieces(pool, 'tracking', settings.dropGraceSeconds, report);
        report.legacyLogTruncated = await truncateLegacy(pool, 'log', settings.deliveryLogDays, report);
        report.legacyTrackingTruncated = await truncateLegacy(pool, 'tracking', settings.trackingDays, report);
        const cap = await pruneCapHistory(pool, settings.capHistoryDays, capFrom);
        capFrom = cap.next;
        report.capHistoryDeleted = cap.deleted;
        return report;
      } finally {
        await client.query(`SELECT pg_advisory_unlock(hashtext('delivery:retention'))`).catch(() => (discard = true));
      }
    } catch (err) {
      discard = true;
      throw err;
    } finally {
      client.release(discard);
    }
  }
  return { pass };
}

export interface TableSize {
  table: string;
  bytes: number;
  /** The planner's estimate (pg_class.reltuples): no table is counted row by row. */
  rows: number;
}

/** The delivery schema's tables by size (each with its indexes and TOAST), largest first, and the database's size. */
export async function tableSizes(db: Queryable): Promise<{ databaseBytes: number; tables: TableSize[] }> {
  const { rows } = await db.query(
    `SELECT c.relname AS table, pg_total_relation_size(c.oid)::bigint::text AS bytes, greatest(c.reltuples, 0)::bigint::text AS rows
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'delivery' AND c.relkind = 'r'
      ORDER BY pg_total_relation_size(c.oid) DESC, c.relname`,
  );
  const { rows: db1 } = await db.query('SELECT pg_database_size(current_database())::text AS bytes');
  return { databaseBytes: Number(db1[0].bytes), tables: rows.map((r) => ({ table: r.table, bytes: Number(r.bytes), rows: Number(r.rows) })) };
}
