// Validation of a create's `segment` (packages/contracts/src/segment.ts): each wrong condition adds
// its message (in SEGMENT_FIELDS order); the result is normalised (lowercase languages, sorted
// and de-duplicated lists, dates to the second) so equal segments are stored and compared equal.
import { BROWSERS, SEGMENT_FIELDS, type Browser, type Segment } from '@webpush/contracts/segment.js';
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
  if (errors.length > before) return null;
  // In SEGMENT_FIELDS order, so the stored JSON is the same whatever order the request had.
  const ordered: Segment = {};
  for (const field of SEGMENT_FIELDS) if (s[field] !== undefined) (ordered as Record<string, unknown>)[field] = s[field];
  return Object.keys(ordered).length === 0 ? null : ordered;
}
