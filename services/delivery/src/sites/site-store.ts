// Sites as the delivery service knows them: ids shared with the campaign service, VAPID keys.
import type { Queryable } from '@webpush/shared/db.js';
import { DEFAULT_TIME_ZONE, type QuietHours } from '@webpush/contracts/local-time.js';

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

/** What a site's public id (the plugin's URLs carry it) can look like; anything else names no site. */
const PUBLIC_ID = /^[A-Za-z0-9_-]{1,100}$/;

export async function findSiteByPublicId(db: Queryable, publicId: string): Promise<SiteRow | null> {
  if (!PUBLIC_ID.test(publicId)) return null;
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM delivery.sites WHERE public_id = $1`, [publicId]);
  return rows[0] ? toSite(rows[0]) : null;
}

/** A batch of sites in id order after `afterSiteId` (keyset), locked until the transaction ends. */
export async function lockSitesAfter(db: Queryable, afterSiteId: string | null, limit: number): Promise<SiteRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM delivery.sites WHERE $1::uuid IS NULL OR site_id > $1::uuid ORDER BY site_id LIMIT $2 FOR UPDATE`,
    [afterSiteId, limit],
  );
  return rows.map(toSite);
}

/** How many sites there are (the re-encryption's bound on its rounds). */
export async function countSites(db: Queryable): Promise<number> {
  const { rows } = await db.query('SELECT count(*)::int AS n FROM delivery.sites');
  return rows[0].n as number;
}

/**
 * Gives a site the VAPID key pair it brought from its previous provider, only while it has never
 * had a subscriber or a campaign run: from then on the pair is bound to browsers' subscriptions
 * and cached by the senders (sites/vapid-signers.ts). False when that is no longer the case.
 */
export async function adoptVapidKeys(db: Queryable, siteId: string, vapidPublicKey: string, vapidPrivateKeyEnc: Buffer): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE delivery.sites s SET vapid_public_key = $2, vapid_private_key_enc = $3
      WHERE s.site_id = $1
        AND NOT EXISTS (SELECT 1 FROM delivery.subscribers WHERE site_id = $1)
        AND NOT EXISTS (SELECT 1 FROM delivery.campaign_runs WHERE site_id = $1)`,
    [siteId, vapidPublicKey, vapidPrivateKeyEnc],
  );
  return (rowCount ?? 0) > 0;
}

/** Replaces stored (encrypted) VAPID private keys; the public keys do not change. */
export async function updateVapidPrivateKeys(db: Queryable, updates: { siteId: string; vapidPrivateKeyEnc: Buffer }[]): Promise<number> {
  if (updates.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE delivery.sites s SET vapid_private_key_enc = u.enc
       FROM unnest($1::uuid[], $2::bytea[]) AS u(site_id, enc) WHERE s.site_id = u.site_id`,
    [updates.map((u) => u.siteId), updates.map((u) => u.vapidPrivateKeyEnc)],
  );
  return rowCount ?? 0;
}

/** The zone of subscribers without a known one when a site has set none. */
export { DEFAULT_TIME_ZONE as DEFAULT_SITE_ZONE } from '@webpush/contracts/local-time.js';

/** The site's default zone (`sites set-time-zone`), UTC when unset (or the site is unknown). */
export async function siteTimeZone(db: Queryable, siteId: string): Promise<string> {
  const { rows } = await db.query('SELECT time_zone FROM delivery.sites WHERE site_id = $1', [siteId]);
  return rows[0]?.time_zone ?? DEFAULT_TIME_ZONE;
}

/** Sets the site's default zone; null: none (UTC). */
export async function setSiteTimeZone(db: Queryable, siteId: string, zone: string | null): Promise<void> {
  await db.query('UPDATE delivery.sites SET time_zone = $2 WHERE site_id = $1', [siteId, zone]);
}

/** The site's quiet hours (`sites set-quiet-hours`), null when none (or the site is unknown). */
export async function siteQuietHours(db: Queryable, siteId: string): Promise<QuietHours | null> {
  const { rows } = await db.query('SELECT quiet_from, quiet_to FROM delivery.sites WHERE site_id = $1', [siteId]);
  return rows[0]?.quiet_from ? { from: rows[0].quiet_from, to: rows[0].quiet_to } : null;
}

/** Sets the site's quiet hours; null: none. */
export async function setSiteQuietHours(db: Queryable, siteId: string, quiet: QuietHours | null): Promise<void> {
  await db.query('UPDATE delivery.sites SET quiet_from = $2, quiet_to = $3 WHERE site_id = $1', [siteId, quiet?.from ?? null, quiet?.to ?? null]);
}

/** Sets the site's frequency cap (sending/delivery-log-store.ts applies it); null: none. */
export async function setSiteFrequencyCap(db: Queryable, siteId: string, cap: { campaigns: number; hours: number } | null): Promise<void> {
  await db.query('UPDATE delivery.sites SET cap_campaigns = $2, cap_hours = $3 WHERE site_id = $1', [siteId, cap?.campaigns ?? null, cap?.hours ?? null]);
}
