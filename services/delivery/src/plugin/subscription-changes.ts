// Subscription changes from the service worker: the browser replaced a push subscription
// (`pushsubscriptionchange`). The worker registers the new subscription first (the ordinary
// subscribe call, fully validated), then reports the change: the new subscriber takes over the
// old one's topics (and its country when the edge could not tell it) and the old endpoint is
// retired, so the next campaign goes to the new endpoint only and reaches the same audience.
import { Ajv } from 'ajv';
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import { findSiteByPublicId } from '../db/index.js';
import { MAX_TOPICS_PER_SUBSCRIBER } from '../db/subscribers.js';
import { SiteNotFoundError, ValidationError } from '../domain/errors.js';
import { UNKNOWN_COUNTRY } from '../domain/names.js';
import { BAD_CHARACTERS } from '../../../shared/src/text.js';
import { badText, MAX_ENDPOINT_CHARS } from '../domain/subscription-input.js';

export const SUBSCRIPTION_CHANGE_MESSAGES = Object.freeze({
  oldEndpoint: 'oldEndpoint must be a string of at most 2048 characters',
  oldEndpointCharacters: `oldEndpoint ${BAD_CHARACTERS}`,
  endpoint: 'endpoint must be a string of at most 2048 characters',
  endpointCharacters: `endpoint ${BAD_CHARACTERS}`,
  same: 'oldEndpoint and endpoint must differ',
});

const PUBLIC_ID = /^[A-Za-z0-9_-]{1,100}$/;

const SCHEMA = {
  type: 'object',
  required: ['oldEndpoint', 'endpoint'],
  properties: {
    oldEndpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
    endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
  },
} as const;

export interface SubscriptionChangeInput {
  oldEndpoint: string;
  endpoint: string;
}

/**
 * Moves the old subscriber's topics into the new one (the new one's first, then the old one's
 * in name order, up to the cap: the stored array stays a sorted set) and deactivates the old
 * one, in one transaction. Both must be active subscribers of the site; otherwise nothing
 * changes and `replaced` is false (an unknown new endpoint must be registered first; an
 * unknown old one was already retired, for instance after the push service expired it).
 */
export async function replaceSubscriber(pool: Pool, siteId: string, change: SubscriptionChangeInput): Promise<{ replaced: boolean }> {
  return withTransaction(pool, async (db) => {
    // Both rows locked in id order, so two changes crossing each other cannot deadlock.
    const { rows } = await db.query(
      `SELECT id::text AS id, endpoint FROM delivery.subscribers
        WHERE site_id = $1 AND endpoint = ANY($2::text[]) AND active
        ORDER BY id FOR UPDATE`,
      [siteId, [change.oldEndpoint, change.endpoint]],
    );
    const old = rows.find((r) => r.endpoint === change.oldEndpoint);
    const next = rows.find((r) => r.endpoint === change.endpoint);
    if (!old || !next) return { replaced: false };
    await db.query(
      `UPDATE delivery.subscribers s SET
         topics = delivery.merge_topics(s.topics, o.topics, $3),
         country = CASE WHEN s.country = $4 THEN o.country ELSE s.country END,
         language = coalesce(s.language, o.language),
         time_zone = coalesce(s.time_zone, o.time_zone),
         updated_at = now()
        FROM delivery.subscribers o
       WHERE s.id = $1 AND o.id = $2`,
      [next.id, old.id, MAX_TOPICS_PER_SUBSCRIBER, UNKNOWN_COUNTRY],
    );
    await db.query(`UPDATE delivery.subscribers SET active = false, deactivated_at = now(), updated_at = now() WHERE id = $1`, [old.id]);
    return { replaced: true };
  });
}

export function createSubscriptionChanges(pool: Pool) {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const check = ajv.compile(SCHEMA);

  function parse(body: Record<string, unknown>): SubscriptionChangeInput {
    const errors = check(body) ? [] : (check.errors ?? []);
    const bad = (field: string) =>
      errors.some((e) => e.instancePath === `/${field}` || (e.params as { missingProperty?: string }).missingProperty === field);
    const messages: string[] = [];
    if (bad('oldEndpoint')) messages.push(SUBSCRIPTION_CHANGE_MESSAGES.oldEndpoint);
    else if (badText(body.oldEndpoint)) messages.push(SUBSCRIPTION_CHANGE_MESSAGES.oldEndpointCharacters);
    if (bad('endpoint')) messages.push(SUBSCRIPTION_CHANGE_MESSAGES.endpoint);
    else if (badText(body.endpoint)) messages.push(SUBSCRIPTION_CHANGE_MESSAGES.endpointCharacters);
    if (messages.length === 0 && body.oldEndpoint === body.endpoint) messages.push(SUBSCRIPTION_CHANGE_MESSAGES.same);
    if (messages.length > 0) throw new ValidationError(messages);
    return { oldEndpoint: body.oldEndpoint as string, endpoint: body.endpoint as string };
  }

  /** Steps: find the site (404), validate (400), hand the old subscriber over to the new one. */
  async function record(publicId: string, body: Record<string, unknown>): Promise<{ replaced: boolean }> {
    const site = PUBLIC_ID.test(publicId) ? await findSiteByPublicId(pool, publicId) : null;
    if (!site) throw new SiteNotFoundError();
    return replaceSubscriber(pool, site.siteId, parse(body));
  }

  return { record, parse };
}
