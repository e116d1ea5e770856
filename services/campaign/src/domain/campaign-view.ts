// A stored campaign as the API shows it.
import type { CampaignRow } from '../db/campaign-rows.js';
import { computeAnalytics, type Analytics } from './analytics.js';

export interface CampaignView {
  id: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: string;
  scheduleDate: string;
  scheduleMode: string;
  createdAt: string;
  totalUsers: number;
  image: string | null;
  icon: string | null;
  callToAction: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ttl: number;
  analytics: Analytics;
}

export function toCampaignView(row: CampaignRow): CampaignView {
  const totalUsers = Number(row.total_users);
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    link: row.link,
    topics: row.topics,
    status: row.status,
    scheduleDate: row.schedule_date,
    scheduleMode: row.schedule_mode,
    createdAt: row.created_at,
    totalUsers,
    image: row.image,
    icon: row.icon,
    callToAction: row.call_to_action,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    ttl: row.ttl,
    analytics: computeAnalytics({ clicks: Number(row.clicks), impressions: Number(row.impressions), totalUsers }),
  };
}
