// A segment (packages/contracts/src/segment.ts) as SQL conditions ANDed to an audience query: on
// `delivery.subscribers s` (segmentSql: the sender's audience, and counts with a row condition),
// or its static conditions on a profile `delivery.audience_profile_ids p` (profileSql: counts from
// the groups' per-profile counters, count-store.ts). Every value travels as a parameter, never in the text.
// Conditions on the subscriber's zone exclude subscribers without one; the UTC offset is the
// zone's at the moment the query runs (pg_timezone_names, read once per query, not per row).
// Row conditions are those no counter keeps: the time conditions and the tag conditions.
import { zoneNames } from '@webpush/contracts/local-time.js';
import { durationSeconds, type Segment, type TagCondition } from '@webpush/contracts/segment.js';
import { isoDate } from '@webpush/contracts/tag-values.js';

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

/**
 * The conditions of `segment` on `delivery.subscribers s`, their parameters numbered from `firstParam`.
 * `inIdOrder`: for a keyset walk of the subscribers in id order (the sender's slices), where each
 * tag condition must stay a probe per subscriber walked (tagConditionSql).
 */
export function segmentSql(segment: Segment | null | undefined, firstParam: number, inIdOrder = false): SegmentSql {
  return conditionsSql(segment, firstParam, SUBSCRIBER_COLUMNS, true, inIdOrder);
}

/** True when the segment tests when subscribers subscribed or engaged, or their tags: conditions no counter keeps. */
export function hasRowConditions(segment: Segment | null | undefined): boolean {
  return !!segment && ROW_FIELDS.some((f) => segment[f] !== undefined);
}

const ROW_FIELDS = ['subscribedAfter', 'subscribedBefore', 'engagedWithinDays', 'notEngagedForDays', 'tags'] as const satisfies readonly (keyof Segment)[];

/** The segment without its row conditions: what the counters can count. */
export function staticPart(segment: Segment): Segment {
  const { subscribedAfter: _a, subscribedBefore: _b, engagedWithinDays: _e, notEngagedForDays: _n, tags: _t, ...rest } = segment;
  return rest;
}

/** The segment's row conditions alone on `delivery.subscribers s`, ANDed (`true` for none), parameters numbered from `firstParam`. */
export function rowSql(segment: Segment, firstParam: number): SegmentSql {
  const params: unknown[] = [];
  const conditions = rowConditions(
    segment,
    (value) => {
      params.push(value);
      return `$${firstParam + params.length - 1}`;
    },
    false,
  );
  return { sql: conditions.length === 0 ? 'true' : conditions.join(' AND '), params };
}

/**
 * The segment's static conditions (languages, zones, UTC offset, browsers) on `delivery.audience_profile_ids p`,
 * whose language is stored lower-cased and whose missing language or zone is '': the same meaning
 * as segmentSql's, so a count from the counters equals the count over the subscribers.
 */
export function profileSql(segment: Segment | null | undefined, firstParam: number): SegmentSql {
  return conditionsSql(segment, firstParam, PROFILE_COLUMNS, false, false);
}

function conditionsSql(segment: Segment | null | undefined, firstParam: number, col: Columns, withRows: boolean, inIdOrder: boolean): SegmentSql {
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
  if (withRows) conditions.push(...rowConditions(segment, p, inIdOrder));
  return { sql: conditions.map((c) => ` AND ${c}`).join(''), params };
}

function rowConditions(segment: Segment, p: (value: unknown) => string, inIdOrder: boolean): string[] {
  const conditions: string[] = [];
  if (segment.subscribedAfter) conditions.push(`s.created_at >= ${p(segment.subscribedAfter)}::timestamptz`);
  if (segment.subscribedBefore) conditions.push(`s.created_at < ${p(segment.subscribedBefore)}::timestamptz`);
  const engagedWithin = (days: number) =>
    `EXISTS (SELECT 1 FROM delivery.subscriber_engagement e WHERE e.subscriber_id = s.id AND e.last_engaged_at >= now() - ${p(days)}::int * interval '1 day')`;
  if (segment.engagedWithinDays) conditions.push(engagedWithin(segment.engagedWithinDays));
  if (segment.notEngagedForDays) conditions.push(`NOT ${engagedWithin(segment.notEngagedForDays)}`);
  for (const tag of segment.tags ?? []) conditions.push(tagConditionSql(tag, p, inIdOrder));
  return conditions;
}

