// A campaign's impressions and clicks over time, for the console's chart: read from its minute
// rows (delivery.campaign_minutes, added to by recordTracking in the statement that stores the
// reports), never from delivery.tracking. Per minute during the campaign's first 48 hours, per
// hour after, rolled up here from the campaign's own minute rows (its primary-key range: at most
// one row per minute it was reported in, so a few thousand at most for a campaign followed for
// days) — cheaper than a second, hourly table that every tracking batch would also write.
import type { Queryable } from '@webpush/shared/db.js';

/** For how long after its dispatch a campaign's series is answered per minute. */
export const MINUTE_SERIES_HOURS = 48;

export interface SeriesPoint {
  /** The minute's (hour's) first instant, `YYYY-MM-DDTHH:MM:SSZ`. */
  at: string;
  impressions: number;
  clicks: number;
}

export interface CampaignSeries {
  resolution: 'minute' | 'hour';
  /** Only buckets with at least one report, oldest first. */
  points: SeriesPoint[];
  /** When the run was created (the campaign dispatched); null when there is no run. */
  startedAt: string | null;
}

/** An instant as the API writes it: to the second, in UTC. */
export function apiTime(d: Date): string {
  return d.toISOString().slice(0, 19) + 'Z';
}

/**
 * The series of a campaign of the site: 'other-site' when its run belongs to another site; no
 * points (and no startedAt) when the delivery service has no run for it.
 */
export async function campaignSeries(db: Queryable, siteId: string, campaignId: string): Promise<CampaignSeries | 'other-site'> {
  const run = await db.query(
    `SELECT site_id, created_at, now() - created_at < $2 * interval '1 hour' AS by_minute FROM delivery.campaign_runs WHERE campaign_id = $1`,
    [campaignId, MINUTE_SERIES_HOURS],
  );
  if (run.rows.length === 0) return { resolution: 'minute', points: [], startedAt: null };
  const { site_id: owner, created_at: createdAt, by_minute: byMinute } = run.rows[0] as { site_id: string; created_at: Date; by_minute: boolean };
  if (owner !== siteId) return 'other-site';
  const { rows } = await db.query(
    byMinute
      ? `SELECT minute AS at, impressions::text, clicks::text FROM delivery.campaign_minutes WHERE campaign_id = $1 ORDER BY minute`
      : `SELECT date_trunc('hour', minute, 'UTC') AS at, sum(impressions)::text AS impressions, sum(clicks)::text AS clicks
           FROM delivery.campaign_minutes WHERE campaign_id = $1 GROUP BY 1 ORDER BY 1`,
    [campaignId],
  );
  return {
    resolution: byMinute ? 'minute' : 'hour',
    points: rows.map((r) => ({ at: apiTime(r.at as Date), impressions: Number(r.impressions), clicks: Number(r.clicks) })),
    startedAt: apiTime(createdAt),
  };
}
