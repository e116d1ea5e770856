// The automations' SQL (campaign.automations, automation_enrolments, automation_sends;
// migrations/20261208010000_automations.sql). Every statement of the API's names the site; the
// runner's claim names none (it serves every site) and checks the automation is active in the
// statement that claims.
import type { Queryable } from '@webpush/shared/db.js';
import type { AutomationInput, AutomationStatus, AutomationUpdate, ExitOn, Step, Trigger } from './automation-input.js';

export interface AutomationRow {
  id: string;
  siteId: string;
  name: string;
  status: AutomationStatus;
  trigger: Trigger;
  steps: Step[];
  exitOn: ExitOn;
  throttlePerMinute: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** The list's position: created_at as microsecond text. */
  sortKey: string;
}

const COLUMNS = `id, site_id, name, status, trigger_type, trigger_event, trigger_value, steps, exit_on, throttle_per_minute, created_at, updated_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

function triggerOf(r: Record<string, any>): Trigger {
  if (r.trigger_type === 'event') return { type: 'event', name: r.trigger_event };
  if (r.trigger_type === 'tag') return r.trigger_value === null ? { type: 'tag', name: r.trigger_event } : { type: 'tag', name: r.trigger_event, value: r.trigger_value };
  return { type: 'subscribed' };
}

const rowOf = (r: Record<string, any>): AutomationRow => ({
  id: r.id,
  siteId: r.site_id,
  name: r.name,
  status: r.status,
  trigger: triggerOf(r),
  steps: r.steps,
  // An automation stored before `click` existed exits on a click like any created without it.
  exitOn: { events: r.exit_on.events, click: r.exit_on.click ?? true },
  throttlePerMinute: r.throttle_per_minute,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  sortKey: r.sort_key,
});

export async function insertAutomation(db: Queryable, siteId: string, a: AutomationInput): Promise<AutomationRow> {
  const { rows } = await db.query(
    `INSERT INTO campaign.automations (site_id, name, status, trigger_type, trigger_event, trigger_value, steps, exit_on, throttle_per_minute)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9) RETURNING ${COLUMNS}`,
    [
      siteId,
      a.name,
      a.status,
      a.trigger.type,
      a.trigger.type === 'subscribed' ? null : a.trigger.name,
      a.trigger.type === 'tag' && a.trigger.value !== undefined ? JSON.stringify(a.trigger.value) : null,
      JSON.stringify(a.steps),
      JSON.stringify(a.exitOn),
      a.throttlePerMinute,
    ],
  );
  return rowOf(rows[0]);
}

export async function automationById(db: Queryable, siteId: string, id: string): Promise<AutomationRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM campaign.automations WHERE id = $1 AND site_id = $2`, [id, siteId]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/** Up to `limit` + 1 automations, newest first, after `after`. */
export async function listAutomations(db: Queryable, siteId: string, limit: number, after: { sortKey: string; id: string } | null): Promise<AutomationRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM campaign.automations
      WHERE site_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [siteId, after?.sortKey ?? null, after?.id ?? null, limit + 1],
  );
  return rows.map(rowOf);
}

/**
 * The fields given, changed (a throttle given as null is removed; its clock stays, never read
 * while unthrottled and never a burst when throttled again: the pace starts from now at the
 * earliest). Its row lock waits for a runner's batch that holds the automation (the claim's FOR
 * SHARE, a throttled claim's FOR NO KEY UPDATE), so once a pause has answered, nothing more of it
 * is sent.
 */
