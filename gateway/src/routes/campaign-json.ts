// Campaign, page and analytics objects built field by field in the spec's table order, so the
// JSON a customer sees never depends on what the backend message happens to carry.
import type { Campaign__Output } from '../../../protos/generated/campaign/v1/Campaign.js';
import type { ListCampaignsResponse__Output } from '../../../protos/generated/campaign/v1/ListCampaignsResponse.js';

export function campaignJson(c: Campaign__Output) {
  const a = c.analytics;
  return {
    id: c.id,
    title: c.title,
    body: c.body,
    link: c.link,
    topics: [...c.topics],
    status: c.status,
    scheduleDate: c.scheduleDate,
    scheduleMode: c.scheduleMode,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt || null,
    totalUsers: Number(c.totalUsers),
    image: c.image || null,
    icon: c.icon || null,
    callToAction: c.callToAction,
    utmSource: c.utmSource,
    utmMedium: c.utmMedium,
    utmCampaign: c.utmCampaign,
    ttl: c.ttl,
    ttlUnit: c.ttlUnit || 'seconds',
    analytics: {
      clicks: Number(a?.clicks ?? 0),
      impressions: Number(a?.impressions ?? 0),
      ctr: Number(a?.ctr ?? 0),
      its: Number(a?.its ?? 0),
      totalUsers: Number(a?.totalUsers ?? c.totalUsers),
    },
  };
}

export function pageJson(page: ListCampaignsResponse__Output) {
  return {
    items: page.items.map(campaignJson),
    limit: page.limit,
    hasMore: page.hasMore,
    nextCursor: page.nextCursor || null,
  };
}
