// Validation of the create body, rule by rule from the spec's 400 table and
// docs/api-decisions.md. Every failing field contributes its message, in the table's order.
import { buildPushPayload, campaignContent, type CampaignContent, MAX_PUSH_PLAINTEXT_BYTES, TRACKING_TOKEN_RESERVED_CHARS } from '../../../shared/src/campaign-content.js';
import { hasBadCharacters, someHasBadCharacters } from '../../../shared/src/text.js';
import { EXAMPLE_DATE, parseUtcDate } from './dates.js';
import { graphemeLength } from './text.js';
import { segmentField } from './segment-input.js';
import type { Segment } from '../../../shared/src/segment.js';
import { ValidationError } from './errors.js';
import { fill, MESSAGES } from './messages.js';

export type CampaignStatus = 'published' | 'draft' | 'failed';
export type ScheduleMode = 'now' | 'scheduled';

export const DEFAULT_TTL_SECONDS = 2_419_200;
const MAX_URL_LENGTH = 2048;
const MAX_UTM_LENGTH = 200;
const MAX_DESTINATIONS = 100;
// Entries read at all (before trimming and de-duplicating): more can never leave 100 names worth sending.
const MAX_AUDIENCE_ENTRIES = 1000;
const COUNTRY_PREFIX = 'country__';

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
}

const isAbsent = (v: unknown) => v === undefined || v === null;

/**
 * Not a string, or only whitespace, counts as missing for the `… is required` messages. The
 * spec's checks of a field come first; NUL and unpaired surrogates are refused after them
 * (one message per field).
 */
function textField(value: unknown, min: number, max: number, m: { required: string; length: string; characters: string }, errors: string[]): string {
  if (isAbsent(value) || (typeof value === 'string' && value.trim() === '')) {
    errors.push(m.required);
    return '';
  }
  const length = typeof value === 'string' ? graphemeLength(value, max) : -1;
  if (length < min || length > max) {
    errors.push(m.length);
    return '';
  }
  return clean(value as string, m.characters, errors);
}

/** `text`, or '' with `message` (the field's `… must not contain NUL characters or unpaired surrogates`). */
function clean(text: string, message: string, errors: string[]): string {
  if (!hasBadCharacters(text)) return text;
  errors.push(message);
  return '';
}

function hasControlCharacters(s: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(s);
}

function isUrl(s: string, scheme: RegExp): boolean {
  if (s.length > MAX_URL_LENGTH || !scheme.test(s) || hasControlCharacters(s)) return false;
  try {
    return new URL(s).hostname !== '';
  } catch {
    return false;
  }
}

function linkField(value: unknown, errors: string[]): string {
  if (isAbsent(value) || value === '') {
    errors.push(MESSAGES.linkRequired);
    return '';
  }
  if (typeof value === 'string' && hasBadCharacters(value)) return clean(value, MESSAGES.linkCharacters, errors);
  if (typeof value !== 'string' || !isUrl(value, /^https?:\/\//i)) {
    errors.push(MESSAGES.linkUrl);
    return '';
  }
  return value;
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

function optionalUrl(value: unknown, m: { url: string; characters: string }, errors: string[]): string | null {
  if (isAbsent(value) || value === '') return null;
  // The spec's rule (starts with https://) first, then the characters, then the rest of a URL.
  if (typeof value === 'string' && value.startsWith('https://') && hasBadCharacters(value)) return clean(value, m.characters, errors) || null;
  if (typeof value !== 'string' || !isUrl(value, /^https:\/\//)) {
    errors.push(m.url);
    return null;
  }
  return value;
}

function utmField(value: unknown, m: { length: string; characters: string }, errors: string[]): string {
  if (isAbsent(value)) return '';
  if (typeof value !== 'string' || value.length > MAX_UTM_LENGTH) {
    errors.push(m.length);
    return '';
  }
  return clean(value, m.characters, errors);
}

function ttlField(value: unknown, errors: string[]): number {
  if (isAbsent(value) || value === 0) return DEFAULT_TTL_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > DEFAULT_TTL_SECONDS) {
    errors.push(MESSAGES.ttlRange);
    return DEFAULT_TTL_SECONDS;
  }
  return value;
}

export const MAX_THROTTLE_PER_MINUTE = 1_000_000;

function throttleField(value: unknown, errors: string[]): number | null {
  if (isAbsent(value)) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_THROTTLE_PER_MINUTE) {
    errors.push(MESSAGES.throttlePerMinute);
    return null;
  }
  return value;
}

function fitsOnePush(input: CreateInput): boolean {
  const payload = buildPushPayload('00000000-0000-0000-0000-000000000000', campaignContent(input), 'x'.repeat(TRACKING_TOKEN_RESERVED_CHARS));
  return Buffer.byteLength(payload, 'utf8') <= MAX_PUSH_PLAINTEXT_BYTES;
}

/** Returns the normalised input or throws ValidationError with every failing field's message. */
export function validateCreateInput(raw: Record<string, unknown>): CreateInput {
  const errors: string[] = [];
  const title = textField(raw.title, 3, 100, { required: MESSAGES.titleRequired, length: MESSAGES.titleLength, characters: MESSAGES.titleCharacters }, errors);
  const body = textField(raw.body, 3, 300, { required: MESSAGES.bodyRequired, length: MESSAGES.bodyLength, characters: MESSAGES.bodyCharacters }, errors);
  const link = linkField(raw.link, errors);
  const audience = audienceFields(raw.topics, raw.countries, errors);

  let callToAction = '';
  if (!isAbsent(raw.callToAction)) {
    if (typeof raw.callToAction !== 'string' || graphemeLength(raw.callToAction, 20) > 20) {
      errors.push(MESSAGES.callToActionLength);
    } else {
      callToAction = clean(raw.callToAction, MESSAGES.callToActionCharacters, errors);
    }
  }
  const icon = optionalUrl(raw.icon, { url: MESSAGES.iconUrl, characters: MESSAGES.iconCharacters }, errors);
  const image = optionalUrl(raw.image, { url: MESSAGES.imageUrl, characters: MESSAGES.imageCharacters }, errors);
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
  };
  if (!fitsOnePush(input)) throw new ValidationError([MESSAGES.notificationTooLarge]);
  return input;
}
