// Validation of the create body, rule by rule from the spec's 400 table and
// docs/api-decisions.md. Every failing field contributes its message, in the table's order.
import { buildPushPayload, MAX_PUSH_PLAINTEXT_BYTES, TRACKING_TOKEN_RESERVED_CHARS } from '../../../shared/src/push-payload.js';
import { BAD_CHARACTERS, hasBadCharacters, someHasBadCharacters } from '../../../shared/src/text.js';
import { EXAMPLE_DATE, parseUtcDate } from './dates.js';
import { graphemeLength } from './text.js';
import { ValidationError } from './errors.js';

export type CampaignStatus = 'published' | 'draft' | 'failed';
export type ScheduleMode = 'now' | 'scheduled';

export const DEFAULT_TTL_SECONDS = 2_419_200;
const MAX_URL_LENGTH = 2048;
const MAX_UTM_LENGTH = 200;
const MAX_DESTINATIONS = 100;
// Entries read at all (before trimming and de-duplicating): more can never leave 100 names worth sending.
const MAX_AUDIENCE_ENTRIES = 1000;
const COUNTRY_PREFIX = 'country__';

export interface CreateInput {
  title: string;
  body: string;
  link: string;
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
  icon: string | null;
  image: string | null;
  callToAction: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ttl: number;
}

const isAbsent = (v: unknown) => v === undefined || v === null;

/**
 * Not a string, or only whitespace, counts as missing for the `… is required` messages. The
 * spec's checks of a field come first; NUL and unpaired surrogates are refused after them
 * (one message per field).
 */
function textField(value: unknown, name: string, min: number, max: number, errors: string[]): string {
  if (isAbsent(value) || (typeof value === 'string' && value.trim() === '')) {
    errors.push(`${name} is required`);
    return '';
  }
  const length = typeof value === 'string' ? graphemeLength(value, max) : -1;
  if (length < min || length > max) {
    errors.push(`${name} must be between ${min} and ${max} characters`);
    return '';
  }
  return clean(value as string, name, errors);
}

/** `text`, or '' with `<name> must not contain NUL characters or unpaired surrogates`. */
function clean(text: string, name: string, errors: string[]): string {
  if (!hasBadCharacters(text)) return text;
  errors.push(`${name} ${BAD_CHARACTERS}`);
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
    errors.push('Link is required');
    return '';
  }
  if (typeof value === 'string' && hasBadCharacters(value)) return clean(value, 'Link', errors);
  if (typeof value !== 'string' || !isUrl(value, /^https?:\/\//i)) {
    errors.push('Link must be a valid URL');
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
    errors.push(`At most ${MAX_DESTINATIONS} topics and countries may be specified`);
    return empty;
  }
  const topics = names(topicsValue, (t) => t);
  const countries = names(countriesValue, (c) => (c.startsWith(COUNTRY_PREFIX) ? c : COUNTRY_PREFIX + c));
  if (topics === null || countries === null) {
    errors.push('At least one topic or country must be specified');
    return empty;
  }
  const badTopics = someHasBadCharacters(topicsValue);
  const badCountries = someHasBadCharacters(countriesValue);
  if (badTopics) errors.push(`Topics ${BAD_CHARACTERS}`);
  if (badCountries) errors.push(`Countries ${BAD_CHARACTERS}`);
  if (badTopics || badCountries) return empty;
  const uniqueTopics = [...new Set(topics)];
  const uniqueCountries = [...new Set(countries)];
  const destinations = [...new Set([...uniqueTopics, ...uniqueCountries])];
  if (destinations.length === 0) {
    errors.push('At least one topic or country must be specified');
    return empty;
  }
  if (destinations.length > MAX_DESTINATIONS) {
    errors.push(`At most ${MAX_DESTINATIONS} topics and countries may be specified`);
    return empty;
  }
  return { topics: uniqueTopics, countries: uniqueCountries, destinations };
}

