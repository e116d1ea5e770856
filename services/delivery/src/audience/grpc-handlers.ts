// gRPC adapter for delivery.v1.Audience: decode → one domain call → encode. Failures are
// logged here and answered as INTERNAL without detail.
import * as grpc from '@grpc/grpc-js';
import type { AudienceHandlers } from '../../../../protos/generated/delivery/v1/Audience.js';
import type { NameCount } from '../../../../protos/generated/delivery/v1/NameCount.js';
import type { Logger } from '../../../shared/src/log.js';
import type { Audience } from './audience.js';

type Callback<T> = (err: grpc.ServiceError | null, value?: T) => void;

function answer<T>(log: Logger, method: string, callback: Callback<T>, work: () => Promise<T>): void {
  work().then(
    (value) => callback(null, value),
    (err: unknown) => {
      log.error('audience call failed', { method, err });
      callback({ name: 'Error', message: 'Internal error', code: grpc.status.INTERNAL, details: 'Internal error', metadata: new grpc.Metadata() });
    },
  );
}

export function createAudienceHandlers(audience: Audience, log: Logger): AudienceHandlers {
  const entries = (list: { name: string; users: number }[]): { entries: NameCount[] } => ({ entries: list.map((e) => ({ name: e.name, users: e.users })) });
  return {
    CountAudience: (call, callback) =>
      answer(log, 'CountAudience', callback, async () => ({
        users: await audience.countAudience(call.request.siteId, call.request.topics, call.request.countries),
      })),
    ListTopics: (call, callback) => answer(log, 'ListTopics', callback, async () => entries(await audience.listTopics(call.request.siteId))),
    ListCountries: (call, callback) =>
      answer(log, 'ListCountries', callback, async () => entries(await audience.listCountries(call.request.siteId))),
  };
}
