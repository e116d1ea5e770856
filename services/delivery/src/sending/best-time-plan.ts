// The planned distribution of a best-time campaign before it is sent (POST /v2/campaign/plan-preview,
// docs/api-decisions.md "Best time"): how many subscribers of an audience would go in each hourly
// slot of the window, by the rule the send freezes them with (best-time-store.ts), and the
// holdout. Its cost is bounded whatever the site's size: up to PLAN_SAMPLE_ROWS active
// subscribers every one is counted; above, a uniform sample of about that many of the site's
// subscribers gives the shares (and the site's prior), scaled to the audience's count, which
// comes from the counters as the composer's estimate does. The answer says which.
import type { AudienceHandlers } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { bestTimeSlots, MAX_HOLDOUT_PERCENT, MAX_WITHIN_HOURS, MIN_WITHIN_HOURS } from '@webpush/contracts/best-time.js';
import { segmentFromJson } from '@webpush/contracts/messages.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { isUuid, ValidationError } from '../errors.js';
import { answer } from '../grpc-answers.js';
import { countByZone, normalizeCountryName, normalizeTopic, siteActiveSubscribers, sortedSet, type Audience } from '../audience/index.js';
import { effectiveZone } from '@webpush/contracts/local-time.js';
import { siteQuietHours, siteTimeZone } from '../sites/index.js';
import { planBestTimeSlots, type PlanSample } from './best-time-store.js';
import { allowedSlots } from './stages.js';

/**
 * Subscribers of the site a plan reads at most (about; the sample is a hash's share). Each is a
 * call of delivery.best_time_slot and an hour-weights lookup, about 0.9 ms on the shared test
 * machine: at 100,000 subscribers (50,000 in the audience) a plan took 1.2–1.5 s from the sample,
 * 45 s over every subscriber (docs/api-decisions.md, "Best time"). With 2,048 sampled
 * subscribers a slot's share of those with history is within ±2.2 percentage points (95 %) of the
 * whole site's; those without history follow the sample's prior, whose best hour may differ from
 * the whole site's when its hours are nearly even.
 */
export const PLAN_SAMPLE_ROWS = 2_048;

/** The site's fixed sample keeps 1 in 128 (migrations/20261205150000_subscribers_sample.sql) in 1024 slices. */
const FIXED_SAMPLE_RATE = 128;
const FIXED_SAMPLE_SLICES = 1024;
const HASH_SPACE = 131_072;

export interface PlannedSlot {
  slot: number;
  sendAt: Date;
  hour: number;
  users: number;
}

export interface BestTimePlan {
  users: number;
  holdoutUsers: number;
  slots: PlannedSlot[];
  sampled: boolean;
  sampleSize: number;
}

/**
 * The sample for a site of `active` subscribers: all of them up to PLAN_SAMPLE_ROWS; a hash's
 * share of about PLAN_SAMPLE_ROWS while that is at least 1 in 128 (a pass over the site's ids,
 * ≤ 262,144 of them); beyond, slices of the fixed 1-in-128 sample, read through its index.
 */
export function planSampleFor(active: number): PlanSample {
  if (active <= PLAN_SAMPLE_ROWS) return { kind: 'all' };
  if (active <= PLAN_SAMPLE_ROWS * FIXED_SAMPLE_RATE) return { kind: 'hash', below: Math.ceil((HASH_SPACE * PLAN_SAMPLE_ROWS) / active) };
  return { kind: 'slices', slices: Math.min(FIXED_SAMPLE_SLICES, Math.ceil((FIXED_SAMPLE_SLICES * FIXED_SAMPLE_RATE * PLAN_SAMPLE_ROWS) / active)) };
}

/**
 * `total` split by `counts`' shares, each rounded down and the remainder given to the largest
 * fractions (the earlier slot on a tie), so the parts add up to `total` exactly.
 */
export function apportion(total: number, counts: number[]): number[] {
  const sum = counts.reduce((a, b) => a + b, 0);
  if (sum === 0) return counts.map(() => 0);
  const exact = counts.map((c) => (total * c) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]++;
    left--;
  }
  return parts;
}

