// Counts the audience of the campaigns created while the delivery service could not count it
// (create-campaign.ts: down, or past the count's deadline), so that a create never fails because
// the sender's side is unavailable. Each pass takes the oldest uncounted campaigns (normally none:
// the partial index campaigns_uncounted_idx answers at once) and stops at the first count that
// fails, the delivery service being still unavailable; the next pass tries again. Replicas may
// count the same campaign: the write only fills a NULL, so the first count stands.
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { setCountedAudience, uncountedCampaigns } from './campaigns-store.js';
import type { AudienceCounter } from './create-campaign.js';
import { COUNTRY_PREFIX } from './create-input.js';

/** Campaigns counted per pass at most: a pass is bounded, a backlog takes several. */
export const RECOUNT_BATCH = 100;

export interface AudienceRecountOptions {
  /** From the end of one pass to the next; a create that stored an uncounted campaign wakes it. */
  intervalMs: number;
}

export function createAudienceRecount(deps: { pool: Pool; audience: AudienceCounter; log: Logger }, opts: AudienceRecountOptions) {
  /** One pass: the number of campaigns counted. */
  async function pass(): Promise<number> {
    const campaigns = await uncountedCampaigns(deps.pool, RECOUNT_BATCH);
    let counted = 0;
    for (const c of campaigns) {
      if (loop.stopping()) break;
      let users: number;
      try {
        // The destinations as the create split them: `country__` names are countries.
        const countries = c.destinations.filter((d) => d.startsWith(COUNTRY_PREFIX));
        const topics = c.destinations.filter((d) => !d.startsWith(COUNTRY_PREFIX));
        users = (await deps.audience.count(c.siteId, topics, countries, c.segment)).users;
      } catch (err) {
        deps.log.warn('audience still not countable; trying again on the next pass', { campaignId: c.id, waiting: campaigns.length - counted, err });
        break;
      }
      await setCountedAudience(deps.pool, c, users);
      counted++;
    }
    if (counted > 0) deps.log.info('counted the audience of campaigns created while it could not be counted', { count: counted });
    return counted;
  }

  const loop = createPeriodic(pass, { intervalMs: opts.intervalMs, wakeGapMs: 1000, onError: (err) => deps.log.error('audience recount failed', { err }) });

  return { pass, start: loop.start, stop: loop.stop, wake: loop.wake };
}
