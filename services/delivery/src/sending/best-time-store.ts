// A best-time run's frozen slots (delivery.best_time_slots, migrations/20261207040000_best_time.sql):
// each subscriber of the audience (a notification's: each of its targets) assigned once, when the run is planned, to the holdout or to the
// slot of its best hour outside the site's quiet hours in its zone (delivery.best_time_slot: its
// hour weights blended with the site's; 20261208070000_best_time_quiet_hours.sql), so the stages
// read one assignment however the weights move while the window runs. Frozen in batches by
// subscriber id, each committed with the plan's progress (delivery.best_time_plans), so a large
// audience is never one long transaction and a crash resumes where it stopped. Also the run's
// results by slot: the planned distribution, and sends, impressions and clicks per slot.
import type { Queryable } from '@webpush/shared/db.js';
import { HOLDOUT_SLOT, type BestTime, type SlotResult } from '@webpush/contracts/best-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { segmentSql } from '../audience/index.js';
import { logTableOf } from './delivery-log-store.js';
import { splitAudience } from './run-store.js';

/** A best-time run's plan while its slots are frozen (delivery.best_time_plans). */
export interface BestTimePlan {
  windowStart: Date;
  prior: number[];
  /** Reported zones as stored, and each one's allowed slots ('1' per slot outside quiet hours). */
  zones: string[];
  masks: string[];
  /** The allowed slots of a subscriber of no listed zone (the site zone's). */
  defaultMask: string;
  /** The freeze has reached every subscriber of the audience with an id up to this. */
  frozenThrough: string;
  done: boolean;
}

/** The site's decayed weight of each hour, summed over its subscribers: 24 aggregates of one row each. */
const PRIOR_SUMS = Array.from({ length: 24 }, (_, i) => `coalesce(sum(h.weights[${i + 1}] * d.f), 0)`).join(', ');

/** The run's stored plan, or null before it is made. */
export async function bestTimePlan(db: Queryable, campaignId: string): Promise<BestTimePlan | null> {
  const { rows } = await db.query(
    `SELECT window_start, prior, zones, masks, default_mask, frozen_through::text, done FROM delivery.best_time_plans WHERE campaign_id = $1`,
    [campaignId],
  );
  const r = rows[0];
  return r
    ? { windowStart: r.window_start, prior: r.prior, zones: r.zones, masks: r.masks, defaultMask: r.default_mask, frozenThrough: r.frozen_through, done: r.done }
    : null;
}

/**
 * Stores a run's plan once: the window's start, the site's prior (its active subscribers' weights
 * summed by hour, as shares; all 0 for a site without history: every hour alike, so the first
 * allowed slot) and the zones' allowed slots. Answers the stored plan (a repeated dispatch finds
 * the first).
 */
export async function storeBestTimePlan(db: Queryable, campaignId: string, siteId: string, windowStart: Date, zones: string[], masks: string[], defaultMask: string): Promise<BestTimePlan> {
  const stored = await bestTimePlan(db, campaignId);
  if (stored) return stored;
  await db.query(
    // One row per subscriber summed into 24 columns, its decay computed once (OFFSET 0 keeps the
    // subquery from being inlined into each column): it runs before the first batch, so without
    // the consumer's heartbeat, and the decay per hour took 67 s over 100,000 subscribers.
    `WITH hours AS (
       SELECT ARRAY[${PRIOR_SUMS}] AS w
         FROM delivery.subscriber_hours h JOIN delivery.subscribers s ON s.id = h.subscriber_id,
              LATERAL (SELECT delivery.hour_decay(h.weighed_at, $2) AS f OFFSET 0) d
        WHERE s.site_id = $3 AND s.active)
     INSERT INTO delivery.best_time_plans (campaign_id, window_start, prior, zones, masks, default_mask)
     SELECT $1, $2,
            (SELECT array_agg(coalesce(u.w / nullif((SELECT sum(x) FROM unnest(hours.w) x), 0), 0)::real ORDER BY u.i)
               FROM unnest(hours.w) WITH ORDINALITY AS u(w, i)),
            $4, $5, $6
       FROM hours
     ON CONFLICT DO NOTHING`,
    [campaignId, windowStart, siteId, zones, masks, defaultMask],
  );
  return (await bestTimePlan(db, campaignId))!;
}

/**
 * Whom a run's slots are frozen for, on `delivery.subscribers s`, its parameters numbered from
 * `firstParam`: a campaign's audience (topics ∪ countries), or a notification's targets still to
 * send (`$1`: the run's id).
 */
function freezeAudienceSql(job: DispatchMessage, firstParam: number): { sql: string; params: unknown[] } {
  if (job.notification) return { sql: `s.id IN (SELECT t.subscriber_id FROM delivery.notification_targets t WHERE t.notification_id = $1 AND t.outcome IS NULL)`, params: [] };
  const { topics, countries } = splitAudience(job.audience);
  return { sql: `(s.country = ANY($${firstParam}::text[]) OR s.topics && $${firstParam + 1}::text[])`, params: [countries, topics] };
}

