// SQL behind the operator commands: plans, sites and API keys.
import type { Queryable } from '@webpush/shared/db.js';

export interface PlanRow {
  id: string;
  name: string;
  can_create: boolean;
  can_reports: boolean;
  can_delete: boolean;
  can_audience: boolean;
}

export interface SiteRow {
  id: string;
  name: string;
  public_id: string;
  plan: string;
  created_at: Date;
}

export interface KeyRow {
  id: string;
  label: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'id, label, prefix, created_at, last_used_at, revoked_at';

const PLAN_COLUMNS = 'id, name, can_create, can_reports, can_delete, can_audience';
const SITE_SELECT = `SELECT s.id, s.name, s.public_id, p.name AS plan, s.created_at
  FROM campaign.sites s JOIN campaign.plans p ON p.id = s.plan_id`;

export async function insertPlan(db: Queryable, name: string, can: Omit<PlanRow, 'id' | 'name'>): Promise<PlanRow | null> {
  const { rows } = await db.query<PlanRow>(
    `INSERT INTO campaign.plans (name, can_create, can_reports, can_delete, can_audience)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING RETURNING ${PLAN_COLUMNS}`,
    [name, can.can_create, can.can_reports, can.can_delete, can.can_audience],
  );
  return rows[0] ?? null;
}

export async function selectPlans(db: Queryable): Promise<PlanRow[]> {
  return (await db.query<PlanRow>(`SELECT ${PLAN_COLUMNS} FROM campaign.plans ORDER BY name`)).rows;
}

export async function findPlanId(db: Queryable, name: string): Promise<string | null> {
  const { rows } = await db.query('SELECT id FROM campaign.plans WHERE name = $1', [name]);
  return rows[0]?.id ?? null;
}

/** Inserts the site with the id its creator drew; false when that id exists already. */
export async function insertSite(db: Queryable, site: { id: string; name: string; publicId: string; planId: string }): Promise<boolean> {
  const { rowCount } = await db.query('INSERT INTO campaign.sites (id, name, public_id, plan_id) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [
    site.id,
    site.name,
    site.publicId,
    site.planId,
  ]);
  return rowCount === 1;
}

export async function selectSiteById(db: Queryable, id: string): Promise<SiteRow | null> {
  return (await db.query<SiteRow>(`${SITE_SELECT} WHERE s.id = $1`, [id])).rows[0] ?? null;
}

export async function selectSiteByPublicId(db: Queryable, publicId: string): Promise<SiteRow | null> {
  return (await db.query<SiteRow>(`${SITE_SELECT} WHERE s.public_id = $1`, [publicId])).rows[0] ?? null;
}

export async function selectSites(db: Queryable): Promise<SiteRow[]> {
  return (await db.query<SiteRow>(`${SITE_SELECT} ORDER BY s.created_at, s.id`)).rows;
}

/** The pushes-per-minute default of the site's campaigns: null for none, undefined for no such site. */
export async function selectSiteThrottle(db: Queryable, siteId: string): Promise<number | null | undefined> {
  const { rows } = await db.query('SELECT default_throttle_per_minute FROM campaign.sites WHERE id = $1', [siteId]);
  return rows[0] ? (rows[0].default_throttle_per_minute as number | null) : undefined;
}

/** The pushes-per-minute default of the site's campaigns; null for none. */
export async function updateSiteThrottle(db: Queryable, siteId: string, perMinute: number | null): Promise<void> {
  await db.query('UPDATE campaign.sites SET default_throttle_per_minute = $2 WHERE id = $1', [siteId, perMinute]);
}

export async function updateSitePlan(db: Queryable, siteId: string, planId: string): Promise<void> {
  await db.query('UPDATE campaign.sites SET plan_id = $2 WHERE id = $1', [siteId, planId]);
}

export async function insertKey(db: Queryable, siteId: string, keyHash: string, prefix: string, label = ''): Promise<string> {
  const { rows } = await db.query('INSERT INTO campaign.api_keys (site_id, key_hash, prefix, label) VALUES ($1, $2, $3, $4) RETURNING id', [siteId, keyHash, prefix, label]);
  return rows[0].id;
}

export async function selectKeys(db: Queryable, siteId: string): Promise<KeyRow[]> {
  return (await db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM campaign.api_keys WHERE site_id = $1 ORDER BY created_at, id`, [siteId])).rows;
}

/** One key of the site; with `lock`, held until the transaction ends. */
export async function selectKey(db: Queryable, siteId: string, keyId: string, lock = false): Promise<KeyRow | null> {
  const { rows } = await db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM campaign.api_keys WHERE site_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [siteId, keyId]);
  return rows[0] ?? null;
}

/** Revokes the site's active keys, all of them or those matching a key id or prefix. */
export async function revokeActiveKeys(db: Queryable, siteId: string, match?: { id?: string; prefix?: string }): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE campaign.api_keys SET revoked_at = now()
      WHERE site_id = $1 AND revoked_at IS NULL
        AND ($2::uuid IS NULL OR id = $2::uuid) AND ($3::text IS NULL OR prefix = $3)`,
    [siteId, match?.id ?? null, match?.prefix ?? null],
  );
  return rowCount ?? 0;
}
