// Runs expanded in stages, each due at its own moment: a campaign sent at the subscribers' local
// time (one stage per zone group, packages/contracts/src/local-time.ts), with an A/B test (each
// group's test share, then its rest once the winner is chosen, packages/contracts/src/ab-test.ts),
// throttled (one stage, paced), sent at each subscriber's best time (the holdout at once, then
// one stage per hour of the window, each subscriber's hour frozen at planning: best-time-store.ts),
// and a campaign sent at once while some of its zones are in the site's quiet hours (a stage per
// zone group, as local time). The plan is made once, when the dispatch is taken, from the
// audience's zones at that moment; the pacer (pacer.ts) expands the due stages. Progress is
// stored per stage, so a restart resumes each where it stopped and no stage is sent twice.
import type { Queryable } from '@webpush/shared/db.js';
import { bestTimeSlots, HOLDOUT_SLOT } from '@webpush/contracts/best-time.js';
import { effectiveZone, planQuietHoursGroups, planZoneGroups, usersByEffectiveZone, type QuietHours } from '@webpush/contracts/local-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { countByZone } from '../audience/index.js';
import { siteQuietHours, siteTimeZone } from '../sites/index.js';
import { splitAudience } from './run-store.js';
import { freezeBestTimeSlots } from './best-time-store.js';
import { insertStages, type StagePlan } from './stage-store.js';

/** True when a dispatch is expanded in stages whatever the site's quiet hours. */
export function isStaged(job: DispatchMessage): boolean {
  return job.localTime !== undefined || job.abTest !== undefined || job.throttlePerMinute !== undefined || job.bestTime !== undefined;
}

/**
 * The stages of a job, earliest first, or null when it is sent all at once. Local time: the
 * audience's zones (as reported, with counts) in groups by moment, a zone whose moment is in the
 * site's quiet hours at the window's end there; the group of the site's default zone also takes
 * every subscriber whose zone is in no other group (none, unknown, or first reported after this
 * plan). A campaign sent at once on a site with quiet hours is planned by zone the same way when
 * some zone is inside the window now: the zones outside go now, the others at their window's end.
 * Best time: the holdout now, then each hourly slot of the window (best-time.ts). A/B: each
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
  let groups: Group[] = [{ at: now, zones: null, otherZones: false, bestTimeSlot: null }];
  if (byZone) {
    const reportedKnown = new Set(reported.filter((r) => r.zone !== null && effectiveZone(r.zone, siteZone) === r.zone).map((r) => r.zone as string));
    const defaultGroup = plan.find((g) => g.zones.includes(siteZone));
    const elsewhere = plan.filter((g) => g !== defaultGroup).flatMap((g) => g.zones.filter((z) => reportedKnown.has(z)));
    groups = plan.map((g) =>
      g === defaultGroup
        ? { at: new Date(g.sendAt), zones: elsewhere.sort(), otherZones: true, bestTimeSlot: null }
        : { at: new Date(g.sendAt), zones: g.zones.filter((z) => reportedKnown.has(z)), otherZones: false, bestTimeSlot: null },
    );
  }
  if (job.bestTime) {
    const holdout: Group = { at: now, zones: null, otherZones: false, bestTimeSlot: HOLDOUT_SLOT };
    const slots = bestTimeSlots(now, job.bestTime.withinHours).map((s): Group => ({ at: s.at, zones: null, otherZones: false, bestTimeSlot: s.slot }));
    groups = job.bestTime.holdoutPercent > 0 ? [holdout, ...slots] : slots;
  }
  const ab = job.abTest;
  return groups.flatMap((g) => {
    if (!ab) return [{ ...g, abGroup: null }];
    const test: StagePlan = { ...g, abGroup: 'test' };
    return ab.testPercent < 100 ? [test, { ...g, abGroup: 'rest' }] : [test];
  });
}

/**
 * Plans a taken dispatch's stages and stores them (once: a repeated dispatch finds them there);
 * null when it is sent all at once. Quiet hours hold neither a campaign created with
 * ignoreQuietHours, nor a revision (it replaces a notification already shown), nor for now a
 * best-time campaign (its slots are chosen per subscriber without them).
 */
export async function storeStagePlan(db: Queryable, job: DispatchMessage): Promise<StagePlan[] | null> {
  // Revisions and notifications to chosen subscriptions (one person's, answered at once) are never
  // held; nor, for now, a best-time campaign (docs/api-decisions.md, "Best time").
  const quiet = job.revision || job.notification || job.ignoreQuietHours || job.bestTime ? null : await siteQuietHours(db, job.siteId);
  if (!quiet && !isStaged(job)) return null;
  const byZone = job.localTime !== undefined || quiet !== null;
  const { topics, countries } = splitAudience(job.audience);
  const reported = byZone ? await countByZone(db, job.siteId, topics, countries, job.segment ?? null) : [];
  const siteZone = byZone ? await siteTimeZone(db, job.siteId) : '';
  const now = new Date();
  const stages = planStages(job, reported, siteZone, now, quiet);
  if (job.bestTime) await freezeBestTimeSlots(db, job, job.bestTime, bestTimeSlots(now, job.bestTime.withinHours)[0].hour, now);
  if (stages) await insertStages(db, job.campaignId, stages);
  return stages;
}
