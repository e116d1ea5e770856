// A best-time run's frozen slots (delivery.best_time_slots, migrations/20261207040000_best_time.sql):
// each subscriber of the audience assigned once, when the run is planned, to the holdout or to the
// slot of its best hour (delivery.best_time_slot: its hour weights blended with the site's), so the
// stages read one assignment however the weights move while the window runs. Also the run's
// results by slot: the planned distribution, and sends, impressions and clicks per slot.
import type { Queryable } from '@webpush/shared/db.js';
import { HOLDOUT_SLOT, type BestTime, type SlotResult } from '@webpush/contracts/best-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { segmentSql } from '../audience/index.js';
import { logTableOf } from './delivery-log-store.js';
import { splitAudience } from './run-store.js';

/**
 * Assigns every subscriber of the job's audience (topics ∪ countries, segment) a slot, once: a
 * repeated dispatch finds them there (and assigns no newcomer: they go with the last slot). The site's prior is its active subscribers' weights summed
 * by hour, as shares (all 0 for a site without history: every hour alike, so the first slot).
 * Answers how many subscribers each slot got.
 */
export async function freezeBestTimeSlots(db: Queryable, job: DispatchMessage, bestTime: BestTime, firstHour: number, at: Date): Promise<Map<number, number>> {
  const { topics, countries } = splitAudience(job.audience);
  const narrowed = segmentSql(job.segment, 9);
  const { rows } = await db.query(
    `WITH hours AS (
       SELECT u.i, sum(u.w * delivery.hour_decay(h.weighed_at, $8)) AS w
         FROM delivery.subscriber_hours h JOIN delivery.subscribers s ON s.id = h.subscriber_id,
              unnest(h.weights) WITH ORDINALITY AS u(w, i)
        WHERE s.site_id = $2 AND s.active
        GROUP BY u.i),
     prior AS (
       SELECT array_agg(coalesce(hours.w / nullif((SELECT sum(w) FROM hours), 0), 0)::real ORDER BY g.i) AS shares
         FROM generate_series(1, 24) AS g(i) LEFT JOIN hours ON hours.i = g.i),
     ins AS (
       INSERT INTO delivery.best_time_slots (campaign_id, subscriber_id, slot)
       SELECT $1, s.id,
              CASE WHEN delivery.holdout_bucket($1, s.id) < $5 THEN ${HOLDOUT_SLOT}
                   ELSE delivery.best_time_slot(h.weights, h.weighed_at, (SELECT shares FROM prior), $6, $7, $8) END
         FROM delivery.subscribers s LEFT JOIN delivery.subscriber_hours h ON h.subscriber_id = s.id
        WHERE s.site_id = $2 AND s.active AND (s.country = ANY($3::text[]) OR s.topics && $4::text[])${narrowed.sql}
          -- A repeated dispatch of a planned run assigns nobody (its stages were stored with the slots).
          AND NOT EXISTS (SELECT 1 FROM delivery.run_stages r WHERE r.campaign_id = $1)
       ON CONFLICT DO NOTHING
       RETURNING slot)
     SELECT slot, count(*)::int AS n FROM ins GROUP BY slot`,
    [job.campaignId, job.siteId, countries, topics, bestTime.holdoutPercent, firstHour, bestTime.withinHours, at, ...narrowed.params],
  );
  return new Map(rows.map((r) => [r.slot as number, r.n as number]));
}

/**
 * A best-time run's results by slot (the holdout's slot is HOLDOUT_SLOT), in slot order: when it
 * is sent, its planned subscribers, and what was sent to them and came back. One aggregate of the
 * run's frozen slots, delivery log and tracking.
 */
