// The statements of the stored zones' rename (zone-names.ts): the zones in use, the sites' and
// subscribers' rows renamed (the subscribers in ranges of the primary key, so each is a short
// transaction), and the task's mark once done.
import type { Queryable } from '@webpush/shared/db.js';

export async function maintenanceDone(db: Queryable, task: string): Promise<boolean> {
  const done = await db.query('SELECT 1 FROM delivery.maintenance_done WHERE task = $1', [task]);
  return (done.rowCount ?? 0) > 0;
}

export async function markMaintenanceDone(db: Queryable, task: string): Promise<void> {
  await db.query('INSERT INTO delivery.maintenance_done (task) VALUES ($1) ON CONFLICT DO NOTHING', [task]);
}

/** Every zone name stored on a subscriber or a site. */
export async function storedZones(db: Queryable): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT DISTINCT time_zone AS zone FROM delivery.subscribers WHERE time_zone IS NOT NULL
     UNION SELECT time_zone FROM delivery.sites WHERE time_zone IS NOT NULL`,
  );
  return rows.map((r) => r.zone as string);
}

/** Sites whose zone is `from[i]` get `to[i]`; answers the rows renamed. */
export async function renameSiteZones(db: Queryable, from: string[], to: string[]): Promise<number> {
  return (await db.query(
    `UPDATE delivery.sites s SET time_zone = m.name FROM unnest($1::text[], $2::text[]) AS m(old, name) WHERE s.time_zone = m.old`,
    [from, to],
  )).rowCount ?? 0;
}

/** The highest subscriber id (0 without subscribers): where the ranges end. */
export async function lastSubscriberId(db: Queryable): Promise<number> {
  const { rows } = await db.query('SELECT coalesce(max(id), 0)::bigint AS last FROM delivery.subscribers');
  return Number(rows[0].last);
}

/** Subscribers with ids in (`lo`, `hi`] whose zone is `from[i]` get `to[i]`; answers the rows renamed. */
export async function renameSubscriberZones(db: Queryable, from: string[], to: string[], lo: number, hi: number): Promise<number> {
  return (await db.query(
    `UPDATE delivery.subscribers s SET time_zone = m.name
       FROM unnest($1::text[], $2::text[]) AS m(old, name)
      WHERE s.id > $3 AND s.id <= $4 AND s.time_zone = m.old`,
    [from, to, lo, hi],
  )).rowCount ?? 0;
}
