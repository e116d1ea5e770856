// Validation of the create body, rule by rule from the spec's 400 table and
// docs/api-decisions.md. Every failing field contributes its message, in the table's order.
import { campaignContent, fitsOnePush, type CampaignContent } from '@webpush/contracts/campaign-content.js';
import { someHasBadCharacters } from '@webpush/shared/text.js';
import type { AbTest } from '@webpush/contracts/ab-test.js';
import type { BestTime } from '@webpush/contracts/best-time.js';
import type { LocalTime } from '@webpush/contracts/local-time.js';
import { EXAMPLE_DATE, parseUtcDate } from '../base/dates.js';
import { abTestField, variantsThatDoNotFit } from './ab-test-input.js';
import { bestTimeField } from './best-time-input.js';
import { clean, CONTENT_FIELD_RULES, isAbsent } from './content-fields.js';
import { localTimeField } from './local-time-input.js';
import { notificationOptionsField, urgencyField } from './notification-options-input.js';
import type { Urgency } from '@webpush/contracts/urgency.js';
import { segmentField } from './segment-input.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { ValidationError } from '../base/errors.js';
import { fill, MESSAGES } from '../base/texts.js';
import { MAX_THROTTLE_PER_MINUTE } from '../sites/index.js';

export type CampaignStatus = 'published' | 'draft' | 'failed';
export type ScheduleMode = 'now' | 'scheduled';

export const DEFAULT_TTL_SECONDS = 2_419_200;
const MAX_UTM_LENGTH = 200;
const MAX_DESTINATIONS = 100;
// Entries read at all (before trimming and de-duplicating): more can never leave 100 names worth sending.
const MAX_AUDIENCE_ENTRIES = 1000;
/** How a country is named among a campaign's destinations (the delivery service's audience/names.ts). */
export const COUNTRY_PREFIX = 'country__';

/** A validated create request: the campaign's content (what its notification shows) and how it is sent. */
export interface CreateInput extends CampaignContent {
  /** Normalised topic names, in the order sent. */
  topics: string[];
  /** Normalised country names (with `country__`), in the order sent. */
  countries: string[];
  /** Topics then countries, without duplicates: what the campaign stores and returns. */
  destinations: string[];
  status: CampaignStatus;
  scheduleMode: ScheduleMode;
  /** Null for `now`: the campaign's creation time stands in. */
  scheduleDate: Date | null;
  ttl: number;
  /** Conditions narrowing the audience (an addition), or null. */
  segment: Segment | null;
  /** Pushes per minute at most (an addition); 0: no limit, even if the site has a default; null: the site's default. */
  throttlePerMinute: number | null;
  /** Sent also to subscribers who reached the site's frequency cap (an addition). */
  ignoreFrequencyCap: boolean;
  /** Sent at this wall-clock time in each subscriber's zone, on scheduleDate's UTC date (an addition), or null. */
  localTime: LocalTime | null;
  /** The campaign's A/B test (an addition), or null. */
  abTest: AbTest | null;
  /** The RFC 8030 Urgency of its pushes (an addition); `normal` when not given. */
  urgency: Urgency;
  /** Sent also inside the site's quiet hours (an addition). */
  ignoreQuietHours: boolean;
  /** Each subscriber sent in their best hour of a window, a holdout at once (an addition, `sendTime`), or null. */
  bestTime: BestTime | null;
}

function names(value: unknown, normalise: (name: string) => string): string[] | null {
  if (isAbsent(value)) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  return (value as string[]).map((v) => v.trim().toLowerCase()).filter((v) => v !== '').map(normalise);
}

const entries = (value: unknown) => (Array.isArray(value) ? value.length : 0);

function audienceFields(topicsValue: unknown, countriesValue: unknown, errors: string[]) {
  const empty = { topics: [], countries: [], destinations: [] };
  if (entries(topicsValue) + entries(countriesValue) > MAX_AUDIENCE_ENTRIES) {
    errors.push(MESSAGES.tooManyDestinations);
    return empty;
  }
  const topics = names(topicsValue, (t) => t);
  const countries = names(countriesValue, (c) => (c.startsWith(COUNTRY_PREFIX) ? c : COUNTRY_PREFIX + c));
  if (topics === null || countries === null) {
    errors.push(MESSAGES.audienceRequired);
    return empty;
  }
  const badTopics = someHasBadCharacters(topicsValue);
  const badCountries = someHasBadCharacters(countriesValue);
  if (badTopics) errors.push(MESSAGES.topicsCharacters);
  if (badCountries) errors.push(MESSAGES.countriesCharacters);
  if (badTopics || badCountries) return empty;
  const uniqueTopics = [...new Set(topics)];
  const uniqueCountries = [...new Set(countries)];
  const destinations = [...new Set([...uniqueTopics, ...uniqueCountries])];
  if (destinations.length === 0) {
    errors.push(MESSAGES.audienceRequired);
    return empty;
  }
  if (destinations.length > MAX_DESTINATIONS) {
    errors.push(MESSAGES.tooManyDestinations);
    return empty;
  }
  return { topics: uniqueTopics, countries: uniqueCountries, destinations };
}

