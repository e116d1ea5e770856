// Use cases of the site plugin: a browser subscribes (or refreshes its subscription) and
// unsubscribes. The country comes only from the trusted edge header, never from the body.
import type { Pool } from '../../../shared/src/db.js';
import { deactivateByEndpoint, findSiteByPublicId, upsertSubscriber } from '../db/index.js';
import { SiteNotFoundError } from './errors.js';
import { countryFromCode } from './names.js';
import { createSubscriptionInputRules } from './subscription-input.js';

const PUBLIC_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function createSubscriptions(pool: Pool, opts: { pushServiceHosts: readonly string[]; pushTestHosts?: readonly string[] }) {
  const rules = createSubscriptionInputRules({ serviceHosts: opts.pushServiceHosts, testHosts: opts.pushTestHosts ?? [] });

  async function siteIdOf(publicId: string): Promise<string> {
    const site = PUBLIC_ID.test(publicId) ? await findSiteByPublicId(pool, publicId) : null;
    if (!site) throw new SiteNotFoundError();
    return site.siteId;
  }

  /**
   * Steps: find the site (404), validate the payload (400), derive the country from the edge's
   * code, upsert on (site, endpoint). `created` is false when the endpoint was known.
   */
  async function subscribe(publicId: string, body: Record<string, unknown>, countryCode: string | undefined) {
    const siteId = await siteIdOf(publicId);
    const input = rules.parseSubscribe(body);
    return upsertSubscriber(pool, { siteId, ...input, country: countryFromCode(countryCode) });
  }

  async function unsubscribe(publicId: string, body: Record<string, unknown>): Promise<{ deactivated: boolean }> {
    const siteId = await siteIdOf(publicId);
    const { endpoint } = rules.parseUnsubscribe(body);
    return { deactivated: await deactivateByEndpoint(pool, siteId, endpoint) };
  }

  return { subscribe, unsubscribe };
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;
