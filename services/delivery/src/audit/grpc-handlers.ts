// gRPC adapter for delivery.v1.AuditLog (packages/contracts/protos/delivery/v1/audit_log.proto):
// decode → one use case of audit-log.ts → encode (refusals: grpc-answers.ts).
import type * as grpc from '@grpc/grpc-js';
import type { AuditLogHandlers } from '@webpush/contracts/generated/delivery/v1/AuditLog.js';
import type { AuditEntry } from '@webpush/contracts/generated/delivery/v1/AuditEntry.js';
import type { AuditExportChunk } from '@webpush/contracts/generated/delivery/v1/AuditExportChunk.js';
import type { ExportAuditEntriesRequest__Output } from '@webpush/contracts/generated/delivery/v1/ExportAuditEntriesRequest.js';
import { writeChunks } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import { answer, serviceError } from '../grpc-answers.js';
import type { AuditLog, AuditRow } from './audit-log.js';

function entryMessage(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: { kind: r.actorKind, id: r.actor, prefix: r.actorPrefix, label: r.actorLabel },
    action: r.action,
    target: r.target,
    status: r.status,
    clientAddress: r.clientAddress,
    requestId: r.requestId,
  };
}

export function createAuditLogHandlers(audit: AuditLog, log: Logger): AuditLogHandlers {
  return {
    Append: ({ request: r }, cb) =>
      answer(log, 'Append', cb, async () => ({
        id: await audit.append({
          siteId: r.siteId,
          actor: { kind: r.actor?.kind ?? '', id: r.actor?.id ?? '', prefix: r.actor?.prefix ?? '', label: r.actor?.label ?? '' },
          action: r.action,
          target: r.target,
          status: r.status,
          clientAddress: r.clientAddress,
          requestId: r.requestId,
        }),
      })),
    ListAuditEntries: ({ request: r }, cb) =>
      answer(log, 'ListAuditEntries', cb, async () => {
        const page = await audit.list(r.siteId, Number(r.before), r.limit);
        return { entries: page.entries.map(entryMessage), nextBefore: page.next ?? 0 };
      }),
    // Server-streaming: `done` is the metrics wrapper's (shared/observability/metrics.ts).
    ExportAuditEntries: ((call: grpc.ServerWritableStream<ExportAuditEntriesRequest__Output, AuditExportChunk>, done?: (err: grpc.ServiceError | null) => void) => {
      writeChunks(call as grpc.ServerWritableStream<unknown, { data: Buffer }>, audit.exportCsv(call.request.siteId)).then(
        () => done?.(null),
        (err: unknown) => {
          const error = serviceError(err, 'ExportAuditEntries', log);
          call.emit('error', error);
          done?.(error);
        },
      );
    }) as AuditLogHandlers['ExportAuditEntries'],
    GetAuditSettings: ({ request: r }, cb) => answer(log, 'GetAuditSettings', cb, async () => ({ retentionDays: await audit.retention(r.siteId) })),
    UpdateAuditSettings: ({ request: r }, cb) => answer(log, 'UpdateAuditSettings', cb, async () => ({ retentionDays: await audit.setRetention(r.siteId, r.bodyJson) })),
  };
}
