// API-key lookup by hash; a revoked key is as unknown as a random one.
import type { Queryable } from '../../../shared/src/db.js';

export interface KeyOwner {
  siteId: string;
  permissions: { create: boolean; reports: boolean; delete: boolean; audience: boolean };
}

export async function findActiveKeyOwner(db: Queryable, keyHash: string): Promise<KeyOwner | null> {
  const { rows } = await db.query(
    `SELECT s.id AS site_id, p.can_create, p.can_reports, p.can_delete, p.can_audience
       FROM campaign.api_keys k
       JOIN campaign.sites s ON s.id = k.site_id
       JOIN campaign.plans p ON p.id = s.plan_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [keyHash],
  );
  const r = rows[0];
  if (!r) return null;
  return { siteId: r.site_id, permissions: { create: r.can_create, reports: r.can_reports, delete: r.can_delete, audience: r.can_audience } };
}
