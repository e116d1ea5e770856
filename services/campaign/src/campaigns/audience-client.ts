// Client of the delivery service's Audience API: the audience estimate stored as totalUsers
// (and, for a local-time campaign, the audience by zone its plan is made from).
import * as grpc from '@grpc/grpc-js';
import { loadAudienceProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { currentRequestId, REQUEST_ID_KEY } from '@webpush/shared/observability/request-context.js';
import type { AudienceCounter } from './create-campaign.js';
import { AudienceUnavailableError } from '../base/errors.js';

export function createAudienceClient(target: string, deadlineMs: number, token: string): AudienceCounter & { close(): void } {
  const { Audience } = loadAudienceProto().delivery.v1;
  const client = new Audience(target, grpc.credentials.createInsecure(), withInternalToken(token));
  return {
    count(siteId, topics, countries, segment, withZones = false) {
      // The caller's request id goes on to the delivery service's logs.
      const metadata = new grpc.Metadata();
      const requestId = currentRequestId();
      if (requestId) metadata.set(REQUEST_ID_KEY, requestId);
      return new Promise((resolve, reject) => {
        client.countAudience(
          { siteId, topics: [...topics], countries: [...countries], segmentJson: segment === null ? '' : JSON.stringify(segment), withZones },
          metadata,
          { deadline: Date.now() + deadlineMs },
          (err, res) =>
            err
              ? // A refusal of the request itself stays what it is; anything else is the count being unavailable.
                reject(err.code === grpc.status.INVALID_ARGUMENT ? err : new AudienceUnavailableError(err))
              : resolve({
                  users: Number(res?.users ?? 0),
                  zones: (res?.zones ?? []).map((z) => ({ zone: z.name, users: Number(z.users) })),
                  defaultTimeZone: res?.defaultTimeZone ?? '',
                  quietHours: res?.quietHours ? { from: res.quietHours.from, to: res.quietHours.to } : null,
                }),
        );
      });
    },
    close: () => client.close(),
  };
}
