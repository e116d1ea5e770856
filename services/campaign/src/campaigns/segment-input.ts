// Validation of a create's `segment` (packages/contracts/src/segment.ts): each wrong condition adds
// its message (in SEGMENT_FIELDS order); the result is normalised (lowercase languages, sorted
// and de-duplicated lists, dates to the second; tag conditions sorted and de-duplicated, their
// dates as UTC instants) so equal segments are stored and compared equal.
import {
  BROWSERS,
  DATE_OPERATORS,
  durationSeconds,
  MAX_TAG_CONDITIONS,
  MAX_TAG_IN_VALUES,
  NUMBER_OPERATORS,
  SEGMENT_FIELDS,
  TAG_CONDITION_FIELDS,
  TAG_OPERATORS,
  type Browser,
  type Segment,
  type TagCondition,
  type TagOperator,
} from '@webpush/contracts/segment.js';
import { isoDate, isTagKey, MAX_TAG_STRING_CHARS } from '@webpush/contracts/tag-values.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { canonicalZone } from '@webpush/contracts/local-time.js';
import { EXAMPLE_DATE, formatUtcDate, parseUtcDate } from '../base/dates.js';
import { fill, MESSAGES } from '../base/texts.js';

const MAX_LANGUAGES = 50;
const MAX_TIME_ZONES = 100;
const MAX_DAYS = 3650;
/** UTC−12:00 to UTC+14:00, the offsets zones have. */
const MIN_OFFSET = -720;
const MAX_OFFSET = 840;

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

