// A staged run's stages (stages.ts plans them): delivery.run_stages, one row per stage with its
// moment, zones, A/B share and progress, and the conditions that narrow the audience to a stage.
import type { Queryable } from '@webpush/shared/db.js';
import { testThreshold, type AbTest } from '@webpush/contracts/ab-test.js';
import type { BestTime } from '@webpush/contracts/best-time.js';
import { zoneNames } from '@webpush/contracts/local-time.js';

export interface StagePlan {
  at: Date;
  /** Subscribers whose zone is one of these; null: every zone (unless otherZones). */
  zones: string[] | null;
  /** Instead: subscribers whose zone is none of `zones` (the site default's group). */
  otherZones: boolean;
  /** An A/B test's share: `test` (split between the variants) or `rest` (the winner); null without a test. */
  abGroup: 'test' | 'rest' | null;
  /** A best-time run's slot (-1: the holdout); null: not a best-time stage. */
  bestTimeSlot: number | null;
}

/** Stores a run's planned stages, numbered in order (once: a repeated dispatch finds them there). */
export async function insertStages(db: Queryable, campaignId: string, stages: readonly StagePlan[]): Promise<void> {
  await db.query(
    `INSERT INTO delivery.run_stages (campaign_id, stage_no, at, zones, other_zones, ab_group, best_time_slot)
     SELECT $1, n - 1, at, CASE WHEN z = 'null' THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(z)) END, other, grp, slot
       FROM unnest($2::timestamptz[], $3::jsonb[], $4::boolean[], $5::text[], $6::smallint[]) WITH ORDINALITY AS s(at, z, other, grp, slot, n)
     ON CONFLICT DO NOTHING`,
    [
      campaignId,
      stages.map((s) => s.at),
      stages.map((s) => JSON.stringify(s.zones)),
      stages.map((s) => s.otherZones),
      stages.map((s) => s.abGroup),
      stages.map((s) => s.bestTimeSlot),
    ],
  );
}

/** A run's stored stages, in order (none: not planned yet). */
export async function storedStages(db: Queryable, campaignId: string): Promise<StagePlan[]> {
  const { rows } = await db.query(`SELECT at, zones, other_zones, ab_group, best_time_slot FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [campaignId]);
  return rows.map((r) => ({ at: r.at, zones: r.zones, otherZones: r.other_zones, abGroup: r.ab_group, bestTimeSlot: r.best_time_slot }));
}

export interface StageRow {
  stageNo: number;
  zones: string[] | null;
  otherZones: boolean;
  abGroup: 'test' | 'rest' | null;
  bestTimeSlot: number | null;
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
    `SELECT stage_no, zones, other_zones, ab_group, best_time_slot, expanded_through::text FROM delivery.run_stages
      WHERE campaign_id = $1 AND NOT done AND ${STAGE_DUE('$2')} <= now()
      ORDER BY ${STAGE_DUE('$2')}, stage_no LIMIT 1`,
    [campaignId, gate],
  );
  const r = rows[0];
  return r
    ? { stageNo: r.stage_no, zones: r.zones, otherZones: r.other_zones, abGroup: r.ab_group, bestTimeSlot: r.best_time_slot, expandedThrough: r.expanded_through }
    : null;
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
export function stageSql(stage: StageRow, campaignId: string, ab: AbTest | undefined, bestTime: BestTime | undefined, firstParam: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  let sql = '';
  // Every name of the stage's zones: rows stored before zones were canonical go with their zone's group.
  if (stage.otherZones) sql += ` AND (s.time_zone IS NULL OR s.time_zone <> ALL(${p(zoneNames(stage.zones ?? []))}::text[]))`;
  else if (stage.zones !== null) sql += ` AND s.time_zone = ANY(${p(zoneNames(stage.zones))}::text[])`;
  // A best-time slot: the subscribers frozen in it; one who joined after the plan goes with the last slot.
  if (stage.bestTimeSlot !== null && bestTime) {
    sql += ` AND coalesce((SELECT b.slot FROM delivery.best_time_slots b WHERE b.campaign_id = ${p(campaignId)}::uuid AND b.subscriber_id = s.id), ${p(bestTime.withinHours - 1)}::smallint) = ${p(stage.bestTimeSlot)}::smallint`;
  }
  if (stage.abGroup && ab) {
    sql += ` AND delivery.ab_bucket(${p(campaignId)}::uuid, s.id) ${stage.abGroup === 'test' ? '<' : '>='} ${p(testThreshold(ab.testPercent))}::int`;
  }
  return { sql, params };
}
