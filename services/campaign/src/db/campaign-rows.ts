// The columns every campaign read selects, and the row they come back as.
export const SORT_COLUMN = { createdAt: 'created_at', scheduleDate: 'schedule_date' } as const;

/** Columns of `campaign.campaigns c` joined with `campaign.campaign_stats s`. */
export function campaignColumns(sortColumn: string): string {
  // Dates leave Postgres already in the API's form: parsing and formatting 60 JS Dates per page
  // was the list path's largest cost in the benchmark profile.
  return `c.id, c.title, c.body, c.link, c.topics, c.status, c.schedule_mode,
    to_char(c.schedule_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS schedule_date,
    to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
    c.total_users, c.image, c.icon, c.call_to_action, c.utm_source, c.utm_medium, c.utm_campaign, c.ttl,
    COALESCE(s.impressions, 0) AS impressions, COALESCE(s.clicks, 0) AS clicks,
    to_char(c.${sortColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;
}

export interface CampaignRow {
  id: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: string;
  schedule_mode: string;
  /** `YYYY-MM-DDTHH:MM:SSZ` */
  schedule_date: string;
  /** `YYYY-MM-DDTHH:MM:SSZ` */
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
  /** The sort date at full (microsecond) precision, for cursors. */
  sort_key: string;
}
