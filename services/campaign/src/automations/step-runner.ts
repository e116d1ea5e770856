// The automations' due-step runner (docs/api-decisions.md, "Automations"): claims due enrolments
// of active automations in batches and, for each (automation, round, step, person), makes ONE
// notification — the send key, the notification row, its outbox row and the enrolment's next due
// time in one transaction. A crash anywhere before the commit leaves nothing of the batch (the
// rows are claimed again); after it, the step is done and the key refuses a second. Safe with any
// number of instances (SKIP LOCKED, shared/periodic.ts for one loop per process).
import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { DEFAULT_TTL_SECONDS, validateContentInput } from '../campaigns/index.js';
import { storeNotification } from '../notifications/index.js';
import type { TemplateRenderer } from '../templates/index.js';
import { ValidationError } from '../base/errors.js';
import { advance, claimDue, exitEnrolment, nextDue, recordSend, type DueStep } from './automation-store.js';

/** Bounds one tick, so a backlog cannot starve shutdown; a tick that hits it wakes the next at once. */
const MAX_BATCHES_PER_TICK = 50;

export interface StepRunnerOptions {
  intervalMs: number;
  batchSize: number;
}

/** The step's content: its template rendered with the step's variables and the starting event's properties (which win). */
async function contentOf(render: TemplateRenderer, d: DueStep) {
  const step = d.steps[d.step];
  const rendered = await render(d.siteId, { id: step.templateId, variables: { ...step.variables, ...d.variables } });
  return validateContentInput(rendered.content);
}

/**
 * Renders once per distinct (site, template, values) in a batch: the people of one step without
 * values of their own (a welcome series) share one read of the template instead of one each. A
 * refusal is remembered as such.
 */
function batchRenderer(render: TemplateRenderer) {
  const seen = new Map<string, Promise<ReturnType<typeof validateContentInput>>>();
  return (d: DueStep) => {
    const step = d.steps[d.step];
    const key = JSON.stringify([d.siteId, step.templateId, step.variables, d.variables]);
    let content = seen.get(key);
    if (!content) {
      content = contentOf(render, d);
      // Settled either way: a rejection is read by the step that awaits it, not left unhandled.
      content.catch(() => {});
      seen.set(key, content);
    }
    return content;
  };
}

/**
 * One batch in the caller's transaction: claims up to `limit` due steps and sends each. A step
 * whose template is gone or does not render (a variable with no value) cannot be sent: the person
 * leaves the series (`templateFailed`), counted as an exit of that step. Resolves to the
 * notifications made.
 */
export async function sendDueSteps(tx: Queryable, render: TemplateRenderer, limit: number): Promise<{ claimed: number; sent: number }> {
  const due = await claimDue(tx, limit);
  const contentFor = batchRenderer(render);
  let sent = 0;
  for (const d of due) {
    let content;
    try {
      content = await contentFor(d);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      await exitEnrolment(tx, d, 'templateFailed');
      continue;
    }
    const notificationId = randomUUID();
    if (await recordSend(tx, { automationId: d.automationId, externalId: d.externalId, round: d.round, step: d.step, notificationId })) {
      // To the person, on each of their active subscriptions as the delivery service resolves
      // them when it takes the job (none left: the result is noSubscription). Not transactional:
      // the site's frequency cap holds a step back like any marketing message. When: the step's.
      const step = d.steps[d.step];
      const when = { sendTime: step.sendTime ?? null, respectQuietHours: step.respectQuietHours === true };
      await storeNotification(tx, d.siteId, { subscriptionIds: [], externalIds: [d.externalId], content, ttl: DEFAULT_TTL_SECONDS, urgency: 'normal', transactional: false, template: null, ...when }, notificationId);
      sent++;
    }
    await advance(tx, d);
  }
  return { claimed: due.length, sent };
}

export function createStepRunner(deps: { pool: Pool; log: Logger; render: TemplateRenderer; onDispatched?: () => void }, opts: StepRunnerOptions) {
  let dueTimer: NodeJS.Timeout | undefined;

  /** Arms a wake at the earliest due step ahead, when it comes before the next interval's pass. */
  async function wakeAtNextDue(): Promise<void> {
    const next = await nextDue(deps.pool);
    if (!next || !loop.started()) return;
    const delayMs = next.getTime() - Date.now();
    if (delayMs >= opts.intervalMs) return;
    clearTimeout(dueTimer);
    dueTimer = setTimeout(loop.wake, Math.max(0, delayMs));
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
