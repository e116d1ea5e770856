// What the site owner's console reads and changes in the delivery service (docs/console.md): a
// campaign's series, the site's subscribers per day and by browser, topic maintenance, and the
// site's settings kept here (its VAPID public key and public id; the frequency cap, time zone and
// quiet hours sending applies, which its owners change by the operators' rules). The gateway has checked the
// user, the site membership, the role and the plan; here are the domain rules and the customer's
// messages. Every count comes from counters kept as the data changes.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { SHARED_SPEC } from '@webpush/shared/api-texts.js';
import { CONSOLE_OWN } from '@webpush/shared/console-texts.js';
import { audienceDaily, countByBrowser, type DayCount } from '../audience/index.js';
import { TopicRefusal, type TopicChange, type TopicMaintenance } from '../audience/index.js';
import { isUuid, NotFoundError, ValidationError } from '../errors.js';
import { optInPromptsOf, readOptInPrompts, writeOptInPrompts, type OptInPrompts } from '../plugin/index.js';
import { frequencyCapOf } from '../sending/index.js';
import type { QuietHours } from '@webpush/contracts/local-time.js';
import { capRefusals, findSiteById, quietHoursRefusals, setSiteFrequencyCap, setSiteQuietHours, setSiteTimeZone, siteQuietHours, siteTimeZone, storedZone, type FrequencyCap } from '../sites/index.js';
import { campaignSeries, type CampaignSeries } from '../tracking/index.js';

export const MAX_DAILY_DAYS = 365;

export const CONSOLE_MESSAGES = {
  campaignNotFound: SHARED_SPEC.campaignNotFound,
  siteNotFound: 'Site not found',
  days: `days must be an integer from 1 to ${MAX_DAILY_DAYS}`,
  frequencyCapCampaigns: CONSOLE_OWN.frequencyCapCampaigns,
  frequencyCapHours: CONSOLE_OWN.frequencyCapHours,
  timeZone: CONSOLE_OWN.timeZone,
  quietHoursFrom: CONSOLE_OWN.quietHoursFrom,
  quietHoursTo: CONSOLE_OWN.quietHoursTo,
} as const;

export interface SiteSettings {
  vapidPublicKey: string;
  publicId: string;
  frequencyCap: FrequencyCap | null;
  /** The zone in force (UTC when none was set). */
  timeZone: string;
  quietHours: QuietHours | null;
}

/** A change of the sending settings: a field absent is left as it is; null lifts the cap or the quiet hours, or sets UTC back. */
export interface SendingSettingsChange {
  frequencyCap?: FrequencyCap | null;
  timeZone?: string | null;
  quietHours?: QuietHours | null;
  validateOnly: boolean;
}

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
  async function siteSettings(siteId: string): Promise<SiteSettings> {
    const site = isUuid(siteId) ? await findSiteById(pool, siteId.toLowerCase()) : null;
    if (!site) throw new NotFoundError(CONSOLE_MESSAGES.siteNotFound);
    const [frequencyCap, timeZone, quietHours] = await Promise.all([frequencyCapOf(pool, site.siteId), siteTimeZone(pool, site.siteId), siteQuietHours(pool, site.siteId)]);
    return { vapidPublicKey: site.vapidPublicKey, publicId: site.publicId, frequencyCap, timeZone, quietHours };
  }

  /**
   * The owners' change of the frequency cap, the time zone and the quiet hours, by the operators'
   * rules (every refused part named, nothing written then), each applied as `sites
   * set-frequency-cap`, `set-time-zone` and `set-quiet-hours` apply it: from the next chunk sent,
   * and to campaigns planned from now on.
   */
  async function updateSendingSettings(siteId: string, change: SendingSettingsChange): Promise<SiteSettings> {
    const current = await siteSettings(siteId);
    const refused = change.frequencyCap ? capRefusals(change.frequencyCap) : [];
    const zone = change.timeZone === undefined || change.timeZone === null ? change.timeZone : storedZone(change.timeZone);
    const quietRefused = change.quietHours ? quietHoursRefusals(change.quietHours) : [];
    const messages = [
      ...(refused.includes('campaigns') ? [CONSOLE_MESSAGES.frequencyCapCampaigns] : []),
      ...(refused.includes('hours') ? [CONSOLE_MESSAGES.frequencyCapHours] : []),
      ...(change.timeZone !== undefined && zone === undefined ? [CONSOLE_MESSAGES.timeZone] : []),
      ...(quietRefused.includes('from') ? [CONSOLE_MESSAGES.quietHoursFrom] : []),
      ...(quietRefused.includes('to') ? [CONSOLE_MESSAGES.quietHoursTo] : []),
    ];
    if (messages.length > 0) throw new ValidationError(messages);
    if (change.validateOnly) return current;
    const id = siteId.toLowerCase();
    await withTransaction(pool, async (tx) => {
      if (change.frequencyCap !== undefined) await setSiteFrequencyCap(tx, id, change.frequencyCap);
      if (zone !== undefined) await setSiteTimeZone(tx, id, zone);
      if (change.quietHours !== undefined) await setSiteQuietHours(tx, id, change.quietHours);
    });
    return siteSettings(siteId);
  }

  /** NotFoundError for a site this service does not know. */
  async function optInPrompts(siteId: string): Promise<OptInPrompts> {
    const site = isUuid(siteId) ? await findSiteById(pool, siteId.toLowerCase()) : null;
    if (!site) throw new NotFoundError(CONSOLE_MESSAGES.siteNotFound);
    return readOptInPrompts(pool, site.siteId);
  }

  /** The fields a change names replaced, once the result passed (plugin/optin-prompts.ts). */
  async function updateOptInPrompts(siteId: string, bodyJson: string): Promise<OptInPrompts> {
    const current = await optInPrompts(siteId);
    let body: unknown;
    try {
      body = JSON.parse(bodyJson);
    } catch {
      body = undefined;
    }
    const prompts = optInPromptsOf(body, current);
    await writeOptInPrompts(pool, siteId.toLowerCase(), prompts);
    return prompts;
  }

  return {
    series,
    optInPrompts,
    updateOptInPrompts,
    daily,
    browsers,
    siteSettings,
    updateSendingSettings,
    renameTopic: (siteId: string, from: string, to: string) => asCustomer(topics.renameTopic({ siteId, from, to })),
    mergeTopics: (siteId: string, from: readonly string[], to: string) => asCustomer(topics.mergeTopics({ siteId, from, into: to }, { unknown: 'refuse' })),
    deleteTopic: (siteId: string, name: string) => asCustomer(topics.deleteTopic({ siteId, topic: name }, { unknown: 'refuse' })),
  };
}

export type ConsoleData = ReturnType<typeof createConsoleData>;
