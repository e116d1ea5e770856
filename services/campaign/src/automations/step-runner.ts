// The automations' due-step runner (docs/api-decisions.md, "Automations"): claims due enrolments
// of active automations in batches (a throttled automation's at its pace: automation-store.ts,
// claimPaced) and sends the batch's steps as notifications made from their templates, one per
// (automation, step, values): a welcome's 1,000 people due together are ONE notification naming
// them all, each rendered with their own tags by the delivery service. The
// send keys (one per person, pointing at that notification), the notification rows, their outbox
// rows and the enrolments' next due times are written in one transaction. A crash anywhere before
// the commit leaves nothing of the batch (the rows are claimed again); after it, the steps are
// done and the keys refuse a second. Safe with any number of instances (SKIP LOCKED,
// shared/periodic.ts for one loop per process).
import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { notificationInputOf, storeNotification, type NotificationTemplateRenderer } from '../notifications/index.js';
import { ValidationError } from '../base/errors.js';
import { advance, claimDue, claimPaced, exitEnrolment, nextDue, recordSends, type DueStep } from './automation-store.js';

/** Bounds one tick, so a backlog cannot starve shutdown; a tick that hits it wakes the next at once. */
const MAX_BATCHES_PER_TICK = 50;
/**
 * The least wait for a step due ahead: the steps due within it go out together, in one
 * notification per group, rather than one pass (and notification) each when they are due a few
 * milliseconds apart (20,000 a minute are 3 ms apart). A step is at most this late for it.
 */
const GATHER_MS = 200;

export interface StepRunnerOptions {
  intervalMs: number;
  /** Due steps per transaction, at most 10,000 (a notification's most people). */
  batchSize: number;
}

/** The batch's steps by (automation, step, values): each group is one notification. */
function groupsOf(due: readonly DueStep[]): DueStep[][] {
  const groups = new Map<string, DueStep[]>();
  for (const d of due) {
    // Equal jsonb values are read back with their keys in one order, so equal values give equal keys.
    const key = JSON.stringify([d.automationId, d.step, d.variables]);
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  return [...groups.values()];
}

/**
 * One batch in the caller's transaction: claims up to `limit` due steps — the unthrottled
 * automations' first, by today's one statement, then what the throttled ones' pace allows (their
 * clocks advanced in this transaction) — and sends each group as
 * one notification, by POST /v2/notifications's own path for a `template` to people: the step's
 * template with `{...step.variables, ...the run's event properties}`, checked at creation (a
 * variable with no value stands as the person's tag) and rendered per person with their tags by
 * the delivery service. A group whose template is gone or cannot make a valid notification cannot
 * be sent: its people leave the series (`templateFailed`), counted as exits of that step.
 * Resolves to the steps claimed, the people sent to and the notifications made.
 */
export async function sendDueSteps(tx: Queryable, render: NotificationTemplateRenderer, limit: number): Promise<{ claimed: number; sent: number; notifications: number }> {
  const due = await claimDue(tx, limit);
  if (due.length < limit) due.push(...(await claimPaced(tx, limit - due.length)));
  const onward: DueStep[] = [];
  let sent = 0;
  let notifications = 0;
  for (const people of groupsOf(due)) {
    const { automationId, siteId, step, steps, variables } = people[0];
    const { templateId, variables: stepVariables } = steps[step];
    let input;
    try {
      // To the people, on each of their active subscriptions as the delivery service resolves
      // them when it takes the job (none left: the person's result is noSubscription). Not
      // transactional: the site's frequency cap holds a step back like any marketing message.
      input = await notificationInputOf(render, siteId, { externalIds: people.map((d) => d.externalId), template: { id: templateId, variables: { ...stepVariables, ...variables } } });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      for (const d of people) await exitEnrolment(tx, d, 'templateFailed');
      continue;
    }
    onward.push(...people);
    const notificationId = randomUUID();
    const keyed = await recordSends(tx, { automationId, step, notificationId, people });
    if (keyed.length === 0) continue;
    // When: the step's (docs/api-decisions.md, "Notifications", "Send time").
    const when = { sendTime: steps[step].sendTime ?? null, respectQuietHours: steps[step].respectQuietHours === true };
    await storeNotification(tx, siteId, { ...input, externalIds: keyed, ...when }, notificationId);
    sent += keyed.length;
    notifications++;
  }
  await advance(tx, onward);
  return { claimed: due.length, sent, notifications };
}

export function createStepRunner(deps: { pool: Pool; log: Logger; render: NotificationTemplateRenderer; onDispatched?: () => void }, opts: StepRunnerOptions) {
  let dueTimer: NodeJS.Timeout | undefined;

  /** Arms a wake at the earliest step ahead that may go (a throttled automation's at its clock), when it comes before the next interval's pass. */
  async function wakeAtNextDue(): Promise<void> {
    const next = await nextDue(deps.pool);
    if (!next || !loop.started()) return;
    const delayMs = next.getTime() - Date.now();
    if (delayMs >= opts.intervalMs) return;
    clearTimeout(dueTimer);
    dueTimer = setTimeout(loop.wake, Math.max(GATHER_MS, delayMs));
    dueTimer.unref();
  }

  async function tick(): Promise<number> {
    let total = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_TICK && !loop.stopping(); batch++) {
      const { claimed, sent } = await withTransaction(deps.pool, (tx) => sendDueSteps(tx, deps.render, opts.batchSize));
      total += sent;
      if (sent > 0) deps.onDispatched?.();
      if (claimed < opts.batchSize) {
        if (total > 0) deps.log.info('sent due automation steps', { count: total });
        await wakeAtNextDue();
        return total;
      }
    }
    loop.wake();
    return total;
  }

  const loop = createPeriodic(tick, { intervalMs: opts.intervalMs, firstPassDelayMs: 0, onError: (err) => deps.log.error('automation runner tick failed', { err }) });

  return {
    tick,
    /** An event or a welcome made a step due now: send it without waiting for the interval. */
    wake: () => loop.wake(),
    start: loop.start,
    async stop() {
      clearTimeout(dueTimer);
      await loop.stop();
      clearTimeout(dueTimer);
    },
  };
}