export function createBestTimePlanner(pool: Pool, audience: Pick<Audience, 'countAudience'>) {
  return async function plan(req: {
    siteId: string;
    topics: readonly string[];
    countries: readonly string[];
    segment: Segment | null;
    withinHours: number;
    holdoutPercent: number;
    start: Date;
  }): Promise<BestTimePlan> {
    const windowSlots = bestTimeSlots(req.start, req.withinHours);
    const topics = sortedSet(req.topics.map(normalizeTopic).filter((t): t is string => t !== null));
    const countries = sortedSet(req.countries.map(normalizeCountryName).filter((c): c is string => c !== null));
    const users = isUuid(req.siteId) ? await audience.countAudience(req.siteId, topics, countries, req.segment) : 0;
    const holdoutUsers = Math.round((users * req.holdoutPercent) / 100);
    const empty = { users, holdoutUsers, sampled: false, sampleSize: 0 };
    if (users === 0) return { ...empty, slots: windowSlots.map((s) => ({ slot: s.slot, sendAt: s.at, hour: s.hour, users: 0 })) };

    const siteId = req.siteId.toLowerCase();
    const sample = planSampleFor(await siteActiveSubscribers(pool, siteId));
    // Quiet hours move a subscriber's slot as the send does (stages.ts): each reported zone's
    // allowed slots, the site's zone for the others.
    const quiet = await siteQuietHours(pool, siteId);
    const siteZone = quiet ? await siteTimeZone(pool, siteId) : '';
    const zones = quiet ? (await countByZone(pool, siteId, topics, countries, req.segment)).flatMap((r) => (r.zone === null ? [] : [r.zone])) : [];
    const masks = zones.map((z) => allowedSlots(quiet, effectiveZone(z, siteZone), windowSlots));
    const plan = { siteId, topics, countries, segment: req.segment, withinHours: req.withinHours, firstHour: windowSlots[0].hour, at: req.start, zones, masks, defaultMask: allowedSlots(quiet, siteZone, windowSlots) };
    let counted = await planBestTimeSlots(pool, plan, sample, sample);
    let sampled = sample.kind !== 'all';
    // An audience the sample missed is a small one (a few of the site's per sampled subscriber):
    // all of it is counted then, against the sample's prior.
    if (sampled && counted.size === 0) {
      counted = await planBestTimeSlots(pool, plan, sample, { kind: 'all' });
      sampled = false;
    }
    // Those whose zone has no slot of the window outside quiet hours go when the quiet hours end
    // there (slot withinHours): one more entry, at the window's end, when there are any.
    const end = new Date(req.start.getTime() + req.withinHours * 3_600_000);
    const held = counted.get(req.withinHours) ?? 0;
    const entries = held > 0 ? [...windowSlots, { slot: req.withinHours, at: end, hour: end.getUTCHours() }] : windowSlots;
    const counts = entries.map((s) => counted.get(s.slot) ?? 0);
    const parts = apportion(users - holdoutUsers, counts);
    return {
      users,
      holdoutUsers,
      slots: entries.map((s, i) => ({ slot: s.slot, sendAt: s.at, hour: s.hour, users: parts[i] })),
      sampled,
      sampleSize: counts.reduce((a, b) => a + b, 0),
    };
  };
}

export type BestTimePlanner = ReturnType<typeof createBestTimePlanner>;

/** delivery.v1.Audience/PlanBestTime, added to the Audience service beside its own calls (grpc-server.ts). */
export function createBestTimePlanHandlers(planner: BestTimePlanner, log: Logger): Pick<AudienceHandlers, 'PlanBestTime'> {
  return {
    PlanBestTime: ({ request: r }, callback) =>
      answer(log, 'PlanBestTime', callback, async () => {
        const errors: string[] = [];
        if (!Number.isInteger(r.withinHours) || r.withinHours < MIN_WITHIN_HOURS || r.withinHours > MAX_WITHIN_HOURS) errors.push(`within_hours must be from ${MIN_WITHIN_HOURS} to ${MAX_WITHIN_HOURS}`);
        if (!Number.isInteger(r.holdoutPercent) || r.holdoutPercent < 0 || r.holdoutPercent > MAX_HOLDOUT_PERCENT) errors.push(`holdout_percent must be from 0 to ${MAX_HOLDOUT_PERCENT}`);
        const start = new Date(r.start);
        if (Number.isNaN(start.getTime())) errors.push('start must be an ISO 8601 date');
        let segment: Segment | null = null;
        try {
          segment = r.segmentJson === '' ? null : segmentFromJson(r.segmentJson);
        } catch (err) {
          errors.push(`segment_json: ${(err as Error).message}`);
        }
        if (errors.length > 0) throw new ValidationError(errors);
        const plan = await planner({ siteId: r.siteId, topics: r.topics, countries: r.countries, segment, withinHours: r.withinHours, holdoutPercent: r.holdoutPercent, start });
        return {
          users: plan.users,
          holdoutUsers: plan.holdoutUsers,
          slots: plan.slots.map((s) => ({ slot: s.slot, sendAt: s.sendAt.toISOString(), hour: s.hour, users: s.users })),
          sampled: plan.sampled,
          sampleSize: plan.sampleSize,
        };
      }),
  };
}
