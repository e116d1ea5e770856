// The /v2 webhook endpoints' use cases (docs/webhooks.md): each reads the customer's JSON, applies
// the rules, answers the stored rows (grpc-handlers.ts makes them the typed answers). Refusals are ValidationError (400, messages joined
// with ", ") or WebhookNotFoundError (404); nothing is written when anything is refused.
import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { NotFoundError, ValidationError, isUuid } from '../errors.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import type { VapidEncryptionKeys } from '../sites/index.js';
import { newWebhookSecret, sealWebhookSecret } from './secrets.js';
import { outboundUrlProblem, resolvedAddressProblem } from '@webpush/push/outbound.js';
import * as store from './webhook-store.js';

export const WEBHOOK_EVENTS = Object.freeze([
  'campaign.dispatched',
  'campaign.completed',
  'campaign.failed',
  'subscriber.created',
  'subscriber.expired',
  'notification.impressions',
  'notification.clicks',
  'audit.entry',
  'notification.sent',
  'person.deleted',
  'person.exported',
] as const);

export const MAX_WEBHOOKS_PER_SITE = 10;
const MAX_DESCRIPTION_CHARS = 200;
const MAX_OVERLAP_HOURS = 168;
const DEFAULT_OVERLAP_HOURS = 24;
/** GET /v2/webhooks/{id}/deliveries shows this many of the most recent events. */
export const RECENT_DELIVERIES = 100;

export const WEBHOOK_MESSAGES = Object.freeze({
  notFound: 'Webhook not found',
  eventNotFound: 'Event not found',
  tooMany: `A site may have at most ${MAX_WEBHOOKS_PER_SITE} webhooks`,
  eventsRequired: 'events is required',
  events: `events must be a non-empty array of: ${WEBHOOK_EVENTS.join(', ')}`,
  description: `description must be a string of at most ${MAX_DESCRIPTION_CHARS} characters, without NUL characters or unpaired surrogates`,
  enabled: 'enabled must be a boolean',
  overlapHours: `overlapHours must be an integer between 0 and ${MAX_OVERLAP_HOURS}`,
  invalidJson: 'Invalid JSON body',
});

/** A NotFoundError (NOT_FOUND at the gRPC boundary, grpc-answers.ts) of a webhook or one of its events. */
export class WebhookNotFoundError extends NotFoundError {
  override name = 'WebhookNotFoundError';
}

export interface WebhookDeps {
  pool: Pool;
  keys: VapidEncryptionKeys;
  /** Names the rules let through whatever they are or resolve to (WEBHOOK_TEST_HOSTS). */
  testHosts: readonly string[];
}

/** A new endpoint, or one whose secret was rotated: its row and the secret, shown this once. */
export interface WithSecret {
  endpoint: store.EndpointRow;
  secret: string;
}

function parseObject(bodyJson: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bodyJson === '' ? '{}' : bodyJson);
  } catch {
    throw new ValidationError([WEBHOOK_MESSAGES.invalidJson]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError([WEBHOOK_MESSAGES.invalidJson]);
  return value as Record<string, unknown>;
}

function eventsProblem(raw: unknown): string | null {
  if (raw === undefined || raw === null) return WEBHOOK_MESSAGES.eventsRequired;
  const known: readonly string[] = WEBHOOK_EVENTS;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > known.length * 4 || !raw.every((e) => typeof e === 'string' && known.includes(e))) {
    return WEBHOOK_MESSAGES.events;
  }
  return null;
}

/**
 * The fields of a create (`partial` false: url and events required) or a change (`partial`:
 * only what is given). Each wrong field adds its message; the URL's name is resolved only when
 * everything else is right (no DNS lookups for requests refused anyway).
 */
