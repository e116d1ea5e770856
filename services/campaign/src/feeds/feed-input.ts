// A /v2/feeds body judged (docs/api-decisions.md, "Feeds"): the feed's own fields here; its
// campaign fields (what every item's campaign is sent with) by the campaign create's own rules,
// through a create body made with a sample item (feeds.ts), so a feed saved is a feed whose items
// can be sent. Every failing field contributes its message; nothing is stored on a refusal.
import { outboundUrlProblem } from '@webpush/push/outbound.js';
import { ValidationError } from '../base/errors.js';
import { MESSAGES } from '../base/texts.js';

export const DEFAULT_POLL_INTERVAL_MINUTES = 15;
const MIN_POLL_INTERVAL_MINUTES = 5;
const MAX_POLL_INTERVAL_MINUTES = 1440;

/** The create body's fields a feed keeps for its items' campaigns; the item gives title, body, link and image. */
export const FEED_CAMPAIGN_FIELDS = Object.freeze([
  'topics', 'countries', 'segment', 'template', 'icon', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign',
  'ttl', 'urgency', 'throttlePerMinute', 'ignoreFrequencyCap', 'ignoreQuietHours',
] as const);
const FEED_OWN_FIELDS = ['url', 'pollIntervalMinutes', 'paused'];

export type FeedSettings = Partial<Record<(typeof FEED_CAMPAIGN_FIELDS)[number], unknown>>;

export interface FeedFields {
  url: string;
  pollIntervalMinutes: number;
  paused: boolean;
  settings: FeedSettings;
}

function knownFieldsOnly(body: Record<string, unknown>, errors: string[]): void {
  const known = new Set<string>([...FEED_OWN_FIELDS, ...FEED_CAMPAIGN_FIELDS]);
  if (Object.keys(body).some((k) => !known.has(k))) errors.push(MESSAGES.feedFields);
}

function pollIntervalField(value: unknown, errors: string[]): number {
  if (value === undefined || value === null) return DEFAULT_POLL_INTERVAL_MINUTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_POLL_INTERVAL_MINUTES || value > MAX_POLL_INTERVAL_MINUTES) {
    errors.push(MESSAGES.feedPollInterval);
    return DEFAULT_POLL_INTERVAL_MINUTES;
  }
  return value;
}

function pausedField(value: unknown, errors: string[]): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') {
    errors.push(MESSAGES.feedPaused);
    return false;
  }
  return value;
}

/** A feed's template reference: {id, variables?} (the variables fixed for every item; the item's own win). */
function templateProblem(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'object' || Array.isArray(value)) return true;
  const ref = value as Record<string, unknown>;
  return typeof ref.id !== 'string' || !Object.keys(ref).every((k) => k === 'id' || k === 'variables');
}

function settingsOf(body: Record<string, unknown>, base: FeedSettings): FeedSettings {
  const settings: FeedSettings = { ...base };
  for (const f of FEED_CAMPAIGN_FIELDS) {
    if (!Object.hasOwn(body, f)) continue;
    // null removes a field (it is then the create's default).
    if (body[f] === null) delete settings[f];
    else settings[f] = body[f];
  }
  return settings;
}

/** A create's feed fields; the campaign fields are judged after (feeds.ts). */
export function validateFeedInput(body: Record<string, unknown>, testHosts: readonly string[]): FeedFields {
  const errors: string[] = [];
  knownFieldsOnly(body, errors);
  const urlProblem = outboundUrlProblem(body.url, testHosts);
  if (urlProblem !== null) errors.push(urlProblem);
  const pollIntervalMinutes = pollIntervalField(body.pollIntervalMinutes, errors);
  const paused = pausedField(body.paused, errors);
  if (templateProblem(body.template)) errors.push(MESSAGES.feedTemplate);
  if (errors.length > 0) throw new ValidationError(errors);
  return { url: body.url as string, pollIntervalMinutes, paused, settings: settingsOf(body, {}) };
}

/** An update: the fields given replace the stored ones (null removes a campaign field). */
export function validateFeedUpdate(body: Record<string, unknown>, current: FeedFields, testHosts: readonly string[]): FeedFields {
  const errors: string[] = [];
  if (Object.keys(body).length === 0) errors.push(MESSAGES.feedNothing);
  knownFieldsOnly(body, errors);
  let url = current.url;
  if (Object.hasOwn(body, 'url')) {
    const problem = outboundUrlProblem(body.url, testHosts);
    if (problem !== null) errors.push(problem);
    else url = body.url as string;
  }
  const pollIntervalMinutes = Object.hasOwn(body, 'pollIntervalMinutes') ? pollIntervalField(body.pollIntervalMinutes, errors) : current.pollIntervalMinutes;
  const paused = Object.hasOwn(body, 'paused') ? pausedField(body.paused, errors) : current.paused;
  if (templateProblem(body.template)) errors.push(MESSAGES.feedTemplate);
  if (errors.length > 0) throw new ValidationError(errors);
  return { url, pollIntervalMinutes, paused, settings: settingsOf(body, current.settings) };
}
