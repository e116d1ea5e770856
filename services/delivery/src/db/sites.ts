// Sites as the delivery service knows them: ids shared with the campaign service, VAPID keys.
import type { Queryable } from '../../../shared/src/db.js';

export interface SiteRow {
  siteId: string;
  publicId: string;
  vapidPublicKey: string;
  vapidPrivateKeyEnc: Buffer;
}

const COLUMNS = 'site_id, public_id, vapid_public_key, vapid_private_key_enc';

function toSite(r: Record<string, unknown>): SiteRow {
  return {
    siteId: r.site_id as string,
    publicId: r.public_id as string,
    vapidPublicKey: r.vapid_public_key as string,
    vapidPrivateKeyEnc: r.vapid_private_key_enc as Buffer,
  };
}

/** Inserts the site unless its id is already there; answers the row as stored either way. */
export async function insertSiteIfAbsent(db: Queryable, site: SiteRow): Promise<SiteRow> {
  const inserted = await db.query(
    `INSERT INTO delivery.sites (site_id, public_id, vapid_public_key, vapid_private_key_enc)
     VALUES ($1, $2, $3, $4) ON CONFLICT (site_id) DO NOTHING RETURNING ${COLUMNS}`,
    [site.siteId, site.publicId, site.vapidPublicKey, site.vapidPrivateKeyEnc],
  );
  if (inserted.rows[0]) return toSite(inserted.rows[0]);
  const existing = await findSiteById(db, site.siteId);
  if (!existing) throw new Error('site vanished while registering');
  return existing;
}

export async function findSiteById(db: Queryable, siteId: string): Promise<SiteRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM delivery.sites WHERE site_id = $1`, [siteId]);
  return rows[0] ? toSite(rows[0]) : null;
}

export async function findSiteByPublicId(db: Queryable, publicId: string): Promise<SiteRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM delivery.sites WHERE public_id = $1`, [publicId]);
  return rows[0] ? toSite(rows[0]) : null;
}
