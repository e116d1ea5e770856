// The audit log's recording at the edge (docs/console.md, "Audit log"): both routers (the /v2
// API, routes/api.ts; the console API, console/api.ts) append one entry for every call of a site
// that changes something or hands data out, once it is answered and before the answer is sent,
// so no route needs code of its own for it. The delivery service stores the entry (and its
// `audit.entry` webhook event). An append that fails never changes the call's answer: the action
// is done (or refused) by then, so the failure is logged and counted
// (`gateway_audit_append_failures_total`) and the answer goes out as it was.
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '@webpush/shared/log.js';
import type { AuditActor } from '@webpush/contracts/generated/delivery/v1/AuditActor.js';
import type { AuditLogBackend, CallContext } from '../grpc/clients.js';
import type { Method } from '../http/routing.js';
import { ReadStream } from './stream.js';

/**
 * What a route does, for the audit log: `change` (recorded: the default of POST, PATCH and
 * DELETE), `read` (not recorded: the default of GET, and a POST that only reads — a list, an
 * estimate), `export` (recorded: a read that hands the site's data out as a file), `data` (not
 * recorded: a call that feeds the site's users' activity in, at their volume — an event — and
 * whose effect its own feature keeps: an entry per event would make the log mostly events and
 * cost a third of the call).
 */
export type AuditKind = 'change' | 'read' | 'export' | 'data';

export function auditKindOf(method: Method, declared: AuditKind | undefined): AuditKind {
  return declared ?? (method === 'GET' ? 'read' : 'change');
}

/** Whether an answer of a route of this kind goes into the log: every answer of a change, and any answer that is a file. */
export function isRecorded(kind: AuditKind, answer: unknown): boolean {
  return kind === 'change' || kind === 'export' || answer instanceof ReadStream;
}

export interface AuditCall {
  siteId: string;
  actor: AuditActor;
  /** The route's operation name. */
  action: string;
  /** auditTarget of the call. */
  target: string;
  status: number;
  clientAddress: string;
}

export interface AuditTrail {
  /** Appends the call's entry. Never rejects: a failure is logged and counted. */
  record(call: AuditCall, ctx: CallContext): Promise<void>;
}

export function createAuditTrail(backend: Pick<AuditLogBackend, 'append'>, logger: Logger, registry?: Registry): AuditTrail {
  const failures = registry
    ? new Counter({
        name: 'gateway_audit_append_failures_total',
        help: 'Audit log entries the delivery service did not store (the call was answered as it would have been)',
        registers: [registry],
      })
    : undefined;
  return {
    async record(call, ctx) {
      try {
        await backend.append({ ...call, requestId: ctx.requestId }, ctx);
      } catch (err) {
        failures?.inc();
        logger.error('audit log entry not stored', { requestId: ctx.requestId, operation: call.action, status: call.status, err: err instanceof Error ? err : undefined });
      }
    },
  };
}

/**
 * What the call acted on: its path's ids but the site's, joined with "/"; for a call whose path
 * names none, the id its answer made (`{id}`, or `{key: {id}}`: a created campaign, webhook or
 * key); else "".
 */
export function auditTarget(params: Readonly<Record<string, string>>, answer: unknown): string {
  const ids = Object.entries(params)
    .filter(([name]) => name !== 'siteId')
    .map(([, value]) => value);
  if (ids.length > 0) return ids.join('/');
  if (typeof answer !== 'object' || answer === null) return '';
  const idOf = (o: unknown) => (typeof o === 'object' && o !== null && typeof (o as { id?: unknown }).id === 'string' ? (o as { id: string }).id : undefined);
  return idOf(answer) ?? Object.values(answer).map(idOf).find((id) => id !== undefined) ?? '';
}

/** The status an error is answered with (an HttpError's, a body reader's), 500 for anything else. */
export function statusOfError(err: unknown): number {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}
