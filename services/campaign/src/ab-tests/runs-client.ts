// Client of the delivery service's Runs API (packages/contracts/protos/delivery/v1/runs.proto): control of a
// campaign while it is sent, and a notification's results (notifications/). The customer's pick of an A/B test's winner goes there; the delivery
// service's refusals (FAILED_PRECONDITION, the API's message in details) become the domain's.
import * as grpc from '@grpc/grpc-js';
import { loadRunsProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { currentRequestId, REQUEST_ID_KEY } from '@webpush/shared/observability/request-context.js';
import { RefusedError } from '../base/errors.js';
import type { WinnerPicker } from './pick-winner.js';
import type { NotificationOutcome, NotificationResultsReader } from '../notifications/index.js';

export function createRunsClient(target: string, deadlineMs: number, token: string): WinnerPicker & NotificationResultsReader & { close(): void } {
  const { Runs } = loadRunsProto().delivery.v1;
  const client = new Runs(target, grpc.credentials.createInsecure(), withInternalToken(token));
  return {
    pickWinner(siteId, campaignId, variant) {
      const metadata = new grpc.Metadata();
      const requestId = currentRequestId();
      if (requestId) metadata.set(REQUEST_ID_KEY, requestId);
      return new Promise((resolve, reject) => {
        client.pickWinner({ siteId, campaignId, variant }, metadata, { deadline: Date.now() + deadlineMs }, (err, res) => {
          if (err) return reject(err.code === grpc.status.FAILED_PRECONDITION && err.details ? new RefusedError(err.details) : err);
          resolve({ variant: res!.variant, decidedAt: res!.decidedAt, by: res!.by === 'metric' ? 'metric' : 'customer' });
        });
      });
    },
    notificationResults(siteId, notificationId, after, limit) {
      const metadata = new grpc.Metadata();
      const requestId = currentRequestId();
      if (requestId) metadata.set(REQUEST_ID_KEY, requestId);
      return new Promise((resolve, reject) => {
        client.notificationResults({ siteId, notificationId, after, limit }, metadata, { deadline: Date.now() + deadlineMs }, (err, res) => {
          if (err) return reject(err);
          const r = res!;
          resolve({
            found: r.found,
            state: r.state,
            reason: r.reason,
            counts: { sent: r.sent, noSubscription: r.noSubscription, capped: r.capped, failed: r.failed, pending: r.pending },
            results: r.results.map((t) => ({ position: t.position, subscriptionId: t.subscriptionId, externalId: t.externalId, outcome: t.outcome as NotificationOutcome, reason: t.reason })),
            hasMore: r.hasMore,
          });
        });
      });
    },
    close: () => client.close(),
  };
}
