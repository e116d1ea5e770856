// Idempotency keys, scoped to the site and kept 24 hours. The age is checked on every read and
// claim, so an old key is never replayed even before the purge below has removed it.
import type { Queryable } from '@webpush/shared/db.js';

const KEPT = `interval '24 hours'`;
const FRESH = `created_at > now() - ${KEPT}`;

export interface StoredKey {
  requestHash: string;
  campaignId: string;
}

export async function findFreshKey(db: Queryable, siteId: string, key: string): Promise<StoredKey | null> {
  const { rows } = await db.query(
    `SELECT request_hash, campaign_id FROM campaign.idempotency_keys WHERE site_id = $1 AND key = $2 AND ${FRESH}`,
    [siteId, key],
  );
  return rows[0] ? { requestHash: rows[0].request_hash, campaignId: rows[0].campaign_id } : null;
}

/**
 * Takes the key for this request, or reports that someone else holds it. A concurrent holder's
 * insert makes this statement wait for its commit (or rollback), so two requests can never both
 * take the key. An expired key is taken over in place.
 */
export async function claimKey(db: Queryable, siteId: string, key: string, requestHash: string, campaignId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO campaign.idempotency_keys AS k (site_id, key, request_hash, campaign_id)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (site_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, campaign_id = EXCLUDED.campaign_id, created_at = now()
       WHERE k.created_at <= now() - ${KEPT}
     RETURNING k.key`,
    [siteId, key, requestHash, campaignId],
  );
  return rowCount === 1;
}

/**
 * claimKey for many requests in one statement (the events' group commit): each (site, key) at
 * most once in `claims`. Answers, in `claims`' order, whether each was taken.
 */
export async function claimKeys(db: Queryable, claims: readonly { siteId: string; key: string; requestHash: string; id: string }[]): Promise<boolean[]> {
  if (claims.length === 0) return [];
  const { rows } = await db.query(
    `INSERT INTO campaign.idempotency_keys AS k (site_id, key, request_hash, campaign_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[])
     ON CONFLICT (site_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, campaign_id = EXCLUDED.campaign_id, created_at = now()
       WHERE k.created_at <= now() - ${KEPT}
     RETURNING k.site_id, k.key`,
    [claims.map((c) => c.siteId), claims.map((c) => c.key), claims.map((c) => c.requestHash), claims.map((c) => c.id)],
  );
  const taken = new Set(rows.map((r) => JSON.stringify([r.site_id, r.key])));
  return claims.map((c) => taken.has(JSON.stringify([c.siteId, c.key])));
}

/**
 * Deletes up to `limit` expired keys, oldest first; resolves to how many went. Rows locked by a
 * create taking an expired key over are skipped (SKIP LOCKED), so the purge never waits on a
 * request and any number of instances can purge at once. The age is checked again on the row
 * being deleted: a key taken over since the subquery read it is fresh and stays.
 */
export async function purgeExpiredKeys(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM campaign.idempotency_keys k
      USING (SELECT site_id, key FROM campaign.idempotency_keys
              WHERE created_at <= now() - ${KEPT}
              ORDER BY created_at
              LIMIT $1
              FOR UPDATE SKIP LOCKED) old
      WHERE k.site_id = old.site_id AND k.key = old.key AND k.created_at <= now() - ${KEPT}`,
    [limit],
  );
  return rowCount ?? 0;
}
