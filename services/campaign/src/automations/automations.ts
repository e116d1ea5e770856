// /v2/automations and POST /v2/events (docs/api-decisions.md, "Automations"): a site's automations
// created (each step a stored template of the site, checked in the create's transaction), listed
// newest first with signed cursors, read with each step's results, paused or resumed, renamed and
// deleted; an event starts and ends people's runs. Another site's id, a random id and a malformed
// id are all "Automation not found"; a refused call writes nothing.
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY } from '@webpush/shared/api-texts.js';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { PeopleMessage } from '@webpush/contracts/messages.js';
import { findFreshKey, listingPage, type CursorCodec, type ListingPage } from '../campaigns/index.js';
import { templateById } from '../templates/index.js';
import { canonicalJson, sha256Hex } from '../base/canonical-json.js';
import { formatUtcDate } from '../base/dates.js';
import { IdempotencyConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { parseObjectBody } from '../base/request-body.js';
import { fill, MESSAGES } from '../base/texts.js';
import { createEventWriter } from './event-writer.js';
import { validateAutomationInput, validateAutomationUpdate, validateEventInput, type AutomationStatus, type ExitOn, type Step, type Trigger } from './automation-input.js';
import { automationById, enrolSubscribed, automationResults, deleteAutomation, insertAutomation, listAutomations, updateAutomation, type AutomationRow, type StepResults } from './automation-store.js';
import { enrolTagged, exitOnClick, exitPersonRuns, exitReasons, forgetPerson } from './automation-store.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export interface Automation {
  id: string;
  name: string;
  status: AutomationStatus;
  trigger: Trigger;
  /** Each with its results when read by id (GetAutomation). */
  steps: (Step & { results?: StepResults })[];
  exitOn: ExitOn;
  /** At most this many of its due steps (people) sent a minute; null: no limit. */
  throttlePerMinute: number | null;
  /** GetAutomation only: people by where they are, the exited by why they left (`exitReasons`: a reason with none is absent). */
  enrolments?: { active: number; completed: number; exited: number; exitReasons: Record<string, number> };
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  createdAt: string;
  updatedAt: string;
}

export type AutomationPage = ListingPage<Automation>;

const automationOf = (row: AutomationRow): Automation => ({
  id: row.id,
  name: row.name,
  status: row.status,
  trigger: row.trigger,
  steps: row.steps,
  exitOn: row.exitOn,
  throttlePerMinute: row.throttlePerMinute,
  createdAt: formatUtcDate(row.createdAt),
  updatedAt: formatUtcDate(row.updatedAt),
});

function limitOf(raw: string): number {
  if (raw === '') return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new ValidationError([MESSAGES.limitPositive]);
  return Math.min(n, MAX_LIMIT);
}

export function automationUseCases(deps: { pool: Pool; cursors: CursorCodec; onStepsDue?: () => void }) {
  const { pool, cursors } = deps;
  const writeEvent = createEventWriter(pool, deps.onStepsDue);
  const notFound = () => new NotFoundError(MESSAGES.automationNotFound);

  async function withResults(row: AutomationRow): Promise<Automation> {
    const [results, reasons] = await Promise.all([automationResults(pool, row.id, row.steps.length), exitReasons(pool, row.id)]);
    const a = automationOf(row);
    return { ...a, steps: a.steps.map((s, i) => ({ ...s, results: results.steps[i] })), enrolments: { ...results.enrolments, exitReasons: reasons } };
  }

  return {
    async createAutomation(siteId: string, bodyJson: string): Promise<Automation> {
      const input = validateAutomationInput(parseObjectBody(bodyJson, false));
      if (!isUuid(siteId)) throw new UnauthenticatedError();
      const row = await withTransaction(pool, async (tx) => {
        const missing: string[] = [];
        for (const [i, step] of input.steps.entries()) if (!(await templateById(tx, siteId, step.templateId))) missing.push(fill(MESSAGES.automationStepTemplate, { i: String(i) }));
        if (missing.length > 0) throw new ValidationError(missing);
        return insertAutomation(tx, siteId, input);
      });
      return withResults(row);
    },

    async listAutomations(siteId: string, limitText: string, cursor: string): Promise<AutomationPage> {
      const limit = limitOf(limitText);
      return listingPage(cursors, siteId, 'automations', limit, cursor, (after) => listAutomations(pool, siteId, limit, after), automationOf);
    },

    async getAutomation(siteId: string, id: string): Promise<Automation> {
      const row = isUuid(id) && isUuid(siteId) ? await automationById(pool, siteId, id) : null;
      if (!row) throw notFound();
      return withResults(row);
    },

    async updateAutomation(siteId: string, id: string, bodyJson: string): Promise<Automation> {
      const change = validateAutomationUpdate(parseObjectBody(bodyJson, false));
      const row = isUuid(id) && isUuid(siteId) ? await updateAutomation(pool, siteId, id, change) : null;
      if (!row) throw notFound();
      return withResults(row);
    },

    async deleteAutomation(siteId: string, id: string): Promise<{ id: string }> {
      if (!isUuid(id) || !isUuid(siteId) || !(await deleteAutomation(pool, siteId, id))) throw notFound();
      return { id };
    },

    /**
     * People's signals from the delivery service (Kafka, delivery.people.v1), in their order: an
     * identified subscription starts welcomes, a changed tag tag automations; a click ends the run
     * that sent the notification, a last subscription ended ends the person's runs, a privacy
     * delete removes them (automation-store's "people's signals").
     */
    async applyPeopleSignals(messages: PeopleMessage[]): Promise<void> {
      let started = 0;
      for (const m of messages) {
        if (m.type === 'person.subscribed') started += await enrolSubscribed(pool, m.siteId, m.externalId, new Date(m.subscribedAt));
        else if (m.type === 'person.tagged') started += await enrolTagged(pool, m.siteId, m.externalId, m.tags);
        else if (m.type === 'notification.clicked') await exitOnClick(pool, m.siteId, m.notificationId, m.externalId);
        else if (m.type === 'person.unsubscribed') await exitPersonRuns(pool, m.siteId, m.externalId, 'unsubscribed');
        else await withTransaction(pool, (tx) => forgetPerson(tx, m.siteId, m.externalId));
      }
      if (started > 0) deps.onStepsDue?.();
    },

    /**
     * POST /v2/events: the person leaves the runs the event ends and starts the automations it
     * triggers, in one transaction with the Idempotency-Key (the key's answer is the event's id,
     * as a notification's is its id: a repeat with the same body changes nothing more); the
     * events arriving together share that transaction (event-writer.ts).
     */
    async recordEvent(siteId: string, bodyJson: string, idempotencyKey: string): Promise<{ id: string }> {
      if (!isUuid(siteId)) throw new UnauthenticatedError();
      if (idempotencyKey !== '' && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new ValidationError([MESSAGES.idempotencyKeyFormat]);
      const body = parseObjectBody(bodyJson, false);
      const input = validateEventInput(body);
      // Keys are shared with the site's creates; an event body's hash is never a create's.
      const requestHash = sha256Hex(canonicalJson({ event: body }));
      const id = randomUUID();
      // A repeat finds its key held when its batch claims it (no read before: one statement fewer an event).
      if (await writeEvent({ siteId, externalId: input.externalId, name: input.name, properties: input.properties, idempotencyKey, requestHash, id })) return { id };
      const stored = await findFreshKey(pool, siteId, idempotencyKey);
      if (!stored) throw new Error('idempotency key held but not readable');
      if (stored.requestHash !== requestHash) throw new IdempotencyConflictError();
      return { id: stored.campaignId };
    },
  };
}