export function utmField(value: unknown, m: { length: string; characters: string }, errors: string[]): string {
  if (isAbsent(value)) return '';
  if (typeof value !== 'string' || value.length > MAX_UTM_LENGTH) {
    errors.push(m.length);
    return '';
  }
  return clean(value, m.characters, errors);
}

export function ttlField(value: unknown, errors: string[]): number {
  if (isAbsent(value) || value === 0) return DEFAULT_TTL_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > DEFAULT_TTL_SECONDS) {
    errors.push(MESSAGES.ttlRange);
    return DEFAULT_TTL_SECONDS;
  }
  return value;
}

function throttleField(value: unknown, errors: string[]): number | null {
  if (isAbsent(value)) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_THROTTLE_PER_MINUTE) {
    errors.push(MESSAGES.throttlePerMinute);
    return null;
  }
  return value;
}

/**
 * The audience part of a create body (topics, countries, segment), by the create's own rules and
 * messages: what the console's live estimate counts before the campaign is created.
 */
export function validateAudienceInput(raw: Record<string, unknown>): { topics: string[]; countries: string[]; segment: Segment | null } {
  const errors: string[] = [];
  const audience = audienceFields(raw.topics, raw.countries, errors);
  const segment = segmentField(raw.segment, errors);
  if (errors.length > 0) throw new ValidationError(errors);
  return { topics: audience.topics, countries: audience.countries, segment };
}

/**
 * A plan preview's body (POST /v2/campaign/plan-preview, docs/api-decisions.md "Best time"): the
 * create's audience (topics, countries, segment) and `sendTime`, required here, by the create's
 * rules and messages, and when the window would start: `scheduleDate` unless `scheduleMode` is
 * `now` (a past date, or none, is now, as the scheduler sends it). The create's other fields are
 * ignored, so the composer can send its whole body.
 */
export function validatePlanPreviewInput(raw: Record<string, unknown>, now: Date): { topics: string[]; countries: string[]; segment: Segment | null; bestTime: BestTime; start: Date } {
  const errors: string[] = [];
  const audience = audienceFields(raw.topics, raw.countries, errors);
  const segment = segmentField(raw.segment, errors);
  const bestTime = isAbsent(raw.sendTime) ? null : bestTimeField(raw.sendTime, raw.localTime, errors);
  if (isAbsent(raw.sendTime)) errors.push(MESSAGES.sendTimeRequired);
  let start = now;
  if (raw.scheduleMode !== 'now' && !isAbsent(raw.scheduleDate) && raw.scheduleDate !== '') {
    const date = parseUtcDate(raw.scheduleDate);
    if (date === null) errors.push(fill(MESSAGES.invalidScheduleDate, { 'UTC date-time': EXAMPLE_DATE }));
    else if (date > now) start = date;
  }
  if (errors.length > 0 || bestTime === null) throw new ValidationError(errors);
  return { topics: audience.topics, countries: audience.countries, segment, bestTime, start };
}

/** The content fields of a create body (what a template renders to): the create's rules and messages, in its order. */
export const CONTENT_INPUT_FIELDS = ['title', 'body', 'link', 'callToAction', 'icon', 'image', 'utmSource', 'utmMedium', 'utmCampaign',
  'actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang'] as const;

/**
 * The content part of a create body alone, validated as validateCreateInput validates it (the
 * same rules, messages and order, the size of one push included): a template's preview.
 */
export function validateContentInput(raw: Record<string, unknown>): CampaignContent {
  const errors: string[] = [];
  const title = CONTENT_FIELD_RULES.title(raw.title, errors);
  const body = CONTENT_FIELD_RULES.body(raw.body, errors);
  const link = CONTENT_FIELD_RULES.link(raw.link, errors);
  const callToAction = CONTENT_FIELD_RULES.callToAction(raw.callToAction, errors);
  const icon = CONTENT_FIELD_RULES.icon(raw.icon, errors);
  const image = CONTENT_FIELD_RULES.image(raw.image, errors);
  const utmSource = utmField(raw.utmSource, { length: MESSAGES.utmSourceLength, characters: MESSAGES.utmSourceCharacters }, errors);
  const utmMedium = utmField(raw.utmMedium, { length: MESSAGES.utmMediumLength, characters: MESSAGES.utmMediumCharacters }, errors);
  const utmCampaign = utmField(raw.utmCampaign, { length: MESSAGES.utmCampaignLength, characters: MESSAGES.utmCampaignCharacters }, errors);
  const options = notificationOptionsField(raw, callToAction, errors);
  if (errors.length > 0) throw new ValidationError(errors);
  const content: CampaignContent = { title, body, link, utmSource, utmMedium, utmCampaign, icon, image, callToAction, options };
  if (!fitsOnePush(content)) throw new ValidationError([MESSAGES.notificationTooLarge]);
  return content;
}