function isTimeZone(name: string): boolean {
  if (!TIME_ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const sortedUnique = <T extends string>(values: T[]): T[] => [...new Set(values)].sort();

function list(value: unknown, max: number, valid: (s: string) => boolean): string[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > max) return null;
  if (!value.every((v) => typeof v === 'string' && valid(v))) return null;
  return value as string[];
}

function days(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_DAYS ? value : null;
}

type Scalar = string | number | boolean;

/**
 * A value `equals` or `in` compares, as the tag rule types it: a date-like string is a date (its
 * UTC instant), an impossible date is no value (null), a string past MAX_TAG_STRING_CHARS neither;
 * 'bad' for a string Postgres would refuse (NUL, unpaired surrogates).
 */
function comparable(v: unknown): Scalar | null | 'bad' {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  if (hasBadCharacters(v)) return 'bad';
  if ([...v].length > MAX_TAG_STRING_CHARS) return null;
  const date = isoDate(v);
  return date === undefined ? v : date === null ? null : date.toISOString();
}

/** One tag condition, normalised, or the message saying what is wrong with it (the first thing). */
function tagCondition(raw: unknown, i: number): TagCondition | string {
  const at = (template: string, operator = '') => fill(template, { i: String(i), operator });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return at(MESSAGES.segmentTagCondition);
  const c: Record<string, unknown> = Object.fromEntries(Object.entries(raw));
  if (Object.keys(c).some((k) => !(TAG_CONDITION_FIELDS as readonly string[]).includes(k))) return at(MESSAGES.segmentTagCondition);
  if (typeof c.key !== 'string' || !isTagKey(c.key)) return at(MESSAGES.segmentTagKey);
  if (typeof c.operator !== 'string' || !(TAG_OPERATORS as readonly string[]).includes(c.operator)) return at(MESSAGES.segmentTagOperator);
  const key = c.key;
  const operator = c.operator as TagOperator;
  if (operator === 'exists' || operator === 'notExists') {
    return c.value !== undefined || c.values !== undefined ? at(MESSAGES.segmentTagNoValue, operator) : { key, operator };
  }
  if (operator === 'in') {
    if (c.value !== undefined || !Array.isArray(c.values) || c.values.length === 0 || c.values.length > MAX_TAG_IN_VALUES) return at(MESSAGES.segmentTagIn);
    const values = c.values.map(comparable);
    if (values.includes('bad')) return at(MESSAGES.segmentTagCharacters);
    if (values.includes(null)) return at(MESSAGES.segmentTagIn);
    // Sorted by their JSON (a string "1" and a number 1 stay two values), without repeats.
    const distinct = [...new Map((values as Scalar[]).map((v) => [JSON.stringify(v), v])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { key, operator, values: distinct.map(([, v]) => v) };
  }
  if (c.values !== undefined) return at(MESSAGES.segmentTagCondition);
  if (operator === 'equals') {
    const value = comparable(c.value);
    if (value === 'bad') return at(MESSAGES.segmentTagCharacters);
    return value === null ? at(MESSAGES.segmentTagEquals) : { key, operator, value };
  }
  if ((NUMBER_OPERATORS as readonly string[]).includes(operator)) {
    return typeof c.value === 'number' && Number.isFinite(c.value)
      ? { key, operator: operator as (typeof NUMBER_OPERATORS)[number], value: c.value }
      : at(MESSAGES.segmentTagNumber, operator);
  }
  const dateOperator = operator as (typeof DATE_OPERATORS)[number];
  if (typeof c.value !== 'string') return at(MESSAGES.segmentTagDate, operator);
  const date = isoDate(c.value);
  if (date) return { key, operator: dateOperator, value: date.toISOString() };
  return durationSeconds(c.value) === null ? at(MESSAGES.segmentTagDate, operator) : { key, operator: dateOperator, value: c.value };
}

/** A segment's tag conditions, normalised (sorted, without repeats), or null after adding each wrong one's message to `errors`. */
function tagConditions(raw: unknown, errors: string[]): TagCondition[] | null {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_TAG_CONDITIONS) {
    errors.push(MESSAGES.segmentTags);
    return null;
  }
  const conditions = raw.map(tagCondition);
  const wrong = conditions.filter((c): c is string => typeof c === 'string');
  if (wrong.length > 0) {
    errors.push(...wrong);
    return null;
  }
  const distinct = new Map((conditions as TagCondition[]).map((c) => [JSON.stringify(c), c]));
  return [...distinct.keys()].sort().map((k) => distinct.get(k)!);
}

/** The normalised segment, or null for none (absent, null or `{}`); each wrong condition's message goes to `errors`. */
export function segmentField(raw: unknown, errors: string[]): Segment | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).some((k) => !(SEGMENT_FIELDS as readonly string[]).includes(k))) {
    errors.push(MESSAGES.segmentObject);
    return null;
  }
  // Own properties only: nothing inherited counts as a condition.
  const r: Record<string, unknown> = Object.fromEntries(Object.entries(raw));
  const s: Segment = {};
  const before = errors.length;
  if (r.languages !== undefined) {
    const v = list(r.languages, MAX_LANGUAGES, (t) => LANGUAGE_TAG.test(t));
    if (v === null) errors.push(MESSAGES.segmentLanguages);
    else s.languages = sortedUnique(v.map((t) => t.toLowerCase()));
  }
  if (r.timeZones !== undefined) {
    const v = list(r.timeZones, MAX_TIME_ZONES, isTimeZone);
    if (v === null) errors.push(MESSAGES.segmentTimeZones);
    // By the zone's one name: `Asia/Calcutta` is stored and matched as `Asia/Kolkata`.
    else s.timeZones = sortedUnique(v.map(canonicalZone));
  }
  if (r.utcOffset !== undefined) {
    const o = r.utcOffset as { min?: unknown; max?: unknown } | null;
    const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= MIN_OFFSET && n <= MAX_OFFSET;
    if (typeof o !== 'object' || o === null || Array.isArray(o) || Object.keys(o).some((k) => k !== 'min' && k !== 'max') || !whole(o.min) || !whole(o.max) || o.min > o.max) {
      errors.push(MESSAGES.segmentUtcOffset);
    } else {
      s.utcOffset = { min: o.min, max: o.max };
    }
  }
  if (r.browsers !== undefined) {
    const v = list(r.browsers, BROWSERS.length * 4, (b) => (BROWSERS as readonly string[]).includes(b));
    if (v === null) errors.push(MESSAGES.segmentBrowsers);
    else s.browsers = sortedUnique(v as Browser[]);
  }
  const dates: Partial<Record<'subscribedAfter' | 'subscribedBefore', Date>> = {};
  for (const field of ['subscribedAfter', 'subscribedBefore'] as const) {
    if (r[field] === undefined) continue;
    const d = parseUtcDate(r[field]);
    if (d === null) errors.push(fill(field === 'subscribedAfter' ? MESSAGES.segmentSubscribedAfter : MESSAGES.segmentSubscribedBefore, { 'UTC date-time': EXAMPLE_DATE }));
    else dates[field] = d;
  }
  if (dates.subscribedAfter && dates.subscribedBefore && dates.subscribedAfter >= dates.subscribedBefore) errors.push(MESSAGES.segmentSubscribedOrder);
  else {
    if (dates.subscribedAfter) s.subscribedAfter = formatUtcDate(dates.subscribedAfter);
    if (dates.subscribedBefore) s.subscribedBefore = formatUtcDate(dates.subscribedBefore);
  }
  for (const field of ['engagedWithinDays', 'notEngagedForDays'] as const) {
    if (r[field] === undefined) continue;
    const n = days(r[field]);
    if (n === null) errors.push(field === 'engagedWithinDays' ? MESSAGES.segmentEngagedWithin : MESSAGES.segmentNotEngagedFor);
    else s[field] = n;
  }
  if (r.tags !== undefined) {
    const tags = tagConditions(r.tags, errors);
    if (tags !== null) s.tags = tags;
  }
  if (errors.length > before) return null;
  // In SEGMENT_FIELDS order, so the stored JSON is the same whatever order the request had.
  const ordered: Segment = {};
  for (const field of SEGMENT_FIELDS) if (s[field] !== undefined) (ordered as Record<string, unknown>)[field] = s[field];
  return Object.keys(ordered).length === 0 ? null : ordered;
}