/**
 * A tag condition on the tags of the subscriber's person (docs/people.md): a subscription of nobody
 * has no tags, so it meets only `notExists`. Two plans: a probe per subscriber (the link's primary
 * key, then person_tags' (person, key)), or, for a count, driven from the tag's value (the
 * person_tags_* indexes, migrations/20261208030000_segment_tags.sql) through
 * person_subscriptions_person, whichever the planner finds cheaper. `inIdOrder` keeps the probe:
 * `OFFSET 0` stops Postgres from turning the EXISTS into a join, which for a slice of 500 in id
 * order it would otherwise start from the tag's index when it underestimates the matches (it
 * multiplies the key's and the value's selectivities, which are not independent), joining and
 * sorting every match for every slice: 5.6 s a slice for 96,000 matches of 1,000,000 (docs/people.md,
 * "Segments on tags"). A probe per subscriber walked costs each slice only the rows it passes.
 */
function tagConditionSql(c: TagCondition, p: (value: unknown) => string, inIdOrder: boolean): string {
  const tagged = (valueSql: string) =>
    `EXISTS (SELECT 1 FROM delivery.person_subscriptions l JOIN delivery.person_tags t ON t.person_id = l.person_id
              WHERE l.subscriber_id = s.id AND t.key = ${p(c.key)}${valueSql === '' ? '' : ` AND ${valueSql}`}${inIdOrder ? ' OFFSET 0' : ''})`;
  switch (c.operator) {
    case 'exists':
      return tagged('');
    case 'notExists':
      return `NOT ${tagged('')}`;
    case 'equals':
    case 'in':
      return tagged(oneOf(c.operator === 'in' ? c.values : [c.value], p));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return tagged(`t.kind = 'number' AND t.number_value ${COMPARE[c.operator]} ${p(c.value)}::float8`);
    case 'before':
    case 'after': {
      const date = isoDate(c.value);
      // A duration is from the moment the audience is read: at create for the count, at the send for the send.
      const at = date ? `${p(date.toISOString())}::timestamptz` : `now() + ${p(durationSeconds(c.value))}::float8 * interval '1 second'`;
      return tagged(`t.kind = 'date' AND t.date_value ${c.operator === 'before' ? '<' : '>='} ${at}`);
    }
  }
}

const COMPARE = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * The tag holds one of the values, each compared in the column of its kind (a date-like string is
 * a date, as the tag rule says). Each comparison names its kind too, which the table's CHECK makes
 * redundant but the planner needs to use that kind's partial index.
 */
function oneOf(values: readonly (string | number | boolean)[], p: (value: unknown) => string): string {
  const strings: string[] = [];
  const dates: string[] = [];
  const numbers: number[] = [];
  const booleans: boolean[] = [];
  for (const v of values) {
    if (typeof v === 'number') numbers.push(v);
    else if (typeof v === 'boolean') booleans.push(v);
    else {
      const date = isoDate(v);
      if (date) dates.push(date.toISOString());
      else strings.push(v);
    }
  }
  const any: string[] = [];
  if (strings.length > 0) any.push(`(t.kind = 'string' AND t.string_value = ANY(${p(strings)}::text[]))`);
  if (numbers.length > 0) any.push(`(t.kind = 'number' AND t.number_value = ANY(${p(numbers)}::float8[]))`);
  if (dates.length > 0) any.push(`(t.kind = 'date' AND t.date_value = ANY(${p(dates)}::timestamptz[]))`);
  if (booleans.length > 0) any.push(`(t.kind = 'boolean' AND t.boolean_value = ANY(${p(booleans)}::boolean[]))`);
  return any.length === 1 ? any[0] : `(${any.join(' OR ')})`;
}
