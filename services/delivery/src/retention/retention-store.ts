// Retention's statements (retention.ts holds the rules: when, how much per pass, what a lock
// timeout means): the weekly pieces created, expired and dropped, the parents' own rows
// truncated, cap history pruned, the pass's advisory lock, and the schema's table sizes.
import type { PoolClient } from 'pg';
import type { Queryable } from '@webpush/shared/db.js';
import { pieceTable } from '../runs.js';

/** A piece's two halves, expired and dropped apart: its delivery log and its tracking reports. */
export type Half = 'log' | 'tracking';
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

/** Marks up to `limit` pieces whose `half` may expire (every run in them may, `days` after finishing); answers them. */
export async function markPiecesExpired(db: Queryable, half: Half, days: number, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `UPDATE delivery.detail_pieces p SET ${half}_expired_at = now()
      WHERE p.piece IN (
        SELECT p2.piece FROM delivery.detail_pieces p2
         WHERE p2.${half}_expired_at IS NULL AND p2.piece + 7 <= delivery.detail_week(now() - $1 * interval '1 day')
           AND NOT EXISTS (SELECT 1 FROM delivery.campaign_runs r WHERE r.log_piece = p2.piece AND ${stillNeeded(half)})
         ORDER BY p2.piece LIMIT $2)
      RETURNING to_char(p.piece, 'YYYY-MM-DD') AS piece`,
    [days, limit],
  );
  return rows.map((r) => r.piece as string);
}

/** Marks the runs of `pieces` expired in `half`: no more tracking reports are counted for them. */
export async function markPieceRunsExpired(db: Queryable, half: Half, pieces: string[]): Promise<void> {
  await db.query(`UPDATE delivery.campaign_runs SET ${half}_expired_at = now() WHERE log_piece = ANY($1::date[]) AND ${half}_expired_at IS NULL`, [pieces]);
}

/** Up to `limit` pieces whose `half` expired more than `graceSeconds` ago and is not dropped yet. */
export async function piecesToDrop(db: Queryable, half: Half, graceSeconds: number, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT to_char(piece, 'YYYY-MM-DD') AS piece FROM delivery.detail_pieces
      WHERE ${half}_dropped_at IS NULL AND ${half}_expired_at <= now() - $1 * interval '1 second' ORDER BY piece LIMIT $2`,
    [graceSeconds, limit],
  );
  return rows.map((r) => r.piece as string);
}

/** For the rest of the transaction, a lock not had within `ms` fails the statement (55P03). */
export async function limitLockWait(tx: Queryable, ms: number): Promise<void> {
  await tx.query(`SET LOCAL lock_timeout = ${ms}`);
}

/** Drops the `half` child table of `piece` and marks it dropped. */
export async function dropPiece(tx: Queryable, half: Half, piece: string): Promise<void> {
  // Only the child is locked (ACCESS EXCLUSIVE): no statement of a running campaign names it.
  await tx.query(`DROP TABLE IF EXISTS ${pieceTable(TABLE_PREFIX[half], piece)}`);
  await tx.query(`UPDATE delivery.detail_pieces SET ${half}_dropped_at = now() WHERE piece = $1`, [piece]);
}

/** Whether the `half` parent has rows of its own, and whether they may all go (`days` after their runs finished). */
export async function legacyRows(db: Queryable, half: Half, days: number): Promise<{ hasRows: boolean; expirable: boolean }> {
  const table = pieceTable(TABLE_PREFIX[half], null);
  const { rows } = await db.query(
    `SELECT EXISTS (SELECT 1 FROM ONLY ${table}) AS has_rows,
            ${legacyExpirable(half)} AS expirable`,
    [days],
  );
  return { hasRows: rows[0].has_rows, expirable: rows[0].expirable };
}

/** Locks the `half` parent alone (ONLY: its children are other pieces) until the transaction ends. */
export async function lockLegacy(tx: Queryable, half: Half): Promise<void> {
  await tx.query(`LOCK TABLE ONLY ${pieceTable(TABLE_PREFIX[half], null)} IN ACCESS EXCLUSIVE MODE`);
}

/** Whether the `half` parent's own rows may all go: legacyRows' second answer, read again (under the lock). */
export async function legacyExpirableNow(tx: Queryable, half: Half, days: number): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT ${legacyExpirable(half)} AS expirable`,
    [days],
  );
  return rows[0].expirable;
}

/** Marks the runs without a piece expired in `half` and empties the parent's own rows. */
export async function truncateLegacy(tx: Queryable, half: Half): Promise<void> {
  await tx.query(`UPDATE delivery.campaign_runs SET ${half}_expired_at = now() WHERE log_piece IS NULL AND ${half}_expired_at IS NULL`);
  await tx.query(`TRUNCATE ONLY ${pieceTable(TABLE_PREFIX[half], null)}`);
}

/** Deletes cap history older than `days` of the subscribers in (`from`, `from` + `ids`]; answers the rows deleted. */
export async function deleteCapHistorySlice(db: Queryable, from: bigint, ids: number, days: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM delivery.subscriber_pushes WHERE subscriber_id > $1 AND subscriber_id <= $1 + $2 AND at < now() - $3 * interval '1 day'`,
    [from.toString(), ids, days],
  );
  return rowCount ?? 0;
}

/** Whether any subscriber after `at` has cap history. */
export async function capHistoryAfter(db: Queryable, at: bigint): Promise<boolean> {
  const { rows } = await db.query('SELECT EXISTS (SELECT 1 FROM delivery.subscriber_pushes WHERE subscriber_id > $1) AS more', [at.toString()]);
  return rows[0].more;
}

/** The pass's advisory lock, on `client`'s session: false when another instance's pass holds it. */
export async function tryLockRetention(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query(`SELECT pg_try_advisory_lock(hashtext('delivery:retention')) AS locked`);
  return rows[0].locked;
}

export async function unlockRetention(client: PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(hashtext('delivery:retention'))`);
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
