// The /v2 feed answers' JSON, built from the campaign service's typed messages
// (packages/contracts/protos/campaign/v1/campaign.proto, Feed) in this one place: the API's Feed
// object (gateway/openapi/openapi.yaml, `Feed`) with its fields in the documented order — id,
// url, pollIntervalMinutes, paused, the campaign fields as saved, then what the poller did.
import type { DeleteFeedResponse__Output } from '@webpush/contracts/generated/campaign/v1/DeleteFeedResponse.js';
import type { Feed__Output } from '@webpush/contracts/generated/campaign/v1/Feed.js';
import type { ListFeedsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListFeedsResponse.js';

const orNull = (s: string) => (s === '' ? null : s);

export function feedJson(f: Feed__Output) {
  return {
    id: f.id,
    url: f.url,
    pollIntervalMinutes: f.pollIntervalMinutes,
    paused: f.paused,
    ...(JSON.parse(f.settingsJson) as Record<string, unknown>),
    title: orNull(f.title),
    lastFetchedAt: orNull(f.lastFetchedAt),
    lastSuccessAt: orNull(f.lastSuccessAt),
    lastError: orNull(f.lastError),
    consecutiveFailures: f.consecutiveFailures,
    nextPollAt: orNull(f.nextPollAt),
    campaignsCreated: f.campaignsCreated,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

export function feedListJson(res: ListFeedsResponse__Output) {
  // A backend that answers without the page facts (another version of the contract) is a 500, never a broken body.
  if (res.page === null) throw new Error('campaign service answered without page');
  return { items: res.items.map(feedJson), limit: res.page.limit, hasMore: res.page.hasMore, nextCursor: res.page.nextCursor || null };
}

export const deletedFeedJson = (res: DeleteFeedResponse__Output) => ({ id: res.id, deleted: true });