/**
 * Returns the normalised input or throws ValidationError with every failing field's message.
 * `now`: the moment of the request (a local time's date may not be before its UTC date).
 */
export function validateCreateInput(raw: Record<string, unknown>, now: Date = new Date()): CreateInput {
  const errors: string[] = [];
  const title = CONTENT_FIELD_RULES.title(raw.title, errors);
  const body = CONTENT_FIELD_RULES.body(raw.body, errors);
  const link = CONTENT_FIELD_RULES.link(raw.link, errors);
  const audience = audienceFields(raw.topics, raw.countries, errors);
  const callToAction = CONTENT_FIELD_RULES.callToAction(raw.callToAction, errors);
  const icon = CONTENT_FIELD_RULES.icon(raw.icon, errors);
  const image = CONTENT_FIELD_RULES.image(raw.image, errors);
  const utmSource = utmField(raw.utmSource, { length: MESSAGES.utmSourceLength, characters: MESSAGES.utmSourceCharacters }, errors);
  const utmMedium = utmField(raw.utmMedium, { length: MESSAGES.utmMediumLength, characters: MESSAGES.utmMediumCharacters }, errors);
  const utmCampaign = utmField(raw.utmCampaign, { length: MESSAGES.utmCampaignLength, characters: MESSAGES.utmCampaignCharacters }, errors);

  const status = raw.status;
  if (status !== 'published' && status !== 'draft' && status !== 'failed') errors.push(MESSAGES.invalidStatus);
  const scheduleMode = raw.scheduleMode;
  if (scheduleMode !== 'now' && scheduleMode !== 'scheduled') errors.push(MESSAGES.invalidScheduleMode);

  let scheduleDate: Date | null = null;
  if (scheduleMode === 'scheduled') {
    if (isAbsent(raw.scheduleDate) || raw.scheduleDate === '') {
      errors.push(MESSAGES.scheduleDateRequired);
    } else {
      scheduleDate = parseUtcDate(raw.scheduleDate);
      if (scheduleDate === null) errors.push(fill(MESSAGES.invalidScheduleDate, { 'UTC date-time': EXAMPLE_DATE }));
    }
  }
  const ttl = ttlField(raw.ttl, errors);
  const segment = segmentField(raw.segment, errors);
  const throttlePerMinute = throttleField(raw.throttlePerMinute, errors);
  const ignoreFrequencyCap = raw.ignoreFrequencyCap ?? false;
  if (typeof ignoreFrequencyCap !== 'boolean') errors.push(MESSAGES.ignoreFrequencyCap);
  const localTime = localTimeField(raw.localTime, scheduleMode, scheduleDate, now, errors);
  const abTest = abTestField(raw.abTest, errors);
  const options = notificationOptionsField(raw, callToAction, errors);
  const urgency = urgencyField(raw.urgency, errors);
  const ignoreQuietHours = raw.ignoreQuietHours ?? false;
  if (typeof ignoreQuietHours !== 'boolean') errors.push(MESSAGES.ignoreQuietHours);
  const bestTime = bestTimeField(raw.sendTime, raw.localTime, errors);
  if (errors.length > 0) throw new ValidationError(errors);

  const input: CreateInput = {
    title,
    body,
    link,
    ...audience,
    status: status as CampaignStatus,
    scheduleMode: scheduleMode as ScheduleMode,
    scheduleDate,
    icon,
    image,
    callToAction,
    utmSource,
    utmMedium,
    utmCampaign,
    ttl,
    segment,
    throttlePerMinute,
    ignoreFrequencyCap: ignoreFrequencyCap === true,
    localTime,
    abTest,
    options,
    urgency,
    ignoreQuietHours: ignoreQuietHours === true,
    bestTime,
  };
  // The notification as the campaign's own content, then as each variant's.
  const content = campaignContent(input);
  const tooLarge = [...(fitsOnePush(content) ? [] : [MESSAGES.notificationTooLarge]), ...(abTest ? variantsThatDoNotFit(content, abTest) : [])];
  if (tooLarge.length > 0) throw new ValidationError(tooLarge);
  return input;
}