function optionalUrl(value: unknown, label: string, errors: string[]): string | null {
  if (isAbsent(value) || value === '') return null;
  // The spec's rule (starts with https://) first, then the characters, then the rest of a URL.
  if (typeof value === 'string' && value.startsWith('https://') && hasBadCharacters(value)) return clean(value, label, errors) || null;
  if (typeof value !== 'string' || !isUrl(value, /^https:\/\//)) {
    errors.push(`${label} must be a valid URL`);
    return null;
  }
  return value;
}

function utmField(value: unknown, name: string, errors: string[]): string {
  if (isAbsent(value)) return '';
  if (typeof value !== 'string' || value.length > MAX_UTM_LENGTH) {
    errors.push(`${name} must be a string of at most ${MAX_UTM_LENGTH} characters`);
    return '';
  }
  return clean(value, name, errors);
}

function ttlField(value: unknown, errors: string[]): number {
  if (isAbsent(value) || value === 0) return DEFAULT_TTL_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > DEFAULT_TTL_SECONDS) {
    errors.push('TTL must be between 0 and 28 days in seconds');
    return DEFAULT_TTL_SECONDS;
  }
  return value;
}

function fitsOnePush(input: CreateInput): boolean {
  const payload = buildPushPayload({
    campaignId: '00000000-0000-0000-0000-000000000000',
    title: input.title,
    body: input.body,
    link: input.link,
    utmSource: input.utmSource,
    utmMedium: input.utmMedium,
    utmCampaign: input.utmCampaign,
    icon: input.icon,
    image: input.image,
    callToAction: input.callToAction,
    trackingToken: 'x'.repeat(TRACKING_TOKEN_RESERVED_CHARS),
  });
  return Buffer.byteLength(payload, 'utf8') <= MAX_PUSH_PLAINTEXT_BYTES;
}

/** Returns the normalised input or throws ValidationError with every failing field's message. */
export function validateCreateInput(raw: Record<string, unknown>): CreateInput {
  const errors: string[] = [];
  const title = textField(raw.title, 'Title', 3, 100, errors);
  const body = textField(raw.body, 'Body', 3, 300, errors);
  const link = linkField(raw.link, errors);
  const audience = audienceFields(raw.topics, raw.countries, errors);

  let callToAction = '';
  if (!isAbsent(raw.callToAction)) {
    if (typeof raw.callToAction !== 'string' || graphemeLength(raw.callToAction, 20) > 20) {
      errors.push('Call to action must not exceed 20 characters');
    } else {
      callToAction = clean(raw.callToAction, 'Call to action', errors);
    }
  }
  const icon = optionalUrl(raw.icon, 'Icon', errors);
  const image = optionalUrl(raw.image, 'Image', errors);
  const utmSource = utmField(raw.utmSource, 'utmSource', errors);
  const utmMedium = utmField(raw.utmMedium, 'utmMedium', errors);
  const utmCampaign = utmField(raw.utmCampaign, 'utmCampaign', errors);

  const status = raw.status;
  if (status !== 'published' && status !== 'draft' && status !== 'failed') errors.push('Invalid campaign status');
  const scheduleMode = raw.scheduleMode;
  if (scheduleMode !== 'now' && scheduleMode !== 'scheduled') errors.push('Invalid schedule mode');

  let scheduleDate: Date | null = null;
  if (scheduleMode === 'scheduled') {
    if (isAbsent(raw.scheduleDate) || raw.scheduleDate === '') {
      errors.push('Schedule date is required for schedule mode');
    } else {
      scheduleDate = parseUtcDate(raw.scheduleDate);
      if (scheduleDate === null) errors.push(`Invalid schedule date format. Use ISO format (e.g. ${EXAMPLE_DATE})`);
    }
  }
  const ttl = ttlField(raw.ttl, errors);
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
  };
  if (!fitsOnePush(input)) throw new ValidationError(['Notification is too large to send (over 4096 bytes encrypted)']);
  return input;
}
