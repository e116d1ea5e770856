// The send job handed to the delivery service through the outbox (and Kafka after it). The row
// names the campaign; the relay reads the campaign itself when it publishes, so the payload holds
// only what is not in the campaign: the request id (the API call's; a fresh one for the
// scheduler, which writes its jobs in SQL: scheduler/scheduler-store.ts), which travels on as a Kafka
// header so the delivery service's logs for this campaign can be found from it.
import type { OutboxEntry } from './outbox-store.js';
import { currentRequestId, newRequestId } from '@webpush/shared/observability/request-context.js';

export function dispatchJob(campaignId: string): OutboxEntry {
  return { campaignId, kind: 'campaign.dispatch', payload: { requestId: currentRequestId() ?? newRequestId() } };
}

/**
 * A revision of a sent campaign (revisions/): the row names the campaign, the payload the
 * revision (campaign.campaign_revisions), which the relay reads with it.
 */
export function revisionJob(campaignId: string, revisionId: string): OutboxEntry {
  return { campaignId, kind: 'campaign.revision', payload: { requestId: currentRequestId() ?? newRequestId(), revisionId } };
}

/**
 * A notification to chosen subscriptions (notifications/): the row names the notification
 * (campaign.notifications), which the relay reads and publishes on the notifications' topic.
 */
export function notificationJob(notificationId: string): OutboxEntry {
  return { campaignId: notificationId, kind: 'notification.dispatch', payload: { requestId: currentRequestId() ?? newRequestId() } };
}
