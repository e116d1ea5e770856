// Domain views → proto messages. Null image/icon and updatedAt stay unset (null on the wire).
import type { Campaign } from '../../../../protos/generated/campaign/v1/Campaign.js';
import type { CampaignView } from '../domain/campaign-view.js';

export function encodeCampaign(c: CampaignView): Campaign {
  const message: Campaign = {
    id: c.id,
    title: c.title,
    body: c.body,
    link: c.link,
    topics: c.topics,
    status: c.status,
    scheduleDate: c.scheduleDate,
    scheduleMode: c.scheduleMode,
    createdAt: c.createdAt,
    totalUsers: c.totalUsers,
    callToAction: c.callToAction,
    utmSource: c.utmSource,
    utmMedium: c.utmMedium,
    utmCampaign: c.utmCampaign,
    ttl: c.ttl,
    ttlUnit: 'seconds',
    analytics: { ...c.analytics },
  };
  if (c.image !== null) message.image = c.image;
  if (c.icon !== null) message.icon = c.icon;
  return message;
}