/**
 * Freezes the slots of the next `limit` subscribers of the job's audience (topics ∪ countries,
 * segment; a notification's: its targets) after the plan's progress, in id order: each the holdout, or its best allowed slot
 * (delivery.best_time_slot), or, with no slot of the window outside its quiet hours, slot
 * `withinHours` (sent when they end). The slots and the progress are one statement: a batch is
 * stored whole or not at all, and a subscriber already frozen keeps its slot. Answers the plan's
 * progress after the batch (done once a batch comes short).
 */
export async function freezeBestTimeBatch(db: Queryable, job: DispatchMessage, bestTime: BestTime, plan: BestTimePlan, limit: number): Promise<Pick<BestTimePlan, 'frozenThrough' | 'done'>> {
  const narrowed = segmentSql(job.segment, 13);
  const audience = freezeAudienceSql(job, 13 + narrowed.params.length);
  const { rows } = await db.query(
    `WITH batch AS MATERIALIZED (
       SELECT s.id,
              CASE WHEN delivery.holdout_bucket($1, s.id) < $3 THEN ${HOLDOUT_SLOT}
                   ELSE coalesce(delivery.best_time_slot(h.weights, h.weighed_at, $6::real[], $4, $5, $7,
                                   coalesce(($9::text[])[array_position($8::text[], s.time_zone)], $10)), $5) END AS slot
         FROM delivery.subscribers s LEFT JOIN delivery.subscriber_hours h ON h.subscriber_id = s.id
        WHERE s.site_id = $2 AND s.active AND s.id > $11::bigint AND ${audience.sql}${narrowed.sql}
        ORDER BY s.id LIMIT $12),
     ins AS (
       INSERT INTO delivery.best_time_slots (campaign_id, subscriber_id, slot) SELECT $1, id, slot FROM batch
       ON CONFLICT DO NOTHING)
     UPDATE delivery.best_time_plans
        SET frozen_through = coalesce((SELECT max(id) FROM batch), frozen_through), done = (SELECT count(*) FROM batch) < $12
      WHERE campaign_id = $1 AND frozen_through = $11::bigint AND NOT done
     RETURNING frozen_through::text, done`,
    [
      job.campaignId,
      job.siteId,
      bestTime.holdoutPercent,
      plan.windowStart.getUTCHours(),
      bestTime.withinHours,
      plan.prior,
      plan.windowStart,
      plan.zones,
      plan.masks,
      plan.defaultMask,
      plan.frozenThrough,
      limit,
      ...narrowed.params,
      ...audience.params,
    ],
  );
  // No row: another instance moved the progress on (or finished) meanwhile; read where it is.
  if (rows.length === 0) return (await bestTimePlan(db, job.campaignId)) ?? { frozenThrough: plan.frozenThrough, done: true };
  return { frozenThrough: rows[0].frozen_through, done: rows[0].done };
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
 * into its window's slots by the rule freezeBestTimeBatch applies (delivery.best_time_slot, the
 * site's prior from the same subscribers' weights, each zone's slots outside quiet hours; slot
 * `withinHours` for those with none), counted over `sample` of the site's
 * subscribers and, for the audience, over `audienceSample`; nothing stored, the holdout not drawn
 * (its buckets are the campaign's, which does not exist yet). Answers the count per slot.
 */
export async function planBestTimeSlots(
  db: Queryable,
  plan: { siteId: string; topics: string[]; countries: string[]; segment: Segment | null; withinHours: number; firstHour: number; at: Date; zones: string[]; masks: string[]; defaultMask: string },
  sample: PlanSample,
  audienceSample: PlanSample,
): Promise<Map<number, number>> {
  const narrowed = segmentSql(plan.segment, 10);
  const site = planSampleSql(sample, 10 + narrowed.params.length);
  const audience = planSampleSql(audienceSample, 10 + narrowed.params.length + site.params.length);
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
     SELECT coalesce(delivery.best_time_slot(h.weights, h.weighed_at, (SELECT shares FROM prior), $4, $5, $6,
                     coalesce(($8::text[])[array_position($7::text[], s.time_zone)], $9)), $5) AS slot, count(*)::int AS n
       FROM delivery.subscribers s LEFT JOIN delivery.subscriber_hours h ON h.subscriber_id = s.id
      WHERE s.site_id = $1 AND s.active AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}${audience.sql}
      GROUP BY 1`,
    [plan.siteId, plan.countries, plan.topics, plan.firstHour, plan.withinHours, plan.at, plan.zones, plan.masks, plan.defaultMask, ...narrowed.params, ...site.params, ...audience.params],
  );
  return new Map(rows.map((r) => [r.slot as number, r.n as number]));
}
