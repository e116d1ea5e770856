// Reads of the precomputed audience counters (maintained by triggers on subscribers, see the
// migrations: 20250101000000_audience.sql, 20261205140000_audience_group_profiles.sql); only a
// segment with a time or tag condition reads the subscribers table.
import type { Queryable } from '@webpush/shared/db.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { hasRowConditions, profileSql, segmentSql, staticPart, rowSql } from './segment-sql.js';

export interface NameCount {
  name: string;
  users: number;
}

/** Active subscribers in any of the topics or countries, each counted once. */
export async function countUnion(db: Queryable, siteId: string, topics: string[], countries: string[]): Promise<number> {
  const { rows } = await db.query(
    `SELECT coalesce(sum(users), 0)::bigint AS users FROM delivery.audience_groups
      WHERE site_id = $1 AND users > 0 AND (country = ANY($2::text[]) OR topics && $3::text[])`,
    [siteId, countries, topics],
  );
  return Number(rows[0].users);
}

/**
 * Active subscribers in topics ∪ countries narrowed by a segment. Static conditions (languages,
 * zones, UTC offset, browsers) are sums of the groups' per-profile counts (sumByZone); a segment
 * with a time or tag condition (subscribed after/before, engagement, data tags) is counted over the site's
 * subscribers, which no counter can answer (see countSegmentScan).
 */
export async function countSegment(db: Queryable, siteId: string, topics: string[], countries: string[], segment: Segment): Promise<number> {
  if (hasRowConditions(segment)) return countSegmentScan(db, siteId, topics, countries, segment);
  return (await sumByZone(db, siteId, topics, countries, segment)).reduce((n, z) => n + z.users, 0);
}

/** The exact count over the site's subscribers, for segments with a time or tag condition. */
export async function countSegmentScan(db: Queryable, siteId: string, topics: string[], countries: string[], segment: Segment): Promise<number> {
  const narrowed = segmentSql(segment, 4);
  const { rows } = await db.query(
    `SELECT count(*)::bigint AS users FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}`,
    [siteId, countries, topics, ...narrowed.params],
  );
  return Number(rows[0].users);
}

/**
 * The audience (narrowed by the segment, if any) by the zone its subscribers reported (null:
 * none), for a local-time campaign's plan: from the groups' per-profile counts, or, for a segment
 * with a time or tag condition, over the site's subscribers.
 */
export async function countByZone(
  db: Queryable,
  siteId: string,
  topics: string[],
  countries: string[],
  segment: Segment | null,
): Promise<{ zone: string | null; users: number }[]> {
  if (hasRowConditions(segment)) return countByZoneScan(db, siteId, topics, countries, segment!);
  return (await sumByZone(db, siteId, topics, countries, segment)).filter((z) => z.users > 0);
}

/**
 * Two small queries, neither reading the subscribers: the numbers of the site's profiles the
 * segment's static conditions match (audience_profile_ids, a few rows), then, over the groups
 * topics ∪ countries select (the rows the union count reads), the sum of those profiles' entries
 * of `counts`, one sum per zone. A profile numbered after the first query (a subscriber with a
 * new language, zone or browser meanwhile) is not summed: a subscribe concurrent with the count.
 */
async function sumByZone(db: Queryable, siteId: string, topics: string[], countries: string[], segment: Segment | null): Promise<{ zone: string | null; users: number }[]> {
  const profiles = profileSql(segment, 2);
  const { rows: matched } = await db.query(`SELECT p.id, p.time_zone FROM delivery.audience_profile_ids p WHERE p.site_id = $1${profiles.sql}`, [
    siteId,
    ...profiles.params,
  ]);
  if (matched.length === 0) return [];
  const idsByZone = new Map<string, number[]>();
  for (const r of matched) idsByZone.set(r.time_zone, [...(idsByZone.get(r.time_zone) ?? []), r.id as number]);
  const zones = [...idsByZone.keys()];
  const params: unknown[] = [siteId, countries, topics];
  const entry = (id: number) => {
    params.push(id);
    // null past the array's end (a profile the group never had): 0 before adding.
    return `coalesce(g.counts[$${params.length}::int], 0)`;
  };
  const sums = zones.map((z, i) => `coalesce(sum(${idsByZone.get(z)!.map(entry).join(' + ')}), 0)::bigint AS z${i}`);
  const { rows } = await db.query(
    `SELECT ${sums.join(', ')} FROM delivery.audience_groups g
      WHERE g.site_id = $1 AND g.users > 0 AND (g.country = ANY($2::text[]) OR g.topics && $3::text[])`,
    params,
  );
  return zones.map((zone, i) => ({ zone: zone === '' ? null : zone, users: Number(rows[0][`z${i}`]) }));
}

async function countByZoneScan(db: Queryable, siteId: string, topics: string[], countries: string[], segment: Segment): Promise<{ zone: string | null; users: number }[]> {
  const narrowed = segmentSql(segment, 4);
  const { rows } = await db.query(
    `SELECT s.time_zone, count(*)::bigint AS users FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}
      GROUP BY s.time_zone`,
    [siteId, countries, topics, ...narrowed.params],
  );
  return rows.map((r) => ({ zone: r.time_zone as string | null, users: Number(r.users) }));
}

