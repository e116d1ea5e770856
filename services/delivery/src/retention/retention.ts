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
// - Audit log entries: those past their site's retention (its owners' setting), in bounded batches
//   (audit/audit-log.ts purgeAuditLog).
// - Opt-in funnel counters: days past optin/funnel.ts FUNNEL_RETENTION_DAYS, in bounded batches
//   (purgeOptInFunnel).
// - Campaign minutes, audience days and the runs' counters are the aggregates: kept.
//
// Every DDL step waits at most LOCK_TIMEOUT_MS for its lock, so no send, subscribe or report is
// held up longer than that; a step that times out is tried again on the next pass. Here are the
// rules and the passes; the statements are in retention-store.ts.
import type { Pool } from '@webpush/shared/db.js';
import { purgeAuditLog } from '../audit/index.js';
import { purgeOptInFunnel } from '../optin/index.js';
import { withTransaction } from '@webpush/shared/db.js';
import {
  capHistoryAfter,
  deleteCapHistorySlice,
  dropPiece,
  ensurePieces,
  legacyExpirableNow,
  legacyRows,
  limitLockWait,
  lockLegacy,
  markPieceRunsExpired,
  markPiecesExpired,
  piecesToDrop,
  truncateLegacy,
  tryLockRetention,
  unlockRetention,
  type Half,
} from './retention-store.js';

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
  /** Audit log entries past their site's retention, deleted this pass. */
  auditDeleted: number;
  /** Opt-in funnel counters past their retention, deleted this pass. */
  funnelDeleted: number;
  /** Steps that did not get their lock within LOCK_TIMEOUT_MS (tried again next pass). */
  lockTimeouts: number;
}

/** Marks up to PIECES_PER_PASS pieces (and their runs) whose `half` may expire. */
async function expirePieces(pool: Pool, half: Half, days: number): Promise<string[]> {
  return withTransaction(pool, async (tx) => {
    const pieces = await markPiecesExpired(tx, half, days, PIECES_PER_PASS);
    if (pieces.length > 0) await markPieceRunsExpired(tx, half, pieces);
    return pieces;
  });
}

function isLockTimeout(err: unknown): boolean {
  return (err as { code?: string })?.code === '55P03';
}

/** Drops the child tables of pieces expired more than the grace ago; a lock not had in time waits for the next pass. */
async function dropPieces(pool: Pool, half: Half, graceSeconds: number, report: RetentionReport): Promise<string[]> {
  const dropped: string[] = [];
  for (const piece of await piecesToDrop(pool, half, graceSeconds, PIECES_PER_PASS)) {
    try {
      await withTransaction(pool, async (tx) => {
        await limitLockWait(tx, LOCK_TIMEOUT_MS);
        await dropPiece(tx, half, piece);
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
async function truncateLegacyRows(pool: Pool, half: Half, days: number, report: RetentionReport): Promise<boolean> {
  const legacy = await legacyRows(pool, half, days);
  if (!legacy.hasRows || !legacy.expirable) return false;
  try {
    return await withTransaction(pool, async (tx) => {
      await limitLockWait(tx, LOCK_TIMEOUT_MS);
      await lockLegacy(tx, half);
      if (!(await legacyExpirableNow(tx, half, days))) return false;
      await truncateLegacy(tx, half);
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
    deleted += await deleteCapHistorySlice(pool, at, CAP_SLICE_IDS, days);
    at += BigInt(CAP_SLICE_IDS);
    if (!(await capHistoryAfter(pool, at))) return { deleted, next: 0n };
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
      if (!(await tryLockRetention(client))) return null;
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
          auditDeleted: 0,
          funnelDeleted: 0,
          lockTimeouts: 0,
        };
        report.logExpired = await expirePieces(pool, 'log', settings.deliveryLogDays);
        report.trackingExpired = await expirePieces(pool, 'tracking', settings.trackingDays);
        report.logDropped = await dropPieces(pool, 'log', settings.dropGraceSeconds, report);
        report.trackingDropped = await dropPieces(pool, 'tracking', settings.dropGraceSeconds, report);
        report.legacyLogTruncated = await truncateLegacyRows(pool, 'log', settings.deliveryLogDays, report);
        report.legacyTrackingTruncated = await truncateLegacyRows(pool, 'tracking', settings.trackingDays, report);
        const cap = await pruneCapHistory(pool, settings.capHistoryDays, capFrom);
        capFrom = cap.next;
        report.capHistoryDeleted = cap.deleted;
        report.auditDeleted = await purgeAuditLog(pool);
        report.funnelDeleted = await purgeOptInFunnel(pool);
        return report;
      } finally {
        await unlockRetention(client).catch(() => (discard = true));
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
