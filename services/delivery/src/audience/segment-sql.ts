// A segment (services/shared/src/segment.ts) as SQL conditions on `delivery.subscribers s`,
// ANDed to an audience query: every value travels as a parameter, never in the text. Conditions
// on the subscriber's zone exclude subscribers without one; the UTC offset is the zone's at the
// moment the query runs (pg_timezone_names, read once per query, not per row).
import { zoneNames } from '../../../shared/src/local-time.js';
import type { Segment } from '../../../shared/src/segment.js';

export interface SegmentSql {
  /** '' for no segment, else ` AND (…) AND (…)`. */
  sql: string;
  params: unknown[];
}

/** The conditions of `segment`, their parameters numbered from `firstParam`. */
export function segmentSql(segment: Segment | null | undefined, firstParam: number): SegmentSql {
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
    conditions.push(`(split_part(lower(s.language), '-', 1) = ANY(${p(prefixes)}::text[]) OR lower(s.language) = ANY(${p(exact)}::text[]))`);
  }
  // Every name of each zone: rows stored before zones were canonical (or by an older release) match too.
  if (segment.timeZones) conditions.push(`s.time_zone = ANY(${p(zoneNames(segment.timeZones))}::text[])`);
  if (segment.utcOffset) {
    conditions.push(
      `s.time_zone = ANY(ARRAY(SELECT name FROM pg_timezone_names
                               WHERE extract(epoch FROM utc_offset) / 60 BETWEEN ${p(segment.utcOffset.min)}::int AND ${p(segment.utcOffset.max)}::int))`,
    );
  }
  if (segment.browsers) conditions.push(`delivery.browser_of(s.endpoint) = ANY(${p(segment.browsers)}::text[])`);
  if (segment.subscribedAfter) conditions.push(`s.created_at >= ${p(segment.subscribedAfter)}::timestamptz`);
  if (segment.subscribedBefore) conditions.push(`s.created_at < ${p(segment.subscribedBefore)}::timestamptz`);
  const engagedWithin = (days: number) =>
    `EXISTS (SELECT 1 FROM delivery.subscriber_engagement e WHERE e.subscriber_id = s.id AND e.last_engaged_at >= now() - ${p(days)}::int * interval '1 day')`;
  if (segment.engagedWithinDays) conditions.push(engagedWithin(segment.engagedWithinDays));
  if (segment.notEngagedForDays) conditions.push(`NOT ${engagedWithin(segment.notEngagedForDays)}`);
  return { sql: conditions.map((c) => ` AND ${c}`).join(''), params };
}