export async function updateAutomation(db: Queryable, siteId: string, id: string, change: AutomationUpdate): Promise<AutomationRow | null> {
  const { rows } = await db.query(
    `UPDATE campaign.automations SET name = COALESCE($3, name), status = COALESCE($4, status),
            throttle_per_minute = CASE WHEN $5 THEN $6::int ELSE throttle_per_minute END, updated_at = now()
      WHERE id = $1 AND site_id = $2 RETURNING ${COLUMNS}`,
    [id, siteId, change.name ?? null, change.status ?? null, change.throttlePerMinute !== undefined, change.throttlePerMinute ?? null],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/** With its enrolments and send keys (the cascade); the same wait for a runner's batch as an update. */
export async function deleteAutomation(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM campaign.automations WHERE id = $1 AND site_id = $2`, [id, siteId]);
  return rowCount === 1;
}

export interface StepResults {
  /** People the step was sent to (a send row each). */
  sent: number;
  /** People who left the series while this step was their next. */
  exits: number;
  /** The step's notifications' impressions and clicks (stats/, kept as each notification's grew). */
  impressions: number;
  clicks: number;
}

export interface AutomationResults {
  /** Per step index. */
  steps: StepResults[];
  enrolments: { active: number; completed: number; exited: number };
}

export async function automationResults(db: Queryable, id: string, stepCount: number): Promise<AutomationResults> {
  const [sent, enrolments, tracked] = await Promise.all([
    db.query(`SELECT step, count(*)::int AS n FROM campaign.automation_sends WHERE automation_id = $1 GROUP BY step`, [id]),
    db.query(`SELECT state, next_step, count(*)::int AS n FROM campaign.automation_enrolments WHERE automation_id = $1 GROUP BY state, next_step`, [id]),
    db.query(`SELECT step, impressions::text, clicks::text FROM campaign.automation_step_stats WHERE automation_id = $1`, [id]),
  ]);
  const steps = Array.from({ length: stepCount }, () => ({ sent: 0, exits: 0, impressions: 0, clicks: 0 }));
  for (const r of sent.rows) if (steps[r.step]) steps[r.step].sent = r.n;
  for (const r of tracked.rows) if (steps[r.step]) Object.assign(steps[r.step], { impressions: Number(r.impressions), clicks: Number(r.clicks) });
  const counts = { active: 0, completed: 0, exited: 0 };
  for (const r of enrolments.rows) {
    counts[r.state as keyof typeof counts] += r.n;
    if (r.state === 'exited' && steps[r.next_step]) steps[r.next_step].exits += r.n;
  }
  return { steps, enrolments: counts };
}

/** An event of a person, as POST /v2/events gives it. */
export interface EventToApply {
  siteId: string;
  externalId: string;
  name: string;
  properties: Record<string, string | number>;
}

/**
 * Events of different people, each person once (the caller splits repeats into later calls, in
 * their order): first each person leaves the active series whose exit events name their event,
 * then the site's active automations the event triggers start for them — again, from the first
 * step, when an earlier run of theirs has ended; not while one is under way (a second
 * cart_abandoned does not restart the hour). Two statements for the lot. Answers whether a run
 * started with its first step due at once (no delay).
 */
export async function applyEvents(db: Queryable, events: readonly EventToApply[]): Promise<boolean> {
  if (events.length === 0) return false;
  const sites = events.map((e) => e.siteId);
  const people = events.map((e) => e.externalId);
  const names = events.map((e) => e.name);
  await db.query(
    `UPDATE campaign.automation_enrolments e SET state = 'exited', exit_reason = 'event', updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::text[]) AS x(site_id, external_id, name), campaign.automations a
      WHERE a.site_id = x.site_id AND a.exit_on -> 'events' ? x.name
        AND e.automation_id = a.id AND e.external_id = x.external_id AND e.state = 'active'`,
    [sites, people, names],
  );
  const { rows } = await db.query(
    `INSERT INTO campaign.automation_enrolments AS e (automation_id, external_id, due_at, state, variables)
     SELECT a.id, x.external_id, now() + make_interval(secs => (a.steps -> 0 ->> 'delaySeconds')::int), 'active', x.variables
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[]) AS x(site_id, external_id, name, variables)
       JOIN campaign.automations a ON a.site_id = x.site_id AND a.trigger_type = 'event' AND a.trigger_event = x.name AND a.status = 'active'
     ON CONFLICT (automation_id, external_id) DO UPDATE
       SET round = e.round + 1, next_step = 0, due_at = EXCLUDED.due_at, state = 'active', exit_reason = NULL,
           variables = EXCLUDED.variables, enrolled_at = now(), updated_at = now()
       WHERE e.state <> 'active'
     RETURNING e.due_at <= now() AS due_now`,
    [sites, people, names, events.map((e) => JSON.stringify(e.properties))],
  );
  return rows.some((r) => r.due_now);
}

/**
 * A person's subscription made at `subscribedAt` was identified: they start the site's active
 * welcome automations created before it — once per person ever (the enrolment's key), however
 * often the fact arrives. Answers how many started.
 */
export async function enrolSubscribed(db: Queryable, siteId: string, externalId: string, subscribedAt: Date): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO campaign.automation_enrolments (automation_id, external_id, due_at, state)
     SELECT a.id, $2, now() + make_interval(secs => (a.steps -> 0 ->> 'delaySeconds')::int), 'active'
       FROM campaign.automations a
      WHERE a.site_id = $1 AND a.trigger_type = 'subscribed' AND a.status = 'active' AND a.created_at <= $3
     ON CONFLICT (automation_id, external_id) DO NOTHING`,
    [siteId, externalId, subscribedAt],
  );
  return rowCount ?? 0;
}