async function readFields(body: Record<string, unknown>, partial: boolean, testHosts: readonly string[]): Promise<store.EndpointChanges> {
  const problems: string[] = [];
  const changes: store.EndpointChanges = {};
  if (!partial || body.url !== undefined) {
    const problem = outboundUrlProblem(body.url, testHosts);
    if (problem !== null) problems.push(problem);
    else changes.url = body.url as string;
  }
  if (!partial || body.events !== undefined) {
    const problem = eventsProblem(body.events);
    if (problem !== null) problems.push(problem);
    else changes.events = [...new Set(body.events as string[])].sort();
  }
  if (body.description !== undefined) {
    if (typeof body.description !== 'string' || [...body.description].length > MAX_DESCRIPTION_CHARS || hasBadCharacters(body.description)) {
      problems.push(WEBHOOK_MESSAGES.description);
    }
    else changes.description = body.description;
  }
  if (partial && body.enabled !== undefined) {
    if (typeof body.enabled !== 'boolean') problems.push(WEBHOOK_MESSAGES.enabled);
    else changes.enabled = body.enabled;
  }
  if (problems.length === 0 && changes.url !== undefined) {
    const problem = await resolvedAddressProblem(changes.url, testHosts);
    if (problem !== null) problems.push(problem);
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return changes;
}

export function createWebhookEndpoints(deps: WebhookDeps) {
  const { pool } = deps;

  /** The endpoint, or 404: an id that is not a UUID, unknown, or another site's. */
  async function endpointOf(siteId: string, id: string): Promise<store.EndpointRow> {
    const found = isUuid(id) ? await store.findEndpoint(pool, siteId, id) : null;
    if (!found) throw new WebhookNotFoundError(WEBHOOK_MESSAGES.notFound);
    return found;
  }

  return {
    async list(siteId: string) {
      return store.listEndpoints(pool, siteId);
    },

    async create(siteId: string, bodyJson: string): Promise<WithSecret> {
      const fields = await readFields(parseObject(bodyJson), false, deps.testHosts);
      const id = randomUUID();
      const secret = newWebhookSecret();
      const endpoint = { id, siteId, url: fields.url!, description: fields.description ?? '', events: fields.events!, secretEnc: sealWebhookSecret(secret, id, deps.keys) };
      const row = await withTransaction(pool, (tx) => store.insertEndpoint(tx, endpoint, MAX_WEBHOOKS_PER_SITE));
      if (!row) throw new ValidationError([WEBHOOK_MESSAGES.tooMany]);
      return { endpoint: row, secret };
    },

    async get(siteId: string, id: string) {
      return endpointOf(siteId, id);
    },

    async update(siteId: string, id: string, bodyJson: string) {
      await endpointOf(siteId, id);
      const changes = await readFields(parseObject(bodyJson), true, deps.testHosts);
      const row = await store.updateEndpoint(pool, siteId, id, changes);
      if (!row) throw new WebhookNotFoundError(WEBHOOK_MESSAGES.notFound);
      return row;
    },

    async remove(siteId: string, id: string) {
      if (!isUuid(id) || !(await store.deleteEndpoint(pool, siteId, id))) throw new WebhookNotFoundError(WEBHOOK_MESSAGES.notFound);
      return { id, deleted: true };
    },

    async rotateSecret(siteId: string, id: string, bodyJson: string): Promise<WithSecret> {
      await endpointOf(siteId, id);
      const body = parseObject(bodyJson);
      const overlap = body.overlapHours ?? DEFAULT_OVERLAP_HOURS;
      if (typeof overlap !== 'number' || !Number.isInteger(overlap) || overlap < 0 || overlap > MAX_OVERLAP_HOURS) {
        throw new ValidationError([WEBHOOK_MESSAGES.overlapHours]);
      }
      const secret = newWebhookSecret();
      const row = await store.rotateSecret(pool, siteId, id, sealWebhookSecret(secret, id, deps.keys), overlap);
      if (!row) throw new WebhookNotFoundError(WEBHOOK_MESSAGES.notFound);
      return { endpoint: row, secret };
    },

    async deliveries(siteId: string, id: string) {
      const endpoint = await endpointOf(siteId, id);
      return store.recentDeliveries(pool, endpoint.id, RECENT_DELIVERIES);
    },

    async redeliver(siteId: string, id: string, eventId: string) {
      const endpoint = await endpointOf(siteId, id);
      const row = isUuid(eventId) ? await store.redeliver(pool, endpoint.id, eventId) : null;
      if (!row) throw new WebhookNotFoundError(WEBHOOK_MESSAGES.eventNotFound);
      return row;
    },

    async ping(siteId: string, id: string) {
      const endpoint = await endpointOf(siteId, id);
      return store.insertPing(pool, endpoint.id);
    },
  };
}

export type WebhookEndpoints = ReturnType<typeof createWebhookEndpoints>;
