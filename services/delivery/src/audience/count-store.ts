// Reads of the precomputed audience counters (maintained by triggers on subscribers, see the
// migrations); none of these touch the subscribers table.
import type { Queryable } from '../../../shared/src/db.js';
import type { Segment } from '../../../shared/src/segment.js';
import { segmentSql } from './segment-sql.js';

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
 * Active subscribers in topics ∪ countries narrowed by a segment: an exact count over the site's
 * subscribers (the counters know nothing of languages, zones, browsers or engagement).
 */
export async function countSegment(db: Queryable, siteId: string, topics: string[], countries: string[], segment: Segment): Promise<number> {
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
 * none): an exact count over the site's subscribers, for a local-time campaign's plan.
 */
export async function countByZone(
  db: Queryable,
  siteId: string,
  topics: string[],
  countries: string[],
  segment: Segment | null,
): Promise<{ zone: string | null; users: number }[]> {
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
