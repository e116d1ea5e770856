// A campaign's impressions and clicks over time, for the console's chart: read from its minute
// rows (delivery.campaign_minutes, added to by recordTracking in the statement that stores the
// reports), never from delivery.tracking. Per minute during the campaign's first 48 hours, per
// hour after, rolled up from the campaign's own minute rows (counter-store.ts seriesBuckets).
import type { Queryable } from '@webpush/shared/db.js';
import { seriesBuckets, seriesRun } from './counter-store.js';

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
  const run = await seriesRun(db, campaignId, MINUTE_SERIES_HOURS);
  if (!run) return { resolution: 'minute', points: [], startedAt: null };
  if (run.siteId !== siteId) return 'other-site';
  const buckets = await seriesBuckets(db, campaignId, run.byMinute);
  return {
    resolution: run.byMinute ? 'minute' : 'hour',
    points: buckets.map((b) => ({ at: apiTime(b.at), impressions: b.impressions, clicks: b.clicks })),
    startedAt: apiTime(run.createdAt),
  };
}
