// Runs expanded in stages, each due at its own moment: a campaign sent at the subscribers' local
// time (one stage per zone group, packages/contracts/src/local-time.ts), with an A/B test (each
// group's test share, then its rest once the winner is chosen, packages/contracts/src/ab-test.ts),
// or throttled (one stage, paced), and a campaign sent at once while some of its zones are in the
// site's quiet hours (a stage per zone group, as local time). The plan is made once, when the
// dispatch is taken, from the audience's zones at that moment; the pacer (pacer.ts) expands the
// due stages. Progress is stored per stage, so a restart resumes each where it stopped and no
// stage is sent twice.
import type { Queryable } from '@webpush/shared/db.js';
import { effectiveZone, planQuietHoursGroups, planZoneGroups, usersByEffectiveZone, type QuietHours } from '@webpush/contracts/local-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { countByZone } from '../audience/index.js';
import { siteQuietHours, siteTimeZone } from '../sites/index.js';
import { splitAudience } from './run-store.js';
import { insertStages, type StagePlan } from './stage-store.js';

/** True when a dispatch is expanded in stages whatever the site's quiet hours. */
export function isStaged(job: DispatchMessage): boolean {
  return job.localTime !== undefined || job.abTest !== undefined || job.throttlePerMinute !== undefined;
}

/**
 * The stages of a job, earliest first, or null when it is sent all at once. Local time: the
 * audience's zones (as reported, with counts) in groups by moment, a zone whose moment is in the
 * site's quiet hours at the window's end there; the group of the site's default zone also takes
 * every subscriber whose zone is in no other group (none, unknown, or first reported after this
 * plan). A campaign sent at once on a site with quiet hours is planned by zone the same way when
 * some zone is inside the window now: the zones outside go now, the others at their window's end.
 * A/B: each group's test share, then its rest.
 */
export function planStages(job: DispatchMessage, reported: { zone: string | null; users: number }[], siteZone: string, now: Date, quiet: QuietHours | null = null): StagePlan[] | null {
  // The default zone's group is planned even when no one is in it yet: it takes the zones of no group.
  const known = () => [...new Map<string, number>([[siteZone, 0], ...usersByEffectiveZone(reported, siteZone)])].map(([zone, users]) => ({ zone, users }));
  const plan = job.localTime ? planZoneGroups(job.localTime, known(), new Date(job.localTime.createdAt), quiet) : quiet ? planQuietHoursGroups(known(), now, quiet) : null;
  const byZone = plan && (job.localTime !== undefined || plan.some((g) => g.held));
  if (!byZone && !isStaged(job)) return null;
  let groups: { at: Date; zones: string[] | null; otherZones: boolean }[] = [{ at: now, zones: null, otherZones: false }];
  if (byZone) {
    const reportedKnown = new Set(reported.filter((r) => r.zone !== null && effectiveZone(r.zone, siteZone) === r.zone).map((r) => r.zone as string));
    const defaultGroup = plan.find((g) => g.zones.includes(siteZone));
    const elsewhere = plan.filter((g) => g !== defaultGroup).flatMap((g) => g.zones.filter((z) => reportedKnown.has(z)));
    groups = plan.map((g) =>
      g === defaultGroup
        ? { at: new Date(g.sendAt), zones: elsewhere.sort(), otherZones: true }
        : { at: new Date(g.sendAt), zones: g.zones.filter((z) => reportedKnown.has(z)), otherZones: false },
    );
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
 * ignoreQuietHours nor a revision (it replaces a notification already shown).
 */
export async function storeStagePlan(db: Queryable, job: DispatchMessage): Promise<StagePlan[] | null> {
  // Revisions and notifications to chosen subscriptions (one person's, answered at once) are never held.
  const quiet = job.revision || job.notification || job.ignoreQuietHours ? null : await siteQuietHours(db, job.siteId);
  if (!quiet && !isStaged(job)) return null;
  const byZone = job.localTime !== undefined || quiet !== null;
  const { topics, countries } = splitAudience(job.audience);
  const reported = byZone ? await countByZone(db, job.siteId, topics, countries, job.segment ?? null) : [];
  const siteZone = byZone ? await siteTimeZone(db, job.siteId) : '';
  const stages = planStages(job, reported, siteZone, new Date(), quiet);
  if (stages) await insertStages(db, job.campaignId, stages);
  return stages;
}
