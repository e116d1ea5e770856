// Page views from the site plugin: the topics of the page a subscriber reads join that
// subscriber's topics (the platform's classification), the page's first when the cap is hit.
import { Ajv } from 'ajv';
import type { Pool, Queryable } from '../../../shared/src/db.js';
import { findSiteByPublicId } from '../db/index.js';
import { MAX_TOPICS_PER_SUBSCRIBER } from '../db/subscribers.js';
import { SiteNotFoundError, ValidationError } from '../domain/errors.js';
import { normalizeTopic, sortedSet } from '../domain/names.js';
import { someHasBadCharacters } from '../../../shared/src/text.js';
import { badText, MAX_ENDPOINT_CHARS, MAX_TOPICS_PER_REQUEST, MESSAGES } from '../domain/subscription-input.js';

export const PAGE_VIEW_MESSAGES = Object.freeze({
  endpoint: MESSAGES.unsubscribeEndpoint,
  endpointCharacters: MESSAGES.endpointCharacters,
  topics: MESSAGES.topics,
  topicsCharacters: MESSAGES.topicsCharacters,
  topicPrefix: MESSAGES.topicPrefix,
});

const PUBLIC_ID = /^[A-Za-z0-9_-]{1,100}$/;

const PAGE_VIEW_SCHEMA = {
  type: 'object',
  required: ['endpoint'],
  properties: {
    endpoint: { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_CHARS },
    topics: { type: 'array', maxItems: MAX_TOPICS_PER_REQUEST, items: { type: 'string', maxLength: 1000 } },
  },
} as const;

export interface PageViewInput {
  endpoint: string;
  /** normalised, sorted, distinct; may be empty (the view only confirms the subscription) */
  topics: string[];
}

/**
 * Adds the page's topics to the active subscriber with this endpoint. The stored array stays a
 * sorted set (the audience counters' group key); when more than the cap would remain, the
 * page's topics are kept first, then the stored ones in name order. A write happens only when
 * the set changes, so re-reading a section costs no counter update. `known` is false when no
 * active subscriber has the endpoint (the plugin then registers again).
 */
export async function mergePageTopics(db: Queryable, siteId: string, view: PageViewInput): Promise<{ known: boolean; changed: boolean }> {
  const { rows } = await db.query(
    `WITH target AS (
       SELECT id, topics FROM delivery.subscribers
        WHERE site_id = $1 AND endpoint = $2 AND active
        FOR UPDATE),
     merged AS (
       SELECT id, topics AS old_topics,
              delivery.merge_topics($3::text[], target.topics, $4) AS new_topics
         FROM target),
     updated AS (
       UPDATE delivery.subscribers s SET topics = m.new_topics, updated_at = now()
         FROM merged m
        WHERE s.id = m.id AND m.new_topics IS DISTINCT FROM m.old_topics
       RETURNING s.id)
     SELECT (SELECT count(*) FROM target)::int AS known, (SELECT count(*) FROM updated)::int AS changed`,
    [siteId, view.endpoint, view.topics, MAX_TOPICS_PER_SUBSCRIBER],
  );
  return { known: rows[0].known > 0, changed: rows[0].changed > 0 };
}

export function createPageViews(pool: Pool) {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const check = ajv.compile(PAGE_VIEW_SCHEMA);

  function parse(body: Record<string, unknown>): PageViewInput {
    const valid = check(body);
    const errors = valid ? [] : (check.errors ?? []);
    const messages: string[] = [];
    const bad = (path: string) => errors.some((e) => e.instancePath.startsWith(path) || (e.params as { missingProperty?: string }).missingProperty === path.slice(1));
    if (bad('/endpoint')) messages.push(PAGE_VIEW_MESSAGES.endpoint);
    else if (badText(body.endpoint)) messages.push(PAGE_VIEW_MESSAGES.endpointCharacters);
    let topics: string[] = [];
    if (bad('/topics')) messages.push(PAGE_VIEW_MESSAGES.topics);
    else if (someHasBadCharacters(body.topics)) messages.push(PAGE_VIEW_MESSAGES.topicsCharacters);
    else {
      const raw = (body.topics as string[] | undefined) ?? [];
      const names = raw.map(normalizeTopic);
      const countryLike = raw.map((t) => t.trim().toLowerCase().startsWith('country__'));
      if (countryLike.some(Boolean)) messages.push(PAGE_VIEW_MESSAGES.topicPrefix);
      if (names.some((n, i) => n === null && !countryLike[i])) messages.push(PAGE_VIEW_MESSAGES.topics);
      if (names.every((n) => n !== null)) topics = sortedSet(names as string[]);
    }
    if (messages.length > 0) throw new ValidationError(messages);
    return { endpoint: body.endpoint as string, topics };
  }

  /** Steps: find the site (404), validate (400), merge the topics into the subscriber. */
  async function record(publicId: string, body: Record<string, unknown>): Promise<{ updated: boolean }> {
    const site = PUBLIC_ID.test(publicId) ? await findSiteByPublicId(pool, publicId) : null;
    if (!site) throw new SiteNotFoundError();
    const view = parse(body);
    const { known } = await mergePageTopics(pool, site.siteId, view);
    return { updated: known };
  }

  return { record, parse };
}

export type PageViews = ReturnType<typeof createPageViews>;
