// A site's audit log (docs/console.md, "Audit log"): the rules of its use cases — what an entry
// may hold, a page of entries, the CSV export, the retention setting and the purge in bounded
// batches. The statements are in audit-store.ts.
import type { Pool } from '@webpush/shared/db.js';
import { CONSOLE_OWN } from '@webpush/shared/console-texts.js';
import { csvCell } from '@webpush/shared/csv.js';
import { echoValue } from '@webpush/shared/text.js';
import { NotFoundError, ValidationError, isUuid } from '../errors.js';
import * as store from './audit-store.js';
import type { AuditEntryInput, AuditRow } from './audit-store.js';

export type { AuditRow } from './audit-store.js';

export const AUDIT_MESSAGES = Object.freeze({
  actorKind: 'actor.kind must be user or key',
  status: 'status must be an HTTP status from 100 to 599',
  limit: CONSOLE_OWN.auditLimit,
  retentionDays: CONSOLE_OWN.auditRetention,
  invalidJson: 'Invalid JSON body',
});

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;
export const MIN_RETENTION_DAYS = 7;
export const MAX_RETENTION_DAYS = 3650;
/** Entries read and encoded per export chunk. */
export const EXPORT_PAGE = 1000;
/** Entries deleted per purge statement, and statements per retention pass. */
export const PURGE_BATCH = 1000;
export const PURGE_BATCHES_PER_PASS = 20;

/** The longest text each field keeps (the rest cut with "…"): bounded rows whatever the request was. */
const MAX_CHARS = { actor: 320, prefix: 40, label: 100, action: 64, target: 200, clientAddress: 64, requestId: 128 } as const;

/** The CSV columns, in order (the console API's entry fields, the actor's flattened). */
export const EXPORT_COLUMNS = ['id', 'at', 'actorKind', 'actor', 'actorPrefix', 'actorLabel', 'action', 'target', 'status', 'clientAddress', 'requestId'] as const;

/**
 * Texts the gateway took from a request (path ids, the client's address) are stored as a log may
 * show them: control characters and unpaired surrogates written `\uXXXX` (a NUL would make
 * Postgres refuse the row), cut to their field's length.
 */
const stored = (text: string, field: keyof typeof MAX_CHARS) => echoValue(text, MAX_CHARS[field]);

/** NOT_FOUND "Site not found" (grpc-answers.ts): a site this service does not know. */
const siteNotFound = () => new NotFoundError('Site not found');

export interface AppendInput {
  siteId: string;
  actor: { kind: string; id: string; prefix: string; label: string };
  action: string;
  target: string;
  status: number;
  clientAddress: string;
  requestId: string;
}

export function createAuditLog(deps: { pool: Pool; bulk: Pool }) {
  const { pool } = deps;

  function requireSite(siteId: string): void {
    if (!isUuid(siteId)) throw siteNotFound();
  }

  return {
    async append(input: AppendInput): Promise<number> {
      requireSite(input.siteId);
      const messages: string[] = [];
      if (input.actor.kind !== 'user' && input.actor.kind !== 'key') messages.push(AUDIT_MESSAGES.actorKind);
      if (!Number.isInteger(input.status) || input.status < 100 || input.status > 599) messages.push(AUDIT_MESSAGES.status);
      if (messages.length > 0) throw new ValidationError(messages);
      const entry: AuditEntryInput = {
        siteId: input.siteId,
        actorKind: input.actor.kind as 'user' | 'key',
        actor: stored(input.actor.id, 'actor'),
        actorPrefix: stored(input.actor.prefix, 'prefix'),
        actorLabel: stored(input.actor.label, 'label'),
        action: stored(input.action, 'action'),
        target: stored(input.target, 'target'),
        status: input.status,
        clientAddress: stored(input.clientAddress, 'clientAddress'),
        requestId: stored(input.requestId, 'requestId'),
      };
      const id = await store.appendEntry(pool, entry);
      if (id === null) throw siteNotFound();
      return id;
    },

    /** A page, newest first; `next` is the `before` of the page after it, null when this one was the last. */
    async list(siteId: string, before: number, limit: number): Promise<{ entries: AuditRow[]; next: number | null }> {
      requireSite(siteId);
      const size = limit === 0 ? DEFAULT_PAGE : limit;
      if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) throw new ValidationError([AUDIT_MESSAGES.limit]);
      // One more than asked tells whether a next page exists without a second query.
      const rows = await store.entriesBefore(pool, siteId, before > 0 ? before : null, size + 1);
      const entries = rows.slice(0, size);
      return { entries, next: rows.length > size ? entries[entries.length - 1].id : null };
    },

    /** The CSV text in chunks of EXPORT_PAGE entries (keyset on id), read from the bulk pool. */
    async *exportCsv(siteId: string): AsyncGenerator<Buffer> {
      requireSite(siteId);
      yield Buffer.from(EXPORT_COLUMNS.join(',') + '\r\n');
      let before: number | null = null;
      for (;;) {
        const rows = await store.entriesBefore(deps.bulk, siteId, before, EXPORT_PAGE);
        if (rows.length === 0) return;
        yield Buffer.from(rows.map(csvLine).join(''));
        if (rows.length < EXPORT_PAGE) return;
        before = rows[rows.length - 1].id;
      }
    },

    async retention(siteId: string): Promise<number> {
      requireSite(siteId);
      const days = await store.retentionDays(pool, siteId);
      if (days === null) throw siteNotFound();
      return days;
    },

    async setRetention(siteId: string, bodyJson: string): Promise<number> {
      requireSite(siteId);
      const days = jsonObject(bodyJson).retentionDays;
      if (typeof days !== 'number' || !Number.isInteger(days) || days < MIN_RETENTION_DAYS || days > MAX_RETENTION_DAYS) {
        throw new ValidationError([AUDIT_MESSAGES.retentionDays]);
      }
      if (!(await store.setRetentionDays(pool, siteId, days))) throw siteNotFound();
      return days;
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/** The body (valid JSON text: the gateway parsed it) as an object; anything else refused as the gateway's JSON check would. */
function jsonObject(bodyJson: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bodyJson);
  } catch {
    throw new ValidationError([AUDIT_MESSAGES.invalidJson]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError([AUDIT_MESSAGES.invalidJson]);
  return value as Record<string, unknown>;
}

function csvLine(r: AuditRow): string {
  const cells = [String(r.id), r.at.toISOString(), r.actorKind, r.actor, r.actorPrefix, r.actorLabel, r.action, r.target, String(r.status), r.clientAddress, r.requestId];
  return cells.map(csvCell).join(',') + '\r\n';
}

/** Entries past their site's retention, PURGE_BATCH at a time, at most PURGE_BATCHES_PER_PASS statements: how many went. */
export async function purgeAuditLog(pool: Pool): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < PURGE_BATCHES_PER_PASS; i++) {
    const n = await store.purgeExpired(pool, PURGE_BATCH);
    deleted += n;
    if (n < PURGE_BATCH) break;
  }
  return deleted;
}
