// Runs expanded in stages, each due at its own moment: a campaign sent at the subscribers' local
// time (one stage per zone group, packages/contracts/src/local-time.ts), with an A/B test (each
// group's test share, then its rest once the winner is chosen, packages/contracts/src/ab-test.ts),
// throttled (one stage, paced), sent at each subscriber's best time (the holdout at once, then
// one stage per hour of the window, each subscriber's hour frozen at planning, outside the site's
// quiet hours in its zone: best-time-store.ts),
// and a campaign sent at once while some of its zones are in the site's quiet hours (a stage per
// zone group, as local time). A notification is planned the same way when it has best time or
// respects quiet hours, from its resolved targets rather than an audience. The plan is made once, when the dispatch is taken, from the
// audience's zones at that moment; the pacer (pacer.ts) expands the due stages. Progress is
// stored per stage, so a restart resumes each where it stopped and no stage is sent twice.
import type { Queryable } from '@webpush/shared/db.js';
import { bestTimeSlots, HOLDOUT_SLOT, type BestTimeSlot } from '@webpush/contracts/best-time.js';
import { effectiveZone, inQuietHours, planQuietHoursGroups, planZoneGroups, usersByEffectiveZone, type QuietHours, type ZoneGroup } from '@webpush/contracts/local-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { countByZone } from '../audience/index.js';
import { siteQuietHours, siteTimeZone } from '../sites/index.js';
import { splitAudience } from './run-store.js';
import { storeBestTimePlan } from './best-time-store.js';
import { countTargetsByZone } from './notification-store.js';
import { insertStages, storedStages, type StagePlan } from './stage-store.js';

/** True when a dispatch is expanded in stages whatever the site's quiet hours. */
export function isStaged(job: DispatchMessage): boolean {
  return job.localTime !== undefined || job.abTest !== undefined || job.throttlePerMinute !== undefined || job.bestTime !== undefined;
}

/**
 * Which slots of a best-time window a subscriber in `zone` may be sent in: one character per
 * slot, '1' when the slot's moment is outside the site's quiet hours there (every slot without
 * quiet hours). As quiet hours test every other send: at its moment (docs/api-decisions.md,
 * "Quiet hours").
 */
export function allowedSlots(quiet: QuietHours | null, zone: string, slots: readonly BestTimeSlot[]): string {
  return slots.map((s) => (quiet && inQuietHours(quiet, zone, s.at) ? '0' : '1')).join('');
}

/**
 * The stages of a job, earliest first, or null when it is sent all at once. Local time: the
 * audience's zones (as reported, with counts) in groups by moment, a zone whose moment is in the
 * site's quiet hours at the window's end there; the group of the site's default zone also takes
 * every subscriber whose zone is in no other group (none, unknown, or first reported after this
 * plan). A campaign sent at once on a site with quiet hours is planned by zone the same way when
 * some zone is inside the window now: the zones outside go now, the others at their window's end.
 * Best time: the holdout now (by zone as a campaign sent at once when some zone is in quiet
 * hours), then each hourly slot of the window (best-time.ts), then, for the subscribers of zones
 * where no slot of the window is outside quiet hours (slot `withinHours`), each zone at its quiet
 * hours' end, the site zone's group taking the others. A/B: each
 * group's test share, then its rest — so a best-time campaign's variants are tested at the same
 * moments.
 */
