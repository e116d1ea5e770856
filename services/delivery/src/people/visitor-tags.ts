// Tags from the page (docs/people.md, "Tags from the page"): `webpush('tag', key, value)` sets a
// tag of the visitor the page identified, for the keys the site lets visitors set (an operator's
// `sites set-visitor-tags`); every other key only the site's server sets, through the API.
// Same value rules and bound as the API's; a refusal writes nothing.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { MAX_ENDPOINT_CHARS } from '../audience/index.js';
import { DeliveryOperatorError, SiteNotFoundError, ValidationError } from '../errors.js';
import { HttpError } from '../http/http-error.js';
import { findSiteByPublicId } from '../sites/index.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { IDENTITY_MESSAGES } from './identity.js';
import { lockPersonOfEndpoint, setVisitorTagKeys, visitorTagKeys, writeTags } from './people-store.js';
import { isTagKey, MAX_TAGS_PER_PERSON, MAX_TAG_KEY_CHARS, parseTagChange, TAG_MESSAGES, tagRows } from './tags.js';

export const VISITOR_TAG_MESSAGES = Object.freeze({
  notVisitorTag: 'these tags may not be set from the page: ',
});

export function createVisitorTags(pool: Pool) {
  /**
   * Sets (null: removes) the tags of the person the active subscription with `endpoint` belongs
   * to. `tagged` is false when it belongs to nobody (not identified, or logged out): nothing is
   * stored. Order: the site (404), the body (400), the keys the site allows (403), the write.
   */
  async function tag(publicId: string, body: Record<string, unknown>): Promise<{ tagged: boolean }> {
    const site = await findSiteByPublicId(pool, publicId);
    if (!site) throw new SiteNotFoundError();
    const messages: string[] = [];
    const endpoint = body.endpoint;
    if (typeof endpoint !== 'string' || endpoint.length < 1 || endpoint.length > MAX_ENDPOINT_CHARS) messages.push(IDENTITY_MESSAGES.endpoint);
    else if (hasBadCharacters(endpoint)) messages.push(IDENTITY_MESSAGES.endpointCharacters);
    const parsed = parseTagChange(body.tags);
    if ('messages' in parsed) messages.push(...parsed.messages);
    if (messages.length > 0 || 'messages' in parsed) throw new ValidationError(messages);
    const { change } = parsed;
    const allowed = new Set(await visitorTagKeys(pool, site.siteId));
    const refused = [...change.set.keys(), ...change.remove].filter((k) => !allowed.has(k)).sort();
    if (refused.length > 0) throw new HttpError(403, VISITOR_TAG_MESSAGES.notVisitorTag + refused.join(', '));
    return withTransaction(pool, async (tx) => {
      const personId = await lockPersonOfEndpoint(tx, site.siteId, endpoint as string);
      if (personId === null) return { tagged: false };
      if ((await writeTags(tx, personId, tagRows(change), change.remove)) > MAX_TAGS_PER_PERSON) throw new ValidationError([TAG_MESSAGES.tooMany]);
      return { tagged: true };
    });
  }

  /** The operators' setting: these keys (sorted, each once) and no others may be set from the page. */
  async function setKeys(siteId: string, keys: readonly string[]): Promise<{ siteId: string; keys: string[] }> {
    const bad = keys.filter((k) => !isTagKey(k));
    if (bad.length > 0) throw new DeliveryOperatorError(`tag keys are 1 to ${MAX_TAG_KEY_CHARS} characters of a-z, 0-9 and _ (not: ${bad.slice(0, 5).map((k) => JSON.stringify(k)).join(', ')})`);
    const sorted = [...new Set(keys)].sort();
    if (sorted.length > MAX_TAGS_PER_PERSON) throw new DeliveryOperatorError(`at most ${MAX_TAGS_PER_PERSON} keys: a person has at most that many tags`);
    await setVisitorTagKeys(pool, siteId, sorted);
    return { siteId, keys: sorted };
  }

  return { tag, setKeys };
}

export type VisitorTags = ReturnType<typeof createVisitorTags>;
