// Runs expanded in stages, each due at its own moment: a campaign sent at the subscribers' local
// time (one stage per zone group, packages/contracts/src/local-time.ts), with an A/B test (each
// group's test share, then its rest once the winner is chosen, packages/contracts/src/ab-test.ts),
// or throttled (one stage, paced). The plan is made once, when the dispatch is taken, from the
// audience's zones at that moment; the pacer (pacer.ts) expands the due stages. Progress is
// stored per stage, so a restart resumes each where it stopped and no stage is sent twice.
import type { Queryable } from '@webpush/shared/db.js';
import { bestVariant, testThreshold, type AbTest, type AbWinner, type VariantResult } from '@webpush/contracts/ab-test.js';
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
 * (`$gate`: -infinity once chosen, else the end of the test window, infinity before it starts).
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

/** The gate parameter of a run (STAGE_DUE). */
export function winnerGate(winner: AbWinner | null, windowEndsAt: Date | null): string {
  if (winner) return '-infinity';
  return windowEndsAt ? windowEndsAt.toISOString() : 'infinity';
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

/** Each variant's pushes sent, impressions and clicks within the test share (every variant listed). */
export async function variantResults(db: Queryable, campaignId: string, ab: AbTest): Promise<VariantResult[]> {
  const threshold = testThreshold(ab.testPercent);
  const { rows } = await db.query(
    `WITH test AS (
       SELECT subscriber_id, (state = 'sent')::int AS sent, 0 AS imp, 0 AS clk FROM delivery.delivery_log
        WHERE campaign_id = $1 AND delivery.ab_bucket($1, subscriber_id) < $2
       UNION ALL
       SELECT subscriber_id, 0, (kind = 'impression')::int, (kind = 'click')::int FROM delivery.tracking
        WHERE campaign_id = $1 AND delivery.ab_bucket($1, subscriber_id) < $2)
     SELECT (delivery.ab_bucket($1, subscriber_id)::bigint * $3 / $2)::int AS variant,
            sum(sent)::int AS sent, sum(imp)::int AS impressions, sum(clk)::int AS clicks
       FROM test GROUP BY 1`,
    [campaignId, threshold, ab.variants.length],
  );
  const found = new Map(rows.map((r) => [r.variant as number, r]));
  return ab.variants.map((_, variant) => {
    const r = found.get(variant);
    return { variant, sent: r?.sent ?? 0, impressions: r?.impressions ?? 0, clicks: r?.clicks ?? 0 };
  });
}

/**
 * Starts a test's window (`windowMinutes` from now) unless it has started: at the test share's
 * first push, by the chunk worker, so a test whose first chunks waited in a busy consumer still
 * gets its whole window; by the pacer when the test share has no one to send to.
 */
export async function startTestWindow(db: Queryable, campaignId: string, windowMinutes: number): Promise<Date | null> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs SET ab_window_ends_at = coalesce(ab_window_ends_at, now() + $2 * interval '1 minute')
      WHERE campaign_id = $1 RETURNING ab_window_ends_at`,
    [campaignId, windowMinutes],
  );
  return rows[0]?.ab_window_ends_at ?? null;
}

/**
 * Chooses the winner of every test whose window has ended without one (at most `limit`), by its
 * metric over the variants' results; an expanding run's rest stages become due at once.
 */
export async function decideEndedTests(db: Queryable, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT campaign_id, job FROM delivery.campaign_runs
      WHERE ab_winner IS NULL AND ab_window_ends_at <= now()
      ORDER BY ab_window_ends_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  const decided: string[] = [];
  for (const r of rows) {
    const ab = (r.job as DispatchMessage).abTest;
    if (!ab) continue;
    const results = await variantResults(db, r.campaign_id, ab);
    await setWinner(db, r.campaign_id, bestVariant(results, ab.winnerMetric), 'metric', results);
    decided.push(r.campaign_id);
  }
  return decided;
}

/** Records a winner unless one is already chosen; answers the run's winner (null: no such run with a test). */
export async function setWinner(db: Queryable, campaignId: string, variant: number, by: AbWinner['by'], results?: VariantResult[]): Promise<AbWinner | null> {
  const { rows } = await db.query(
    `UPDATE delivery.campaign_runs
        SET ab_winner = coalesce(ab_winner, jsonb_build_object('variant', $2::int, 'decidedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'by', $3::text)),
            ab_results = CASE WHEN ab_winner IS NULL AND $4::jsonb IS NOT NULL THEN $4::jsonb ELSE ab_results END,
            next_expand_at = CASE WHEN state = 'expanding' AND ab_winner IS NULL THEN now() ELSE next_expand_at END
      WHERE campaign_id = $1 RETURNING ab_winner`,
    [campaignId, variant, by, results ? JSON.stringify(results) : null],
  );
  return rows[0]?.ab_winner ?? null;
}

/** The API's answers when a winner cannot be picked (docs/api-decisions.md "A/B tests"). */
export const PICK_REFUSED = {
  notStarted: 'The A/B test has not started',
  chosen: 'The winner has already been chosen',
} as const;

/**
 * The customer's pick of a test's winner, while the test runs and no winner is chosen: the rest
 * stages become due at once. Answers the winner, or why not (PICK_REFUSED).
 */
export async function pickWinner(tx: Queryable, siteId: string, campaignId: string, variant: number): Promise<AbWinner | { refused: string }> {
  const { rows } = await tx.query(
    `SELECT ab_winner, ab_window_ends_at FROM delivery.campaign_runs WHERE campaign_id = $1 AND site_id = $2 AND job ? 'abTest' FOR UPDATE`,
    [campaignId, siteId],
  );
  if (!rows[0] || rows[0].ab_window_ends_at === null) return { refused: PICK_REFUSED.notStarted };
  if (rows[0].ab_winner !== null) return { refused: PICK_REFUSED.chosen };
  return (await setWinner(tx, campaignId, variant, 'customer')) as AbWinner;
}
