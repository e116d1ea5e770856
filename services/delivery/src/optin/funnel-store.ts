// The opt-in funnel's statements (funnel.ts holds the rules): an event counted (the database's
// delivery.count_optin, which bounds the prompts a site has per day: migrations/20261207030000_optin_funnel.sql),
// a site's counters over a range of UTC days, and the retention pass's purge of old days.
import type { Queryable } from '@webpush/shared/db.js';
import type { FunnelEvent } from './funnel.js';

export interface FunnelRow {
  /** YYYY-MM-DD (UTC). */
  day: string;
  promptId: string;
  event: FunnelEvent;
  count: number;
}

export async function countEvent(db: Queryable, siteId: string, promptId: string, event: FunnelEvent): Promise<void> {
  await db.query('SELECT delivery.count_optin($1, $2, $3)', [siteId, promptId, event]);
}

/** The site's counters from `from` to `to` (inclusive), of one prompt or all (null), by day then prompt. */
export async function funnelRows(db: Queryable, siteId: string, from: string, to: string, promptId: string | null): Promise<FunnelRow[]> {
  const { rows } = await db.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, prompt_id AS "promptId", event, count
       FROM delivery.optin_funnel
      WHERE site_id = $1 AND day BETWEEN $2::date AND $3::date AND ($4::text IS NULL OR prompt_id = $4)
      ORDER BY day, prompt_id`,
    [siteId, from, to, promptId],
  );
  return rows.map((r) => ({ ...(r as FunnelRow), count: Number(r.count) }));
}

/** Deletes up to `limit` rows of days before `keepFrom` (YYYY-MM-DD); how many went. */
export async function purgeDaysBefore(db: Queryable, keepFrom: string, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM delivery.optin_funnel WHERE (site_id, day, prompt_id, event) IN (
       SELECT site_id, day, prompt_id, event FROM delivery.optin_funnel WHERE day < $1::date LIMIT $2)`,
    [keepFrom, limit],
  );
  return rowCount ?? 0;
}
