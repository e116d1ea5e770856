// gRPC adapter for delivery.v1.Audience: decode → one domain call → encode (answers: grpc-answers.ts).
import * as grpc from '@grpc/grpc-js';
import type { AudienceHandlers } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import type { NameCount } from '@webpush/contracts/generated/delivery/v1/NameCount.js';
import { writeChunks } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import { answer, serviceError } from '../grpc-answers.js';
import { ValidationError } from '../errors.js';
import { segmentFromJson } from '@webpush/contracts/messages.js';
import type { Segment } from '@webpush/contracts/segment.js';
import type { Audience } from './audience.js';
import type { SiteImport } from './import.js';
import { parseExportQuery, type SubscriberExport } from './export.js';
import type { ExportChunk } from '@webpush/contracts/generated/delivery/v1/ExportChunk.js';
import type { ExportSubscribersRequest__Output } from '@webpush/contracts/generated/delivery/v1/ExportSubscribersRequest.js';

/** The request's segment, null for "" (none); a segment that is not one is refused. */
function segmentOf(json: string): Segment | null {
  if (json === '') return null;
  try {
    return segmentFromJson(json);
  } catch (err) {
    throw new ValidationError([`segment_json: ${(err as Error).message}`]);
  }
}

/** Streams the export (chunks pulled as the caller takes them; shared/grpc.ts writeChunks). */
async function streamExport(exportOf: SubscriberExport, call: grpc.ServerWritableStream<ExportSubscribersRequest__Output, ExportChunk>, log: Logger): Promise<void> {
  const { siteId, format, topics, countries } = call.request;
  const query = parseExportQuery({ format, topics, countries });
  if (!(await writeChunks(call as grpc.ServerWritableStream<unknown, { data: Buffer }>, exportOf(siteId, query)))) {
    log.info('subscribers export cancelled by the caller', { siteId });
  }
}

/** The service's calls but the people's (people/grpc-handlers.ts, added beside these by grpc-server.ts). */
export function createAudienceHandlers(
  audience: Audience,
  siteImport: SiteImport,
  exportOf: SubscriberExport,
  log: Logger,
): Pick<AudienceHandlers, 'CountAudience' | 'ListTopics' | 'ListCountries' | 'ImportSubscriptions' | 'ExportSubscribers'> {
  const entries = (list: { name: string; users: number }[]): { entries: NameCount[] } => ({ entries: list.map((e) => ({ name: e.name, users: e.users })) });
  return {
    CountAudience: (call, callback) =>
      answer(log, 'CountAudience', callback, async () => {
        const { siteId, topics, countries } = call.request;
        const segment = segmentOf(call.request.segmentJson);
        const users = await audience.countAudience(siteId, topics, countries, segment);
        if (!call.request.withZones) return { users };
        const { zones, defaultTimeZone, quietHours } = await audience.countByEffectiveZone(siteId, topics, countries, segment);
        return { users, zones: zones.map((z) => ({ name: z.name, users: z.users })), defaultTimeZone, quietHours };
      }),
    ListTopics: (call, callback) => answer(log, 'ListTopics', callback, async () => entries(await audience.listTopics(call.request.siteId))),
    ListCountries: (call, callback) =>
      answer(log, 'ListCountries', callback, async () => entries(await audience.listCountries(call.request.siteId))),
    ExportSubscribers: ((call: grpc.ServerWritableStream<ExportSubscribersRequest__Output, ExportChunk>, done?: (err: grpc.ServiceError | null) => void) => {
      streamExport(exportOf, call, log).then(
        () => done?.(null),
        (err: unknown) => {
          const error = serviceError(err, 'ExportSubscribers', log);
          call.emit('error', error);
          done?.(error);
        },
      );
    }) as AudienceHandlers['ExportSubscribers'],
    ImportSubscriptions: (call, callback) =>
      answer(log, 'ImportSubscriptions', callback, async () => {
        const report = await siteImport.importRequest(call.request.siteId, call.request.bodyJson);
        return {
          received: report.read,
          imported: report.imported,
          existing: report.existing,
          refused: report.refused,
          refusals: report.refusals.map((r) => ({ index: r.line - 1, reason: r.reason })),
          vapidPublicKey: report.vapidPublicKey,
        };
      }),
  };
}
