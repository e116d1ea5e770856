// The console API's audit log routes (docs/console.md, "Audit log"): a site's entries paged newest
// first, exported as CSV, and the retention setting — the site's owners only. The log is the
// delivery service's (delivery.v1.AuditLog); what goes into it is recorded by the routers
// themselves (routes/audit-trail.ts), for every route.
import type { AuditEntry__Output } from '@webpush/contracts/generated/delivery/v1/AuditEntry.js';
import type { AuditLogBackend } from '../grpc/clients.js';
import { exportAnswer } from '../routes/route.js';
import { HttpError, MESSAGES } from '../texts.js';
import type { ConsoleRoute } from './route.js';

/** An entry as the console answers it (and as the `audit.entry` webhook event's data carries it, audit-store.ts). */
export function auditEntryJson(e: AuditEntry__Output) {
  return {
    id: Number(e.id),
    at: e.at,
    actor: { kind: e.actor?.kind ?? '', id: e.actor?.id ?? '', prefix: e.actor?.prefix ?? '', label: e.actor?.label ?? '' },
    action: e.action,
    target: e.target,
    status: e.status,
    clientAddress: e.clientAddress,
    requestId: e.requestId,
  };
}

/** A query value that must be a whole number of at most `digits` digits: absent is 0, anything else refused with `message`. */
function wholeQuery(value: unknown, digits: number, message: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string' || !new RegExp(`^[0-9]{1,${digits}}$`).test(value)) throw new HttpError(400, message);
  return Number(value);
}

export function auditRoutes(site: string, backend: AuditLogBackend): ConsoleRoute[] {
  const route = (method: ConsoleRoute['method'], path: string, operation: string, body: ConsoleRoute['body'], handle: ConsoleRoute['handle'], audit?: ConsoleRoute['audit']): ConsoleRoute => ({
    method,
    path: `${site}/audit${path}`,
    operation,
    access: 'owner',
    body,
    errors: 'console',
    genericMessage: MESSAGES.internal,
    handle,
    ...(audit ? { audit } : {}),
  });
  return [
    route('GET', '', 'listAuditEntries', 'none', async (input) => {
      // 15 digits: every id a bigserial reaches in practice, and exact as a JSON number.
      const before = wholeQuery(input.query.before, 15, MESSAGES.auditBefore);
      const limit = wholeQuery(input.query.limit, 3, MESSAGES.auditLimit);
      if (input.query.limit !== undefined && limit === 0) throw new HttpError(400, MESSAGES.auditLimit);
      const page = await backend.list({ siteId: input.site!.siteId, before, limit }, input.ctx);
      return { items: page.entries.map(auditEntryJson), nextBefore: Number(page.nextBefore) === 0 ? null : Number(page.nextBefore) };
    }),
    // A file of the site's log: its download is itself recorded (an export).
    route(
      'GET',
      '/export',
      'exportAuditLog',
      'none',
      async (input) => exportAnswer(backend.export(input.site!.siteId, input.ctx), 'csv', 'audit-log'),
      'export',
    ),
    route('GET', '/settings', 'getAuditSettings', 'none', async (input) => ({ retentionDays: (await backend.settings(input.site!.siteId, input.ctx)).retentionDays })),
    route('PATCH', '/settings', 'updateAuditSettings', 'json', async (input) => ({
      retentionDays: (await backend.updateSettings({ siteId: input.site!.siteId, bodyJson: input.bodyJson }, input.ctx)).retentionDays,
    })),
  ];
}
