// Client of the delivery service's Runs API (packages/contracts/protos/delivery/v1/runs.proto): control of a
// campaign while it is sent. The customer's pick of an A/B test's winner goes there; the delivery
// service's refusals (FAILED_PRECONDITION, the API's message in details) become the domain's.
import * as grpc from '@grpc/grpc-js';
import { loadRunsProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { currentRequestId, REQUEST_ID_KEY } from '@webpush/shared/observability/request-context.js';
import { RefusedError } from '../base/errors.js';
import type { WinnerPicker } from './pick-winner.js';

export function createRunsClient(target: string, deadlineMs: number, token: string): WinnerPicker & { close(): void } {
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
    close: () => client.close(),
  };
}