export interface DueStep {
  automationId: string;
  siteId: string;
  externalId: string;
  round: number;
  step: number;
  steps: Step[];
  variables: Record<string, string | number>;
  dueAt: Date;
}

const DUE_STEP = `e.automation_id, a.site_id, e.external_id, e.round, e.next_step, a.steps, e.variables, e.due_at`;
const dueStepOf = (r: Record<string, any>): DueStep => ({ automationId: r.automation_id, siteId: r.site_id, externalId: r.external_id, round: r.round, step: r.next_step, steps: r.steps, variables: r.variables, dueAt: r.due_at });

/**
 * Up to `limit` due enrolments of active unthrottled automations, locked until the caller's
 * transaction ends: SKIP LOCKED lets runners share the work (one never waits for another's rows),
 * and the share lock on the automation makes a pause or delete wait for the batch, never the other
 * way round. A throttled automation's steps are claimPaced's.
 */
export async function claimDue(tx: Queryable, limit: number): Promise<DueStep[]> {
  const { rows } = await tx.query(
    `SELECT ${DUE_STEP}
       FROM campaign.automation_enrolments e JOIN campaign.automations a ON a.id = e.automation_id
      WHERE e.state = 'active' AND e.due_at <= now() AND a.status = 'active' AND a.throttle_per_minute IS NULL
      ORDER BY e.due_at
      LIMIT $1
      FOR UPDATE OF e SKIP LOCKED
      FOR SHARE OF a`,
    [limit],
  );
  return rows.map(dueStepOf);
}

/**
 * How many steps a throttled automation `a` may send now (docs/api-decisions.md, "Automations",
 * "Throttling"). Each step takes a slot of 60 s ÷ its rate on its clock (`paced_until`, the end of
 * the slots taken), which never starts in the past (time not used is not made up); a step may go
 * when its slot ends within the next second — or within one slot, when a slot is longer — so a
 * pass takes about a second's worth and at least one step:
 * floor((now − greatest(clock, now)) × rate ÷ 60 s + max(rate ÷ 60, 1)), written with its one
 * division last (numeric: a rate of 7 is one step, not 0.9999…).
 */
const ALLOWANCE = `floor((extract(epoch FROM now() - greatest(a.paced_until, now())) * a.throttle_per_minute + greatest(a.throttle_per_minute, 60)) / 60)::int`;

/**
 * Up to `limit` due steps of active throttled automations, each automation's at most its
 * allowance, oldest due first. The automation's row is locked (FOR NO KEY UPDATE: it does not
 * hold back an event's or a send's foreign-key check as FOR UPDATE would; SKIP LOCKED: an
 * automation another runner is pacing is its) from reading its clock to advancing it in the
 * caller's transaction, so runners together never take more than the pace allows; a locked row is
 * read as its last committed version (a runner that committed just before is seen). One
 * automation at a time, so none is locked that this batch does not serve.
 */
export async function claimPaced(tx: Queryable, limit: number): Promise<DueStep[]> {
  const due: DueStep[] = [];
  const served: string[] = [];
  while (due.length < limit) {
    const { rows: paced } = await tx.query(
      `SELECT a.id, x.allowance
         FROM campaign.automations a CROSS JOIN LATERAL (SELECT ${ALLOWANCE} AS allowance) x
        WHERE a.status = 'active' AND a.throttle_per_minute IS NOT NULL AND x.allowance >= 1 AND a.id <> ALL($1::uuid[])
          AND EXISTS (SELECT 1 FROM campaign.automation_enrolments e WHERE e.automation_id = a.id AND e.state = 'active' AND e.due_at <= now())
        ORDER BY a.paced_until NULLS FIRST
        LIMIT 1
        FOR NO KEY UPDATE OF a SKIP LOCKED`,
      [served],
    );
    if (paced.length === 0) break;
    const { id, allowance } = paced[0];
    served.push(id);
    // Its own due steps by the (automation_id, due_at) index; rows another transaction holds (an
    // exit being written) are skipped and take no slot.
    const { rows } = await tx.query(
      `SELECT ${DUE_STEP}
         FROM campaign.automation_enrolments e JOIN campaign.automations a ON a.id = e.automation_id
        WHERE e.automation_id = $1 AND e.state = 'active' AND e.due_at <= now()
        ORDER BY e.due_at
        LIMIT $2
        FOR UPDATE OF e SKIP LOCKED`,
      [id, Math.min(allowance, limit - due.length)],
    );
    if (rows.length === 0) continue;
    await tx.query(`UPDATE campaign.automations SET paced_until = greatest(paced_until, now()) + make_interval(secs => $2 * 60.0 / throttle_per_minute) WHERE id = $1`, [id, rows.length]);
    due.push(...rows.map(dueStepOf));
  }
  return due;
}

