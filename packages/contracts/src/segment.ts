// A campaign's segment (an addition to POST /v2/campaign/create, docs/api-decisions.md
// "Segments"): conditions that narrow the audience beyond topics and countries. The audience is
// (topics ∪ countries) ∩ every condition given; within a list, any entry matches (a list of tag
// conditions being conditions, every one of them must hold). The campaign
// service validates it (services/campaign/src/campaigns/segment-input.ts) and stores it, the dispatch
// message and the audience count carry it, the delivery service turns it into SQL
// (services/delivery/src/audience/segment-sql.ts).

/** Browser families, told from the push service a subscription points at (delivery.browser_of). */
export const BROWSERS = ['chrome', 'edge', 'firefox', 'safari', 'other'] as const;
export type Browser = (typeof BROWSERS)[number];

export interface Segment {
  /** Lowercase tags: `pt` matches `pt` and every `pt-…`; `pt-br` matches `pt-BR` only. */
  languages?: string[];
  /** IANA names (`America/Sao_Paulo`), each zone by its one name (local-time.ts canonicalZone). */
  timeZones?: string[];
  /** The subscriber's zone's UTC offset at the moment the audience is read, in minutes, inclusive. */
  utcOffset?: { min: number; max: number };
  browsers?: Browser[];
  /** UTC date-times (seconds): subscribed at or after / before. */
  subscribedAfter?: string;
  subscribedBefore?: string;
  /** An impression or click within the last N days. */
  engagedWithinDays?: number;
  /** No impression or click within the last N days (never engaged included). */
  notEngagedForDays?: number;
  /** Conditions on the data tags of the subscription's person (docs/people.md, "Tags"), every one of them. */
  tags?: TagCondition[];
}

/**
 * Operators of a tag condition. `equals` and `in` compare a value of the tag's kind (a string, a
 * number, a boolean, or a date: a date-like string is a date, as for a tag); `gt`…`lte` a number
 * tag; `before`/`after` a date tag with an instant or a duration from the moment the audience is
 * read; `exists`/`notExists` whether the person has the tag at all (a subscription of nobody has no tags).
 */
export const TAG_OPERATORS = ['equals', 'in', 'exists', 'notExists', 'gt', 'gte', 'lt', 'lte', 'before', 'after'] as const;
export type TagOperator = (typeof TAG_OPERATORS)[number];
export const NUMBER_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const satisfies readonly TagOperator[];
export const DATE_OPERATORS = ['before', 'after'] as const satisfies readonly TagOperator[];

/**
 * A tag condition as stored and carried: normalised, so a date travels as its UTC instant with
 * milliseconds (`2026-12-07T00:00:00.000Z`, what isoDate reads back as a date) and a duration as
 * written (`-P7D`, durationSeconds).
 */
export type TagCondition =
  | { key: string; operator: 'exists' | 'notExists' }
  | { key: string; operator: 'equals'; value: string | number | boolean }
  | { key: string; operator: 'in'; values: (string | number | boolean)[] }
  | { key: string; operator: (typeof NUMBER_OPERATORS)[number]; value: number }
  | { key: string; operator: (typeof DATE_OPERATORS)[number]; value: string };

/** A tag condition's fields: `value` for every operator but `in` (`values`) and `exists`/`notExists` (none). */
export const TAG_CONDITION_FIELDS = ['key', 'operator', 'value', 'values'] as const;

/** At most this many tag conditions in a segment, and this many values in an `in`. */
export const MAX_TAG_CONDITIONS = 10;
export const MAX_TAG_IN_VALUES = 100;
/** A duration from now: at most ten years either way, as the segment's day counts. */
export const MAX_DURATION_DAYS = 3650;

// ISO 8601 durations of fixed length only (weeks, days, hours, minutes, seconds): a month or a year
// has no one length, so `P1M` would mean different spans on different days.
export const DURATION = /^([+-])?P(?!$)(?:(\d{1,7})W)?(?:(\d{1,7})D)?(?:T(?=\d)(?:(\d{1,7})H)?(?:(\d{1,7})M)?(?:(\d{1,9})S)?)?$/;

/** The signed seconds of a duration from now (`-P7D`: 7 days ago, `PT12H`: in 12 hours), or null when it is not one within MAX_DURATION_DAYS. */
export function durationSeconds(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const [w, d, h, min, sec] = m.slice(2).map((x) => Number(x ?? 0));
  const seconds = (((w * 7 + d) * 24 + h) * 60 + min) * 60 + sec;
  if (seconds > MAX_DURATION_DAYS * 86_400) return null;
  return m[1] === '-' && seconds > 0 ? -seconds : seconds;
}

export const SEGMENT_FIELDS = [
  'languages',
  'timeZones',
  'utcOffset',
  'browsers',
  'subscribedAfter',
  'subscribedBefore',
  'engagedWithinDays',
  'notEngagedForDays',
  'tags',
] as const satisfies readonly (keyof Segment)[];
