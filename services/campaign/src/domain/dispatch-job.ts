// The send job handed to the delivery service through the outbox (and Kafka after it).
import type { OutboxEntry } from '../db/outbox-repo.js';
import { currentRequestId, newRequestId } from '../../../shared/src/observability/request-context.js';

export const DISPATCH_KIND = 'campaign.dispatch';

export function dispatchJob(campaignId: string, siteId: string, dispatchedAt: Date): OutboxEntry {
  return {
    campaignId,
    kind: DISPATCH_KIND,
    // The request id (the API call's, or a fresh one for the scheduler) travels on as a Kafka
    // header, so the delivery service's logs for this campaign can be found from it.
    payload: { type: DISPATCH_KIND, version: 1, campaignId, siteId, dispatchedAt: dispatchedAt.toISOString(), requestId: currentRequestId() ?? newRequestId() },
  };
}
