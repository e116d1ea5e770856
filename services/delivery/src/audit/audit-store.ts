// The audit log's statements (audit-log.ts holds the rules): an entry appended with its
// `audit.entry` webhook event in one statement, the site's entries read newest first by id, its
// retention read and set, and the retention pass's purge of entries past their site's retention
// (the only DELETE the table's trigger lets through: migrations/20261206060000_audit_log.sql).
import type { Queryable } from '@webpush/shared/db.js';

export interface AuditEntryInput {
  siteId: string;
  actorKind: 'user' | 'key';
  actor: string;
  actorPrefix: string;
  actorLabel: string;
  action: string;
  target: string;
  status: number;
  clientAddress: string;
  requestId: string;
}

export interface AuditRow {
  id: number;
  at: Date;
  actorKind: string;
  actor: string;
  actorPrefix: string;
  actorLabel: string;
  action: string;
  target: string;
  status: number;
  clientAddress: string;
  requestId: string;
}

const COLUMNS = `id, at, actor_kind AS "actorKind", actor, actor_prefix AS "actorPrefix", actor_label AS "actorLabel",
                 action, target, status, client_address AS "clientAddress", request_id AS "requestId"`;

const asRow = (r: Record<string, unknown>): AuditRow => ({ ...(r as unknown as AuditRow), id: Number(r.id) });

/**
 * Appends the entry and, in the same statement, its `audit.entry` event for the site's endpoints
 * that want it (docs/webhooks.md): the entry and its event are stored together or not at all.
 * Null when the site is not one this service knows (the foreign key refused it).
 */
export async function appendEntry(db: Queryable, e: AuditEntryInput): Promise<number | null> {
  try {
    const { rows } = await db.query(
      `WITH entry AS (
         INSERT INTO delivery.audit_log (site_id, actor_kind, actor, actor_prefix, actor_label, action, target, status, client_address, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING *),
       -- Referenced below because a CTE nobody reads is never run. Built as json to keep the key order.
       hook AS (
         SELECT delivery.emit_webhook_event(site_id, 'audit.entry', json_build_object(
                  'id', id, 'at', delivery.webhook_time(at),
                  'actor', json_build_object('kind', actor_kind, 'id', actor, 'prefix', actor_prefix, 'label', actor_label),
                  'action', action, 'target', target, 'status', status, 'clientAddress', client_address, 'requestId', request_id)) AS n
           FROM entry)
       SELECT id, (SELECT n FROM hook) AS hooked FROM entry`,
      [e.siteId, e.actorKind, e.actor, e.actorPrefix, e.actorLabel, e.action, e.target, e.status, e.clientAddress, e.requestId],
    );
    return Number(rows[0].id);
  } catch (err) {
    if ((err as { code?: string }).code === '23503') return null; // foreign_key_violation: no such site
    throw err;
  }
}

/** Up to `limit` of the site's entries with an id below `before` (null: from the newest), newest first. */
export async function entriesBefore(db: Queryable, siteId: string, before: number | null, limit: number): Promise<AuditRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM delivery.audit_log
      WHERE site_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [siteId, before, limit],
  );
  return rows.map(asRow);
}

/** The site's retention in days; null for a site this service does not know. */
export async function retentionDays(db: Queryable, siteId: string): Promise<number | null> {
  const { rows } = await db.query('SELECT audit_retention_days AS days FROM delivery.sites WHERE site_id = $1', [siteId]);
  return rows[0] ? (rows[0].days as number) : null;
}

/** Sets the site's retention; false for a site this service does not know. */
export async function setRetentionDays(db: Queryable, siteId: string, days: number): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE delivery.sites SET audit_retention_days = $2 WHERE site_id = $1', [siteId, days]);
  return (rowCount ?? 0) > 0;
}

/**
 * Deletes up to `limit` entries past their site's retention, oldest of each site first. One
 * index range per site (the LATERAL), never a scan of the whole log; the table's trigger
 * checks the same rule again on every row deleted.
 */
export async function purgeExpired(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM delivery.audit_log WHERE id IN (
       SELECT a.id FROM delivery.sites s
        CROSS JOIN LATERAL (
          SELECT id FROM delivery.audit_log a
           WHERE a.site_id = s.site_id AND a.at < now() - s.audit_retention_days * interval '1 day'
           ORDER BY a.at LIMIT $1) a
        LIMIT $1)`,
    [limit],
  );
  return rowCount ?? 0;
}
