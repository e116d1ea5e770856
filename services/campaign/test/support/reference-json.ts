// The previous object-building path for a campaign, kept verbatim as the reference the SQL-built
// JSON (src/campaigns/campaign-rows.ts) is compared with: the columns it selected, the domain view
// (campaign-view.ts + analytics.ts), the proto message (grpc/encode.ts; the wire round trip is the
// identity for these values, and an unset optional read back as '') and the gateway's object
// (gateway/src/routes/campaign-json.ts), then Express's JSON.stringify. The `delivery` object
// (an addition of 2026-11-23) is appended after those fields, as its documentation says.
import type { Queryable } from '@webpush/shared/db.js';

export function referenceColumns(sortColumn: string): string {
  return `c.id, c.title, c.body, c.link, c.topics, c.status, c.schedule_mode,
    to_char(c.schedule_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS schedule_date,
    to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
    c.total_users, c.image, c.icon, c.call_to_action, c.utm_source, c.utm_medium, c.utm_campaign, c.ttl,
    COALESCE(s.impressions, 0) AS impressions, COALESCE(s.clicks, 0) AS clicks,
    COALESCE(s.sent, 0) AS sent, COALESCE(s.failed, 0) AS failed, COALESCE(s.expired, 0) AS expired,
    COALESCE(s.audience, 0) AS audience, COALESCE(s.capped, 0) AS capped, COALESCE(s.delivery_finished, false) AS delivery_finished,
    COALESCE(s.failed_rejected, 0) AS failed_rejected, COALESCE(s.failed_unauthorized, 0) AS failed_unauthorized,
    COALESCE(s.failed_unreachable, 0) AS failed_unreachable, COALESCE(s.failed_refused, 0) AS failed_refused,
    to_char(c.${sortColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;
}

interface ReferenceRow {
  id: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: string;
  schedule_mode: string;
  schedule_date: string;
  created_at: string;
  total_users: string;
  image: string | null;
  icon: string | null;
  call_to_action: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  ttl: number;
  impressions: string;
  clicks: string;
  sent: string;
  failed: string;
  expired: string;
  audience: string;
  capped: string;
  delivery_finished: boolean;
  failed_rejected: string;
  failed_unauthorized: string;
  failed_unreachable: string;
  failed_refused: string;
}

/**
 * The `delivery` object: pending is what a published campaign planned (totalUsers, or the audience
 * the run took if greater) and has no outcome yet, 0 once it is finished (issue 34).
 */
export function computeDelivery(
  row: Pick<ReferenceRow, 'status' | 'total_users' | 'sent' | 'failed' | 'expired' | 'audience' | 'capped' | 'delivery_finished' | 'failed_rejected' | 'failed_unauthorized' | 'failed_unreachable' | 'failed_refused'>,
) {
  const [sent, failed, expired] = [Number(row.sent), Number(row.failed), Number(row.expired)];
  const planned = Math.max(Number(row.total_users), Number(row.audience));
  return {
    sent,
    failed,
    expired,
    pending: row.status !== 'published' || row.delivery_finished ? 0 : Math.max(0, planned - sent - failed - expired - Number(row.capped)),
    failedBy: {
      rejected: Number(row.failed_rejected),
      unauthorized: Number(row.failed_unauthorized),
      unreachable: Number(row.failed_unreachable),
      refused: Number(row.failed_refused),
    },
  };
}

function percent(part: number, base: number): number {
  if (base <= 0) return 0;
  return Math.round((part * 10_000) / base) / 100;
}

export function computeAnalytics(counts: { clicks: number; impressions: number; totalUsers: number }) {
  return {
    clicks: counts.clicks,
    impressions: counts.impressions,
    ctr: percent(counts.clicks, counts.impressions),
    its: percent(counts.impressions, counts.totalUsers),
    totalUsers: counts.totalUsers,
  };
}

/** toCampaignView → encodeCampaign → (proto) → campaignJson. */
export function referenceCampaignObject(row: ReferenceRow) {
  const totalUsers = Number(row.total_users);
  const a = computeAnalytics({ clicks: Number(row.clicks), impressions: Number(row.impressions), totalUsers });
  // encodeCampaign left a null image/icon unset, and an unset optional string decoded as ''.
  const image = row.image !== null ? row.image : '';
  const icon = row.icon !== null ? row.icon : '';
  const updatedAt = '';
  const ttlUnit = 'seconds';
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    link: row.link,
    topics: [...row.topics],
    status: row.status,
    scheduleDate: row.schedule_date,
    scheduleMode: row.schedule_mode,
    createdAt: row.created_at,
    updatedAt: updatedAt || null,
    totalUsers: Number(totalUsers),
    image: image || null,
    icon: icon || null,
    callToAction: row.call_to_action,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    ttl: row.ttl,
    ttlUnit: ttlUnit || 'seconds',
    analytics: {
      clicks: Number(a.clicks ?? 0),
      impressions: Number(a.impressions ?? 0),
      ctr: Number(a.ctr ?? 0),
      its: Number(a.its ?? 0),
      totalUsers: Number(a.totalUsers ?? totalUsers),
    },
    delivery: computeDelivery(row),
  };
}

/** The reference JSON text of one campaign, read with the previous query. */
export async function referenceCampaignJson(db: Queryable, id: string): Promise<string> {
  const { rows } = await db.query<ReferenceRow>(
    `SELECT ${referenceColumns('created_at')}
       FROM campaign.campaigns c LEFT JOIN campaign.campaign_stats s ON s.campaign_id = c.id
      WHERE c.id = $1`,
    [id],
  );
  if (rows.length !== 1) throw new Error(`campaign ${id} not found`);
  return JSON.stringify(referenceCampaignObject(rows[0]));
}
