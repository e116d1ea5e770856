// Reads of the precomputed audience counters (maintained by triggers on subscribers, see the
// migrations: 20250101000000_audience.sql, 20261205130000_audience_cells.sql); only a segment
// with a time condition reads the subscribers table.
import type { Queryable } from '../../../shared/src/db.js';
import type { Segment } from '../../../shared/src/segment.js';
import { hasTimeConditions, profileSql, segmentSql } from './segment-sql.js';

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
 * zones, UTC offset, browsers) are a sum over the maintained cells of the matching profiles;
 * a segment with a time condition (subscribed after/before, engagement) is counted over the
 * site's subscribers, which no cell can answer (see countSegmentScan).
 */
export async function countSegment(db: Queryable, siteId: string, topics: string[], countries: string[], segment: Segment): Promise<number> {
  if (hasTimeConditions(segment)) return countSegmentScan(db, siteId, topics, countries, segment);
  const profiles = profileSql(segment, 4);
  const { rows } = await db.query(
    `SELECT coalesce(sum(c.users), 0)::bigint AS users
       FROM delivery.audience_profiles p
       JOIN delivery.audience_cells c
         ON c.site_id = p.site_id AND c.language = p.language AND c.time_zone = p.time_zone AND c.browser = p.browser
      WHERE p.site_id = $1 AND p.users > 0${profiles.sql}
        AND (c.country = ANY($2::text[]) OR c.topics && $3::text[])`,
    [siteId, countries, topics, ...profiles.params],
  );
  return Number(rows[0].users);
}

/** The exact count over the site's subscribers, for segments with a time condition. */
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
 * none), for a local-time campaign's plan: from the cells, or, for a segment with a time
 * condition, over the site's subscribers.
 */
export async function countByZone(
  db: Queryable,
  siteId: string,
  topics: string[],
  countries: string[],
  segment: Segment | null,
): Promise<{ zone: string | null; users: number }[]> {
  if (hasTimeConditions(segment)) return countByZoneScan(db, siteId, topics, countries, segment!);
  const profiles = profileSql(segment, 4);
  const { rows } = await db.query(
    `SELECT p.time_zone, sum(c.users)::bigint AS users
       FROM delivery.audience_profiles p
       JOIN delivery.audience_cells c
         ON c.site_id = p.site_id AND c.language = p.language AND c.time_zone = p.time_zone AND c.browser = p.browser
      WHERE p.site_id = $1 AND p.users > 0${profiles.sql}
        AND (c.country = ANY($2::text[]) OR c.topics && $3::text[])
      GROUP BY p.time_zone
     HAVING sum(c.users) > 0`,
    [siteId, countries, topics, ...profiles.params],
  );
  return rows.map((r) => ({ zone: r.time_zone === '' ? null : (r.time_zone as string), users: Number(r.users) }));
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