/**
 * The send keys of `people` (one automation's step, each person with their round) pointing at
 * notification `notificationId`: one statement for the group. Answers the people keyed now, in
 * `people`'s order; one whose (automation, person, round, step) has its notification already is
 * left out.
 */
export async function recordSends(tx: Queryable, s: { automationId: string; step: number; notificationId: string; people: readonly { externalId: string; round: number }[] }): Promise<string[]> {
  const { rows } = await tx.query(
    `INSERT INTO campaign.automation_sends (automation_id, external_id, round, step, notification_id)
     SELECT $1, p.external_id, p.round, $2, $3 FROM unnest($4::text[], $5::int[]) AS p(external_id, round)
     ON CONFLICT DO NOTHING RETURNING external_id`,
    [s.automationId, s.step, s.notificationId, s.people.map((p) => p.externalId), s.people.map((p) => p.round)],
  );
  const keyed = new Set(rows.map((r) => r.external_id as string));
  return s.people.filter((p) => keyed.has(p.externalId)).map((p) => p.externalId);
}

/**
 * Each enrolment on to its next step, `delaySeconds` after this one was due (a series keeps its
 * days however late a send was); or completed after its last. One statement for a batch.
 */
export async function advance(tx: Queryable, due: readonly DueStep[]): Promise<void> {
  if (due.length === 0) return;
  // The next step's delay, or null: this was the last step.
  const delays = due.map((d) => d.steps[d.step + 1]?.delaySeconds ?? null);
  await tx.query(
    `UPDATE campaign.automation_enrolments e
        SET next_step = e.next_step + 1,
            due_at = CASE WHEN x.delay IS NULL THEN e.due_at ELSE e.due_at + make_interval(secs => x.delay) END,
            state = CASE WHEN x.delay IS NULL THEN 'completed' ELSE e.state END,
            updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::int[]) AS x(automation_id, external_id, delay)
      WHERE e.automation_id = x.automation_id AND e.external_id = x.external_id`,
    [due.map((d) => d.automationId), due.map((d) => d.externalId), delays],
  );
}

/** The person leaves the series (a step that cannot be sent: `reason`). */
export async function exitEnrolment(tx: Queryable, d: DueStep, reason: string): Promise<void> {
  await tx.query(`UPDATE campaign.automation_enrolments SET state = 'exited', exit_reason = $3, updated_at = now() WHERE automation_id = $1 AND external_id = $2`, [d.automationId, d.externalId, reason]);
}

/**
 * The earliest time ahead a step of an active automation may be sent (null when none): the runner
 * wakes at it. For the unthrottled, the first row of the due-time index that is of one, not min()
 * over the join, which reads every active enrolment (a million: a third of a second, every pass);
 * for each throttled one, its first due step or its clock, whichever is later (when the clock
 * comes, a second's worth may go: claimPaced's ALLOWANCE). One without active enrolments has no
 * time, so an idle throttled automation's clock wakes nobody.
 */
export async function nextDue(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query(
    `SELECT least(
       (SELECT e.due_at FROM campaign.automation_enrolments e JOIN campaign.automations a ON a.id = e.automation_id
         WHERE e.state = 'active' AND a.status = 'active' AND a.throttle_per_minute IS NULL ORDER BY e.due_at LIMIT 1),
       (SELECT min((SELECT greatest(e.due_at, a.paced_until) FROM campaign.automation_enrolments e
                     WHERE e.automation_id = a.id AND e.state = 'active' ORDER BY e.due_at LIMIT 1))
          FROM campaign.automations a WHERE a.status = 'active' AND a.throttle_per_minute IS NOT NULL)
     ) AS next`,
  );
  return rows[0]?.next ?? null;
}

// ---- people's signals from the delivery service (delivery.people.v1; docs/api-decisions.md,
// "Automations", "People's signals"). Each is idempotent: a signal published twice changes
// nothing the first did not, but a tag set again after a run ended (a new run, like an event).

