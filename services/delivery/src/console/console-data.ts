// What the site owner's console reads and changes in the delivery service (docs/console.md): a
// campaign's series, the site's subscribers per day and by browser, topic maintenance, and the
// site's settings kept here (its VAPID public key and public id). The
// gateway has checked the user, the site membership, the role and the plan; here are the domain
// rules and the customer's messages. Every read comes from counters kept as the data changes.
import type { Pool } from '@webpush/shared/db.js';
import { SHARED_SPEC } from '@webpush/shared/api-texts.js';
import { audienceDaily, countByBrowser, type DayCount } from '../audience/index.js';
import { TopicRefusal, type TopicChange, type TopicMaintenance } from '../audience/index.js';
import { isUuid, NotFoundError, ValidationError } from '../errors.js';
import { findSiteById } from '../sites/index.js';
import { campaignSeries, type CampaignSeries } from '../tracking/index.js';

export const MAX_DAILY_DAYS = 365;

export const CONSOLE_MESSAGES = {
  campaignNotFound: SHARED_SPEC.campaignNotFound,
  siteNotFound: 'Site not found',
  days: `days must be an integer from 1 to ${MAX_DAILY_DAYS}`,
} as const;

/** A site id that no site has: an unknown or malformed site reads as a site without data. */
const NO_SITE = '00000000-0000-0000-0000-000000000000';

const siteKey = (siteId: string): string => (isUuid(siteId) ? siteId.toLowerCase() : NO_SITE);

/** A topic change with the console's refusals: INVALID_ARGUMENT with the customer's message, an unknown site NOT_FOUND. */
async function asCustomer(change: Promise<TopicChange>): Promise<TopicChange> {
  try {
    return await change;
  } catch (err) {
    if (err instanceof TopicRefusal) {
      throw err.kind === 'site' ? new NotFoundError(CONSOLE_MESSAGES.siteNotFound) : new ValidationError([err.customerMessage]);
    }
    throw err;
  }
}

export function createConsoleData(pool: Pool, topics: TopicMaintenance) {
  /** NotFoundError when the campaign was dispatched for another site (or its id is not a UUID). */
  async function series(siteId: string, campaignId: string): Promise<CampaignSeries> {
    if (!isUuid(campaignId)) throw new NotFoundError(CONSOLE_MESSAGES.campaignNotFound);
    const found = await campaignSeries(pool, siteKey(siteId), campaignId.toLowerCase());
    if (found === 'other-site') throw new NotFoundError(CONSOLE_MESSAGES.campaignNotFound);
    return found;
  }

  async function daily(siteId: string, days: number): Promise<DayCount[]> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAILY_DAYS) throw new ValidationError([CONSOLE_MESSAGES.days]);
    return audienceDaily(pool, siteKey(siteId), days);
  }

  async function browsers(siteId: string): Promise<{ browser: string; users: number }[]> {
    return countByBrowser(pool, siteKey(siteId));
  }

  /** NotFoundError for a site this service does not know (or an id that is not a UUID). */
  async function siteSettings(siteId: string): Promise<{ vapidPublicKey: string; publicId: string }> {
    const site = isUuid(siteId) ? await findSiteById(pool, siteId.toLowerCase()) : null;
    if (!site) throw new NotFoundError(CONSOLE_MESSAGES.siteNotFound);
    return { vapidPublicKey: site.vapidPublicKey, publicId: site.publicId };
  }

  return {
    series,
    daily,
    browsers,
    siteSettings,
    renameTopic: (siteId: string, from: string, to: string) => asCustomer(topics.renameTopic({ siteId, from, to })),
    mergeTopics: (siteId: string, from: readonly string[], to: string) => asCustomer(topics.mergeTopics({ siteId, from, into: to }, { unknown: 'refuse' })),
    deleteTopic: (siteId: string, name: string) => asCustomer(topics.deleteTopic({ siteId, topic: name }, { unknown: 'refuse' })),
  };
}

export type ConsoleData = ReturnType<typeof createConsoleData>;