export async function bestTimeResults(db: Queryable, campaignId: string): Promise<SlotResult[]> {
  const log = await logTableOf(db, campaignId);
  const { rows } = await db.query(
    `SELECT b.slot, (SELECT min(st.at) FROM delivery.run_stages st WHERE st.campaign_id = b.campaign_id AND st.best_time_slot = b.slot) AS send_at,
            count(*)::int AS planned, count(*) FILTER (WHERE l.state = 'sent')::int AS sent,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM delivery.tracking t WHERE t.campaign_id = b.campaign_id AND t.subscriber_id = b.subscriber_id AND t.kind = 'impression'))::int AS impressions,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM delivery.tracking t WHERE t.campaign_id = b.campaign_id AND t.subscriber_id = b.subscriber_id AND t.kind = 'click'))::int AS clicks
       FROM delivery.best_time_slots b LEFT JOIN ${log} l ON l.campaign_id = b.campaign_id AND l.subscriber_id = b.subscriber_id
      WHERE b.campaign_id = $1
      GROUP BY b.campaign_id, b.slot ORDER BY b.slot`,
    [campaignId],
  );
  return rows.map((r) => ({
    slot: r.slot,
    sendAt: r.send_at ? (r.send_at as Date).toISOString() : '',
    planned: r.planned,
    sent: r.sent,
    impressions: r.impressions,
    clicks: r.clicks,
  }));
}

/**
 * Which of the site's subscribers a planned distribution is computed from (best-time-plan.ts):
 * all of them, those whose id hashes below `below` of 131,072 (a uniform sample read by a pass
 * over the site's ids), or the slices below `slices` of the site's fixed 1-in-128 sample
 * (migrations/20261205150000_subscribers_sample.sql, read through its index).
 */
export type PlanSample = { kind: 'all' } | { kind: 'hash'; below: number } | { kind: 'slices'; slices: number };

function planSampleSql(sample: PlanSample, param: number): { sql: string; params: unknown[] } {
  if (sample.kind === 'all') return { sql: '', params: [] };
  if (sample.kind === 'hash') return { sql: ` AND (hashint8(s.id) & 131071) < $${param}::int`, params: [sample.below] };
  return { sql: ` AND (hashint8(s.id) & 127) = 0 AND ((hashint8(s.id) >> 7) & 1023) < $${param}::int`, params: [sample.slices] };
}

/**
 * How the audience (topics ∪ countries, segment) of a best-time campaign sent at `at` would fall
 * into its window's slots by the rule freezeBestTimeSlots applies (delivery.best_time_slot, the
 * site's prior from the same subscribers' weights), counted over `sample` of the site's
 * subscribers and, for the audience, over `audienceSample`; nothing stored, the holdout not drawn
 * (its buckets are the campaign's, which does not exist yet). Answers the count per slot.
 */
export async function planBestTimeSlots(
  db: Queryable,
  plan: { siteId: string; topics: string[]; countries: string[]; segment: Segment | null; withinHours: number; firstHour: number; at: Date },
  sample: PlanSample,
  audienceSample: PlanSample,
): Promise<Map<number, number>> {
  const narrowed = segmentSql(plan.segment, 7);
  const site = planSampleSql(sample, 7 + narrowed.params.length);
  const audience = planSampleSql(audienceSample, 7 + narrowed.params.length + site.params.length);
  const { rows } = await db.query(
    `WITH hours AS (
       SELECT u.i, sum(u.w * delivery.hour_decay(h.weighed_at, $6)) AS w
         FROM delivery.subscriber_hours h JOIN delivery.subscribers s ON s.id = h.subscriber_id,
              unnest(h.weights) WITH ORDINALITY AS u(w, i)
        WHERE s.site_id = $1 AND s.active${site.sql}
        GROUP BY u.i),
     prior AS (
       SELECT array_agg(coalesce(hours.w / nullif((SELECT sum(w) FROM hours), 0), 0)::real ORDER BY g.i) AS shares
         FROM generate_series(1, 24) AS g(i) LEFT JOIN hours ON hours.i = g.i)
     SELECT delivery.best_time_slot(h.weights, h.weighed_at, (SELECT shares FROM prior), $4, $5, $6) AS slot, count(*)::int AS n
       FROM delivery.subscribers s LEFT JOIN delivery.subscriber_hours h ON h.subscriber_id = s.id
      WHERE s.site_id = $1 AND s.active AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}${audience.sql}
      GROUP BY 1`,
    [plan.siteId, plan.countries, plan.topics, plan.firstHour, plan.withinHours, plan.at, ...narrowed.params, ...site.params, ...audience.params],
  );
  return new Map(rows.map((r) => [r.slot as number, r.n as number]));
}
