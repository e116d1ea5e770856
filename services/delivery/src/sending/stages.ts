// Runs expanded in stages, each due at its own moment: a campaign sent at the subscribers' local
// time (one stage per zone group, packages/contracts/src/local-time.ts), with an A/B test (each
// group's test share, then its rest once the winner is chosen, packages/contracts/src/ab-test.ts),
// or throttled (one stage, paced). The plan is made once, when the dispatch is taken, from the
// audience's zones at that moment; the pacer (pacer.ts) expands the due stages. Progress is
// stored per stage, so a restart resumes each where it stopped and no stage is sent twice.
import type { Queryable } from '@webpush/shared/db.js';
import { testThreshold, type AbTest } from '@webpush/contracts/ab-test.js';
import { effectiveZone, planZoneGroups, usersByEffectiveZone, zoneNames } from '@webpush/contracts/local-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { countByZone } from '../audience/index.js';
import { siteTimeZone } from '../sites/index.js';
import { splitAudience } from './run-store.js';

export interface StagePlan {
  at: Date;
  /** Subscribers whose zone is one of these; null: every zone (unless otherZones). */
  zones: string[] | null;
  /** Instead: subscribers whose zone is none of `zones` (the site default's group). */
  otherZones: boolean;
  /** An A/B test's share: `test` (split between the variants) or `rest` (the winner); null without a test. */
  abGroup: 'test' | 'rest' | null;
}

/** True when a dispatch is expanded in stages rather than all at once. */
export function isStaged(job: DispatchMessage): boolean {
  return job.localTime !== undefined || job.abTest !== undefined || job.throttlePerMinute !== undefined;
}

/**
 * The stages of a job, earliest first. Local time: the audience's zones (as reported, with
 * counts) in groups by moment; the group of the site's default zone also takes every subscriber
 * whose zone is in no other group (none, unknown, or first reported after this plan). A/B: each
 * group's test share, then its rest.
 */
export function planStages(job: DispatchMessage, reported: { zone: string | null; users: number }[], siteZone: string, now: Date): StagePlan[] {
  let groups: { at: Date; zones: string[] | null; otherZones: boolean }[] = [{ at: now, zones: null, otherZones: false }];
  if (job.localTime) {
    // The default zone's group is planned even when no one is in it yet: it takes the zones of no group.
    const known = new Map<string, number>([[siteZone, 0], ...usersByEffectiveZone(reported, siteZone)]);
    const reportedKnown = new Set(reported.filter((r) => r.zone !== null && effectiveZone(r.zone, siteZone) === r.zone).map((r) => r.zone as string));
    const plan = planZoneGroups(job.localTime, [...known].map(([zone, users]) => ({ zone, users })), new Date(job.localTime.createdAt));
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

/** Plans a taken dispatch's stages and stores them (once: a repeated dispatch finds them there). */
export async function storeStagePlan(db: Queryable, job: DispatchMessage): Promise<StagePlan[]> {
  const { topics, countries } = splitAudience(job.audience);
  const reported = job.localTime ? await countByZone(db, job.siteId, topics, countries, job.segment ?? null) : [];
  const siteZone = job.localTime ? await siteTimeZone(db, job.siteId) : '';
  const stages = planStages(job, reported, siteZone, new Date());
  await db.query(
    `INSERT INTO delivery.run_stages (campaign_id, stage_no, at, zones, other_zones, ab_group)
     SELECT $1, n - 1, at, CASE WHEN z = 'null' THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(z)) END, other, grp
       FROM unnest($2::timestamptz[], $3::jsonb[], $4::boolean[], $5::text[]) WITH ORDINALITY AS s(at, z, other, grp, n)
     ON CONFLICT DO NOTHING`,
    [job.campaignId, stages.map((s) => s.at), stages.map((s) => JSON.stringify(s.zones)), stages.map((s) => s.otherZones), stages.map((s) => s.abGroup)],
  );
  return stages;
}

export interface StageRow {
  stageNo: number;
  zones: string[] | null;
  otherZones: boolean;
  abGroup: 'test' | 'rest' | null;
  expandedThrough: string;
}

/**
 * When a stage is due: at its moment; a `rest` stage also not before the winner is chosen
 * (`$gate`: the run's ab-tests winnerGate).
 */
const STAGE_DUE = (gate: string) => `CASE WHEN ab_group = 'rest' THEN greatest(at, ${gate}::timestamptz) ELSE at END`;

/** The run's earliest due stage not yet expanded, or null. */
export async function dueStage(db: Queryable, campaignId: string, gate: string): Promise<StageRow | null> {
  const { rows } = await db.query(
    `SELECT stage_no, zones, other_zones, ab_group, expanded_through::text FROM delivery.run_stages
      WHERE campaign_id = $1 AND NOT done AND ${STAGE_DUE('$2')} <= now()
      ORDER BY ${STAGE_DUE('$2')}, stage_no LIMIT 1`,
    [campaignId, gate],
  );
  const r = rows[0];
  return r ? { stageNo: r.stage_no, zones: r.zones, otherZones: r.other_zones, abGroup: r.ab_group, expandedThrough: r.expanded_through } : null;
}

/**
 * The run is next due when its next stage is (a throttled run not before its pace allows:
 * `intervalMs` after its last chunk). False, and nothing changed, when every stage is done.
 */
export async function scheduleNextStage(db: Queryable, campaignId: string, gate: string, intervalMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH next AS (SELECT min(${STAGE_DUE('$2')}) AS due FROM delivery.run_stages WHERE campaign_id = $1 AND NOT done)
     UPDATE delivery.campaign_runs r
        SET next_expand_at = greatest(next.due, CASE WHEN $3::float8 > 0 THEN r.next_expand_at + $3 * interval '1 millisecond' END)
       FROM next WHERE r.campaign_id = $1 AND next.due IS NOT NULL`,
    [campaignId, gate, intervalMs],
  );
  return (rowCount ?? 0) > 0;
}

export async function recordStage(db: Queryable, campaignId: string, stageNo: number, through: string, done: boolean): Promise<void> {
  await db.query(`UPDATE delivery.run_stages SET expanded_through = $3::bigint, done = $4 WHERE campaign_id = $1 AND stage_no = $2`, [
    campaignId,
    stageNo,
    through,
    done,
  ]);
}

/** The stage's conditions on `delivery.subscribers s`, ANDed to the audience query; parameters numbered from `firstParam`. */
export function stageSql(stage: StageRow, campaignId: string, ab: AbTest | undefined, firstParam: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  let sql = '';
  // Every name of the stage's zones: rows stored before zones were canonical go with their zone's group.
  if (stage.otherZones) sql += ` AND (s.time_zone IS NULL OR s.time_zone <> ALL(${p(zoneNames(stage.zones ?? []))}::text[]))`;
  else if (stage.zones !== null) sql += ` AND s.time_zone = ANY(${p(zoneNames(stage.zones))}::text[])`;
  if (stage.abGroup && ab) {
    sql += ` AND delivery.ab_bucket(${p(campaignId)}::uuid, s.id) ${stage.abGroup === 'test' ? '<' : '>='} ${p(testThreshold(ab.testPercent))}::int`;
  }
  return { sql, params };
}
