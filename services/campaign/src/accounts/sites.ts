// A site as its members see it in the console: its settings (name, public id, plan and what the
// plan allows, the default throttle its owners change by the operators' rule) and the live
// audience estimate of the composer, counted by the delivery service for a campaign's topics,
// countries and segment, validated by the create's own rules.
import type { Pool } from '@webpush/shared/db.js';
import { type AudienceCounter, validateAudienceInput } from '../campaigns/index.js';
import { ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { MESSAGES } from '../base/texts.js';
import { parseObjectBody } from '../base/request-body.js';
import { isSiteThrottle, selectSiteThrottle, updateSiteThrottle } from '../sites/index.js';
import { selectSiteInfo, type SiteInfoRow } from './account-store.js';
import { ConsoleNotFoundError } from './errors.js';

export function createConsoleSites(deps: { pool: Pool; audience: AudienceCounter }) {
  const siteNotFound = () => new ConsoleNotFoundError(MESSAGES.siteNotFound);
  return {
    async info(siteId: string): Promise<SiteInfoRow> {
      const site = isUuid(siteId) ? await selectSiteInfo(deps.pool, siteId) : null;
      if (!site) throw siteNotFound();
      return site;
    },

    /** The site's default pushes per minute (null: none). */
    async throttle(siteId: string): Promise<number | null> {
      const perMinute = isUuid(siteId) ? await selectSiteThrottle(deps.pool, siteId) : undefined;
      if (perMinute === undefined) throw siteNotFound();
      return perMinute;
    },

    /** Sets it (null: none) unless `validateOnly`; refused as the operators' `sites set-throttle` refuses, in the console's words. */
    async setThrottle(siteId: string, perMinute: number | null, validateOnly: boolean): Promise<number | null> {
      const current = await this.throttle(siteId);
      if (!isSiteThrottle(perMinute)) throw new ValidationError([MESSAGES.defaultThrottle]);
      if (validateOnly) return current;
      await updateSiteThrottle(deps.pool, siteId, perMinute);
      return perMinute;
    },

    /** `{topics, countries, segment?}` → how many active subscribers a campaign to them would reach. */
    async estimate(siteId: string, bodyJson: string): Promise<number> {
      if (!isUuid(siteId)) throw siteNotFound();
      const input = validateAudienceInput(parseObjectBody(bodyJson, false));
      return (await deps.audience.count(siteId, input.topics, input.countries, input.segment)).users;
    },
  };
}

export type ConsoleSites = ReturnType<typeof createConsoleSites>;