/** The person's active runs of the site end with `reason` (`unsubscribed`: their last subscription ended). Answers how many. */
export async function exitPersonRuns(db: Queryable, siteId: string, externalId: string, reason: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE campaign.automation_enrolments e SET state = 'exited', exit_reason = $3, updated_at = now()
       FROM campaign.automations a
      WHERE a.id = e.automation_id AND a.site_id = $1 AND e.external_id = $2 AND e.state = 'active'`,
    [siteId, externalId, reason],
  );
  return rowCount ?? 0;
}

/**
 * The person clicked `notificationId`: the run that sent it exits (`clicked`) — only that
 * automation's, only if it exits on a click, and only while it is still the round that sent it
 * (a run started again since is not ended by an old notification's click). Answers how many (0 or 1).
 */
export async function exitOnClick(db: Queryable, siteId: string, notificationId: string, externalId: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE campaign.automation_enrolments e SET state = 'exited', exit_reason = 'clicked', updated_at = now()
       FROM campaign.automation_sends s JOIN campaign.automations a ON a.id = s.automation_id
      WHERE s.notification_id = $2 AND s.external_id = $3 AND a.site_id = $1 AND coalesce((a.exit_on ->> 'click')::boolean, true)
        AND e.automation_id = s.automation_id AND e.external_id = s.external_id AND e.round = s.round AND e.state = 'active'`,
    [siteId, notificationId, externalId],
  );
  return rowCount ?? 0;
}

/**
 * The person was deleted (the privacy delete): their runs go (nothing more is sent), their send
 * keys keep the counts but name nobody — the id becomes one no person can have (a control
 * character and a random UUID, unique as the key needs: a step's notification may be shared by
 * many people) — and the site's notifications
 * that named them name '' in their place, as the delivery service's targets do.
 */
export async function forgetPerson(db: Queryable, siteId: string, externalId: string): Promise<void> {
  // The runs first: a runner's batch holding one is waited for, and what it sent is then scrubbed below.
  await db.query(
    `DELETE FROM campaign.automation_enrolments e USING campaign.automations a
      WHERE a.id = e.automation_id AND a.site_id = $1 AND e.external_id = $2`,
    [siteId, externalId],
  );
  await db.query(
    `UPDATE campaign.automation_sends s SET external_id = chr(1) || gen_random_uuid()::text
       FROM campaign.automations a
      WHERE a.id = s.automation_id AND a.site_id = $1 AND s.external_id = $2`,
    [siteId, externalId],
  );
  await db.query(
    `UPDATE campaign.notifications SET external_ids = array_replace(external_ids, $2, '')
      WHERE site_id = $1 AND cardinality(external_ids) > 0 AND external_ids @> ARRAY[$2]`,
    [siteId, externalId],
  );
}

/**
 * The person's tags changed (`tags`: the new values): the site's active tag automations on one of
 * them whose value matches (or that take any value) start for them — from the first step when a
 * run of theirs ended, not while one is under way. Answers how many started.
 */
export async function enrolTagged(db: Queryable, siteId: string, externalId: string, tags: Record<string, string | number | boolean>): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO campaign.automation_enrolments AS e (automation_id, external_id, due_at, state)
     SELECT a.id, $2, now() + make_interval(secs => (a.steps -> 0 ->> 'delaySeconds')::int), 'active'
       FROM campaign.automations a JOIN jsonb_each($3::jsonb) AS t(name, value) ON t.name = a.trigger_event
      WHERE a.site_id = $1 AND a.trigger_type = 'tag' AND a.status = 'active' AND (a.trigger_value IS NULL OR a.trigger_value = t.value)
     ON CONFLICT (automation_id, external_id) DO UPDATE
       SET round = e.round + 1, next_step = 0, due_at = EXCLUDED.due_at, state = 'active', exit_reason = NULL,
           variables = '{}', enrolled_at = now(), updated_at = now()
       WHERE e.state <> 'active'`,
    [siteId, externalId, JSON.stringify(tags)],
  );
  return rowCount ?? 0;
}

/** The automation's exited people by why they left (`event`, `clicked`, `unsubscribed`, `templateFailed`). */
export async function exitReasons(db: Queryable, id: string): Promise<Record<string, number>> {
  const { rows } = await db.query(
    `SELECT exit_reason, count(*)::int AS n FROM campaign.automation_enrolments WHERE automation_id = $1 AND state = 'exited' GROUP BY exit_reason ORDER BY exit_reason`,
    [id],
  );
  return Object.fromEntries(rows.map((r) => [r.exit_reason ?? 'unknown', r.n]));
}