export function planStages(job: DispatchMessage, reported: { zone: string | null; users: number }[], siteZone: string, now: Date, quiet: QuietHours | null = null): StagePlan[] | null {
  type Group = Omit<StagePlan, 'abGroup'>;
  // The default zone's group is planned even when no one is in it yet: it takes the zones of no group.
  const known = () => [...new Map<string, number>([[siteZone, 0], ...usersByEffectiveZone(reported, siteZone)])].map(([zone, users]) => ({ zone, users }));
  const plan = job.localTime ? planZoneGroups(job.localTime, known(), new Date(job.localTime.createdAt), quiet) : quiet ? planQuietHoursGroups(known(), now, quiet) : null;
  const byZone = plan && (job.localTime !== undefined || plan.some((g) => g.held));
  if (!byZone && !isStaged(job)) return null;
  const reportedKnown = new Set(reported.filter((r) => r.zone !== null && effectiveZone(r.zone, siteZone) === r.zone).map((r) => r.zone as string));
  const zoneGroups = (zonePlan: ZoneGroup[], bestTimeSlot: number | null): Group[] => {
    const defaultGroup = zonePlan.find((g) => g.zones.includes(siteZone));
    const elsewhere = zonePlan.filter((g) => g !== defaultGroup).flatMap((g) => g.zones.filter((z) => reportedKnown.has(z)));
    return zonePlan.map((g) =>
      g === defaultGroup
        ? { at: new Date(g.sendAt), zones: elsewhere.sort(), otherZones: true, bestTimeSlot }
        : { at: new Date(g.sendAt), zones: g.zones.filter((z) => reportedKnown.has(z)), otherZones: false, bestTimeSlot },
    );
  };
  let groups: Group[] = byZone ? zoneGroups(plan, null) : [{ at: now, zones: null, otherZones: false, bestTimeSlot: null }];
  if (job.bestTime) {
    const within = job.bestTime.withinHours;
    const slots = bestTimeSlots(now, within);
    // The holdout is what the campaign would do without best time: sent at once, held by zone as such a campaign is.
    const holdout = groups.map((g): Group => ({ ...g, bestTimeSlot: HOLDOUT_SLOT }));
    const hourly = slots.map((s): Group => ({ at: s.at, zones: null, otherZones: false, bestTimeSlot: s.slot }));
    const held = quiet ? known().filter((z) => !allowedSlots(quiet, z.zone, slots).includes('1')) : [];
    const withSiteZone = held.some((z) => z.zone === siteZone) ? held : [...held, { zone: siteZone, users: 0 }];
    const afterQuiet = quiet && held.length > 0 ? zoneGroups(planQuietHoursGroups(withSiteZone, now, quiet), within) : [];
    groups = [...(job.bestTime.holdoutPercent > 0 ? holdout : []), ...hourly, ...afterQuiet];
  }
  const ab = job.abTest;
  return groups.flatMap((g) => {
    if (!ab) return [{ ...g, abGroup: null }];
    const test: StagePlan = { ...g, abGroup: 'test' };
    return ab.testPercent < 100 ? [test, { ...g, abGroup: 'rest' }] : [test];
  });
}

/**
 * Plans a taken dispatch's stages and stores them, once: a repeated dispatch answers the stages
 * stored first (their moments, not a plan made anew from a later now); null when it is sent all
 * at once. Quiet hours hold neither a campaign created with ignoreQuietHours nor a revision (it
 * replaces a notification already shown). A best-time run also stores its plan
 * (best-time-store.ts: the window's start, the prior, each zone's allowed slots), whose slots the
 * dispatch then freezes in batches before the pacer may start.
 */
export async function storeStagePlan(db: Queryable, job: DispatchMessage): Promise<StagePlan[] | null> {
  const stored = await storedStages(db, job.campaignId);
  if (stored.length > 0) return stored;
  // Revisions are never held; notifications to chosen subscriptions (one person's, answered at
  // once) only when they ask (`quietHours`: respectQuietHours, or best time's default).
  const quiet = job.revision || (job.notification && !job.notification.quietHours) || job.ignoreQuietHours ? null : await siteQuietHours(db, job.siteId);
  if (!quiet && !isStaged(job)) return null;
  const byZone = job.localTime !== undefined || quiet !== null;
  const { topics, countries } = splitAudience(job.audience);
  // A notification's zones are its resolved targets' (dispatch.ts resolves them before planning).
  const reported = !byZone ? [] : job.notification ? await countTargetsByZone(db, job.campaignId) : await countByZone(db, job.siteId, topics, countries, job.segment ?? null);
  const siteZone = byZone ? await siteTimeZone(db, job.siteId) : '';
  const now = new Date();
  const stages = planStages(job, reported, siteZone, now, quiet);
  if (job.bestTime) {
    const slots = bestTimeSlots(now, job.bestTime.withinHours);
    const zones = reported.flatMap((r) => (r.zone === null ? [] : [r.zone]));
    await storeBestTimePlan(db, job.campaignId, job.siteId, now, zones, zones.map((z) => allowedSlots(quiet, effectiveZone(z, siteZone), slots)), allowedSlots(quiet, siteZone, slots));
  }
  if (stages) await insertStages(db, job.campaignId, stages);
  return stages;
}
