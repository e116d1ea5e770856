// A segment (packages/contracts/src/segment.ts) as SQL conditions ANDed to an audience query: on
// `delivery.subscribers s` (segmentSql: the sender's audience, and counts with a time condition),
// or its static conditions on a profile `delivery.audience_profile_ids p` (profileSql: counts from
// the groups' per-profile counters, count-store.ts). Every value travels as a parameter, never in the text.
// Conditions on the subscriber's zone exclude subscribers without one; the UTC offset is the
// zone's at the moment the query runs (pg_timezone_names, read once per query, not per row).
import { zoneNames } from '@webpush/contracts/local-time.js';
import type { Segment } from '@webpush/contracts/segment.js';

export interface SegmentSql {
  /** '' for no segment, else ` AND (…) AND (…)`. */
  sql: string;
  params: unknown[];
}

/** Where a condition finds a subscriber's language (lower-cased; null when none), zone and browser family. */
interface Columns {
  language: string;
  zone: string;
  browser: string;
}

const SUBSCRIBER_COLUMNS: Columns = { language: 'lower(s.language)', zone: 's.time_zone', browser: 'delivery.browser_of(s.endpoint)' };
// A profile stores a missing language as '': made null again, so it matches what a subscriber without one matches.
const PROFILE_COLUMNS: Columns = { language: "nullif(p.language, '')", zone: 'p.time_zone', browser: 'p.browser' };

/** The conditions of `segment` on `delivery.subscribers s`, their parameters numbered from `firstParam`. */
export function segmentSql(segment: Segment | null | undefined, firstParam: number): SegmentSql {
  return conditionsSql(segment, firstParam, SUBSCRIBER_COLUMNS, true);
}

/** True when the segment tests when subscribers subscribed or engaged: conditions no counter keeps. */
export function hasTimeConditions(segment: Segment | null | undefined): boolean {
  return !!segment && TIME_FIELDS.some((f) => segment[f] !== undefined);
}

const TIME_FIELDS = ['subscribedAfter', 'subscribedBefore', 'engagedWithinDays', 'notEngagedForDays'] as const satisfies readonly (keyof Segment)[];

/** The segment without its time conditions: what the counters can count. */
export function staticPart(segment: Segment): Segment {
  const { subscribedAfter: _a, subscribedBefore: _b, engagedWithinDays: _e, notEngagedForDays: _n, ...rest } = segment;
  return rest;
}

/** The segment's time conditions alone on `delivery.subscribers s`, ANDed (`true` for none), parameters numbered from `firstParam`. */
export function timeSql(segment: Segment, firstParam: number): SegmentSql {
  const params: unknown[] = [];
  const conditions = timeConditions(segment, (value) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  });
  return { sql: conditions.length === 0 ? 'true' : conditions.join(' AND '), params };
}

/**
 * The segment's static conditions (languages, zones, UTC offset, browsers) on `delivery.audience_profile_ids p`,
 * whose language is stored lower-cased and whose missing language or zone is '': the same meaning
 * as segmentSql's, so a count from the counters equals the count over the subscribers.
 */
export function profileSql(segment: Segment | null | undefined, firstParam: number): SegmentSql {
  return conditionsSql(segment, firstParam, PROFILE_COLUMNS, false);
}

function conditionsSql(segment: Segment | null | undefined, firstParam: number, col: Columns, withTime: boolean): SegmentSql {
  if (!segment) return { sql: '', params: [] };
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  const conditions: string[] = [];
  if (segment.languages) {
    // `pt` matches every `pt-…`; `pt-br` matches `pt-BR` only.
    const prefixes = segment.languages.filter((l) => !l.includes('-'));
    const exact = segment.languages.filter((l) => l.includes('-'));
    conditions.push(`(split_part(${col.language}, '-', 1) = ANY(${p(prefixes)}::text[]) OR ${col.language} = ANY(${p(exact)}::text[]))`);
  }
  // Every name of each zone: rows stored before zones were canonical (or by an older release) match too.
  if (segment.timeZones) conditions.push(`${col.zone} = ANY(${p(zoneNames(segment.timeZones))}::text[])`);
  if (segment.utcOffset) {
    conditions.push(
      `${col.zone} = ANY(ARRAY(SELECT name FROM pg_timezone_names
                               WHERE extract(epoch FROM utc_offset) / 60 BETWEEN ${p(segment.utcOffset.min)}::int AND ${p(segment.utcOffset.max)}::int))`,
    );
  }
  if (segment.browsers) conditions.push(`${col.browser} = ANY(${p(segment.browsers)}::text[])`);
  if (withTime) conditions.push(...timeConditions(segment, p));
  return { sql: conditions.map((c) => ` AND ${c}`).join(''), params };
}

function timeConditions(segment: Segment, p: (value: unknown) => string): string[] {
  const conditions: string[] = [];
  if (segment.subscribedAfter) conditions.push(`s.created_at >= ${p(segment.subscribedAfter)}::timestamptz`);
  if (segment.subscribedBefore) conditions.push(`s.created_at < ${p(segment.subscribedBefore)}::timestamptz`);
  const engagedWithin = (days: number) =>
    `EXISTS (SELECT 1 FROM delivery.subscriber_engagement e WHERE e.subscriber_id = s.id AND e.last_engaged_at >= now() - ${p(days)}::int * interval '1 day')`;
  if (segment.engagedWithinDays) conditions.push(engagedWithin(segment.engagedWithinDays));
  if (segment.notEngagedForDays) conditions.push(`NOT ${engagedWithin(segment.notEngagedForDays)}`);
  return conditions;
}
