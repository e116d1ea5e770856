// API-key lookup by hash; a revoked key is as unknown as a random one.
import type { Queryable } from '@webpush/shared/db.js';

export interface KeyOwner {
  siteId: string;
  permissions: { create: boolean; reports: boolean; delete: boolean; audience: boolean };
  /** The key as its site's audit log names it: id, prefix, label (never the key). */
  key: { id: string; prefix: string; label: string };
}

/** How stale a key's last_used_at may be before a lookup moves it (the console shows it). */
export const LAST_USED_GRANULARITY = '1 minute';

/**
 * The key's site and plan. The same statement moves the key's last_used_at when it is over a
 * minute old, so a key called all day is written about once a minute, not once per call (the
 * gateway's key cache already spares most lookups), and no call waits on a second round trip.
 */
export async function findActiveKeyOwner(db: Queryable, keyHash: string): Promise<KeyOwner | null> {
  const { rows } = await db.query(
    `WITH k AS (
       SELECT k.id, k.prefix, k.label, k.last_used_at, s.id AS site_id, p.can_create, p.can_reports, p.can_delete, p.can_audience
         FROM campaign.api_keys k
         JOIN campaign.sites s ON s.id = k.site_id
         JOIN campaign.plans p ON p.id = s.plan_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL),
     used AS (
       UPDATE campaign.api_keys a SET last_used_at = now() FROM k
        WHERE a.id = k.id
          AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '${LAST_USED_GRANULARITY}')
          -- Re-checked on the row as it is when its lock is had: of two lookups at once, one writes.
          AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '${LAST_USED_GRANULARITY}'))
     SELECT id, prefix, label, site_id, can_create, can_reports, can_delete, can_audience FROM k`,
    [keyHash],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    siteId: r.site_id,
    permissions: { create: r.can_create, reports: r.can_reports, delete: r.can_delete, audience: r.can_audience },
    key: { id: r.id, prefix: r.prefix, label: r.label },
  };
}
