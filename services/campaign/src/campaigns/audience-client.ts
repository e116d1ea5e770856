// Client of the delivery service's Audience API: the audience estimate stored as totalUsers
// (and, for a local-time campaign, the audience by zone its plan is made from), and a best-time
// campaign's planned distribution (plan-preview.ts).
import * as grpc from '@grpc/grpc-js';
import { loadAudienceProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { currentRequestId, REQUEST_ID_KEY } from '@webpush/shared/observability/request-context.js';
import type { AudienceCounter } from './create-campaign.js';
import type { BestTimePlanner } from './plan-preview.js';
import { AudienceUnavailableError } from '../base/errors.js';

export function createAudienceClient(target: string, deadlineMs: number, token: string): AudienceCounter & BestTimePlanner & { close(): void } {
  const { Audience } = loadAudienceProto().delivery.v1;
  const client = new Audience(target, grpc.credentials.createInsecure(), withInternalToken(token));
  // The caller's request id goes on to the delivery service's logs.
  const callMetadata = () => {
    const metadata = new grpc.Metadata();
    const requestId = currentRequestId();
    if (requestId) metadata.set(REQUEST_ID_KEY, requestId);
    return metadata;
  };
  return {
    count(siteId, topics, countries, segment, withZones = false) {
      const metadata = callMetadata();
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
    planBestTime(siteId, topics, countries, segment, bestTime, start) {
      return new Promise((resolve, reject) => {
        client.planBestTime(
          {
            siteId,
            topics: [...topics],
            countries: [...countries],
            segmentJson: segment === null ? '' : JSON.stringify(segment),
            withinHours: bestTime.withinHours,
            holdoutPercent: bestTime.holdoutPercent,
            start: start.toISOString(),
          },
          callMetadata(),
          { deadline: Date.now() + deadlineMs },
          (err, res) =>
            err || !res
              ? reject(err?.code === grpc.status.INVALID_ARGUMENT ? err : new AudienceUnavailableError(err ?? new Error('no answer')))
              : resolve({
                  users: Number(res.users),
                  holdoutUsers: Number(res.holdoutUsers),
                  slots: res.slots.map((s) => ({ sendAt: s.sendAt, hour: s.hour, users: Number(s.users) })),
                  sampled: res.sampled,
                  sampleSize: Number(res.sampleSize),
                }),
        );
      });
    },
    close: () => client.close(),
  };
}