/** The site's active subscribers: the sum of its daily changes (delivery.audience_daily, one row per day with a change). */
export async function siteActiveSubscribers(db: Queryable, siteId: string): Promise<number> {
  const { rows } = await db.query(`SELECT coalesce(sum(created + returned - expired), 0)::bigint AS n FROM delivery.audience_daily WHERE site_id = $1`, [siteId]);
  return Number(rows[0].n);
}

/**
 * The site's sample (migrations/20261205150000_subscribers_sample.sql: active subscribers whose
 * id hashes to 0 of 128), its slices below `slices` of 1024, in topics ∪ countries: by reported
 * zone, the sampled subscribers the segment's static conditions match (`matched`) and those of
 * them its time and tag conditions keep too (`kept`). The sample's predicate and slice are written as the
 * index's, so the planner reads that index's range.
 */
export async function sampleSegment(
  db: Queryable,
  siteId: string,
  topics: string[],
  countries: string[],
  segment: Segment,
  slices: number,
): Promise<{ zone: string | null; matched: number; kept: number }[]> {
  const narrowed = segmentSql(staticPart(segment), 5);
  const keptSql = rowSql(segment, 5 + narrowed.params.length);
  const { rows } = await db.query(
    `SELECT s.time_zone, count(*)::bigint AS matched, count(*) FILTER (WHERE ${keptSql.sql})::bigint AS kept FROM delivery.subscribers s
      WHERE s.site_id = $1 AND s.active AND (hashint8(s.id) & 127) = 0 AND ((hashint8(s.id) >> 7) & 1023) < $4::int
        AND (s.country = ANY($2::text[]) OR s.topics && $3::text[])${narrowed.sql}
      GROUP BY s.time_zone`,
    [siteId, countries, topics, slices, ...narrowed.params, ...keptSql.params],
  );
  return rows.map((r) => ({ zone: r.time_zone as string | null, matched: Number(r.matched), kept: Number(r.kept) }));
}

export async function listNames(db: Queryable, siteId: string, kind: 'topics' | 'countries'): Promise<NameCount[]> {
  const filter = kind === 'countries' ? `name LIKE 'country\\_\\_%'` : `name NOT LIKE 'country\\_\\_%'`;
  const { rows } = await db.query(
    `SELECT name, users FROM delivery.audience_names
      WHERE site_id = $1 AND users > 0 AND ${filter}
      ORDER BY users DESC, name COLLATE "C" ASC`,
    [siteId],
  );
  return rows.map((r) => ({ name: r.name as string, users: Number(r.users) }));
}

export interface DayCount {
  /** `YYYY-MM-DD`, a UTC day. */
  day: string;
  created: number;
  expired: number;
  returned: number;
  /** Active subscribers at the day's end (today: now). */
  active: number;
}

/**
 * The site's last `days` UTC days up to today, oldest first, one entry per day (zeros for a day
 * without a change), from delivery.audience_daily (kept by triggers, see
 * migrations/20261127130100_audience_daily.sql). Active at a day's end is the running sum of the
 * site's daily changes: the rows before the window are summed once, over the site's own rows.
 */
export async function audienceDaily(db: Queryable, siteId: string, days: number): Promise<DayCount[]> {
  const { rows } = await db.query(
    `WITH w AS (SELECT delivery.utc_day(now()) - ($2::int - 1) AS first, delivery.utc_day(now()) AS last),
     before AS (
       SELECT coalesce(sum(created + returned - expired), 0) AS active
         FROM delivery.audience_daily, w WHERE site_id = $1 AND day < w.first),
     span AS (
       SELECT d::date AS day FROM w, generate_series(w.first, w.last, interval '1 day') AS d)
     SELECT to_char(span.day, 'YYYY-MM-DD') AS day,
            coalesce(a.created, 0)::text AS created, coalesce(a.expired, 0)::text AS expired, coalesce(a.returned, 0)::text AS returned,
            (before.active + sum(coalesce(a.created + a.returned - a.expired, 0)) OVER (ORDER BY span.day))::text AS active
       FROM span CROSS JOIN before
       LEFT JOIN delivery.audience_daily a ON a.site_id = $1 AND a.day = span.day
      ORDER BY span.day`,
    [siteId, days],
  );
  return rows.map((r) => ({
    day: r.day as string,
    created: Number(r.created),
    expired: Number(r.expired),
    returned: Number(r.returned),
    active: Number(r.active),
  }));
}

/** Active subscribers by browser family (delivery.audience_browsers, kept by triggers), most first, then by name. */
export async function countByBrowser(db: Queryable, siteId: string): Promise<{ browser: string; users: number }[]> {
  const { rows } = await db.query(
    `SELECT browser, users::text FROM delivery.audience_browsers WHERE site_id = $1 AND users > 0 ORDER BY users DESC, browser COLLATE "C"`,
    [siteId],
  );
  return rows.map((r) => ({ browser: r.browser as string, users: Number(r.users) }));
}
