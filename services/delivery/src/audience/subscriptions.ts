// What the site plugin does to its site's subscribers: a browser subscribes (or refreshes its
// subscription), unsubscribes, reads a page whose topics join its own, or reports that the
// browser replaced its subscription. The country comes only from the trusted edge header,
// never from the body. A subscribe or unsubscribe that names its opt-in prompt (`promptId`) is
// counted in the opt-in funnel (optin/) when it changed the subscriber.
import type { Pool } from '@webpush/shared/db.js';
import { SiteNotFoundError } from '../errors.js';
import { findSiteByPublicId } from '../sites/index.js';
import { countryFromCode } from './names.js';
import { deactivateByEndpoint, mergePageTopics, replaceSubscriber, upsertSubscriber } from './subscriber-store.js';
import { createSubscriptionInputRules } from './subscription-input.js';

export function createSubscriptions(pool: Pool, opts: { pushServiceHosts: readonly string[]; pushTestHosts?: readonly string[] }) {
  const rules = createSubscriptionInputRules({ serviceHosts: opts.pushServiceHosts, testHosts: opts.pushTestHosts ?? [] });

  // Every call: find the site (404), then validate the payload (400), then write.
  async function siteIdOf(publicId: string): Promise<string> {
    const site = await findSiteByPublicId(pool, publicId);
    if (!site) throw new SiteNotFoundError();
    return site.siteId;
  }

  /** Upserts on (site, endpoint), with the country from the edge's code. `created` is false when the endpoint was known. */
  async function subscribe(publicId: string, body: Record<string, unknown>, countryCode: string | undefined) {
    const siteId = await siteIdOf(publicId);
    const input = rules.parseSubscribe(body);
    return upsertSubscriber(pool, { siteId, ...input, country: countryFromCode(countryCode) });
  }

  async function unsubscribe(publicId: string, body: Record<string, unknown>): Promise<{ deactivated: boolean }> {
    const siteId = await siteIdOf(publicId);
    const { endpoint, promptId } = rules.parseUnsubscribe(body);
    return { deactivated: await deactivateByEndpoint(pool, siteId, endpoint, promptId) };
  }

  /** The page's topics join the subscriber's; `updated` is false for an endpoint no active subscriber has (the plugin registers again). */
  async function recordPageView(publicId: string, body: Record<string, unknown>): Promise<{ updated: boolean }> {
    const siteId = await siteIdOf(publicId);
    const { known } = await mergePageTopics(pool, siteId, rules.parsePageView(body));
    return { updated: known };
  }

  /** `pushsubscriptionchange`: the new subscriber (registered first) takes over the old one, which is retired. */
  async function replaceSubscription(publicId: string, body: Record<string, unknown>): Promise<{ replaced: boolean }> {
    const siteId = await siteIdOf(publicId);
    return replaceSubscriber(pool, siteId, rules.parseSubscriptionChange(body));
  }

  return { subscribe, unsubscribe, recordPageView, replaceSubscription };
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;
