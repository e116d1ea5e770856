// Operator commands (CLI, tests): plans, sites and API keys. Keys are shown once and stored
// only as SHA-256; the `wpk_` prefix lets secret scanners recognise a leaked key.
import { createHash, randomBytes } from 'node:crypto';
import { withTransaction, type Pool } from '../../../shared/src/db.js';
import { formatUtcDate } from './dates.js';
import { isUuid } from './ids.js';
import * as store from '../db/operators-store.js';
import { MAX_THROTTLE_PER_MINUTE } from './create-input.js';

export type Permission = 'create' | 'reports' | 'delete' | 'audience';
export const PERMISSIONS: readonly Permission[] = Object.freeze(['create', 'reports', 'delete', 'audience'] as const);

export interface Plan {
  id: string;
  name: string;
  permissions: Record<Permission, boolean>;
}
export interface Site {
  id: string;
  name: string;
  publicId: string;
  plan: string;
  createdAt: string;
}
export interface IssuedKey {
  key: string;
  keyId: string;
  prefix: string;
}
export interface KeyInfo {
  keyId: string;
  label: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export class OperatorError extends Error {
  override name = 'OperatorError';
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const toPlan = (r: store.PlanRow): Plan => ({
  id: r.id,
  name: r.name,
  permissions: { create: r.can_create, reports: r.can_reports, delete: r.can_delete, audience: r.can_audience },
});
const toSite = (r: store.SiteRow): Site => ({ id: r.id, name: r.name, publicId: r.public_id, plan: r.plan, createdAt: formatUtcDate(r.created_at) });
export const toKey = (r: store.KeyRow): KeyInfo => ({
  keyId: r.id,
  label: r.label,
  prefix: r.prefix,
  createdAt: formatUtcDate(r.created_at),
  lastUsedAt: r.last_used_at ? formatUtcDate(r.last_used_at) : null,
  revokedAt: r.revoked_at ? formatUtcDate(r.revoked_at) : null,
});

/** A new API key: shown once; stored as its SHA-256, told apart by its first 12 characters. */
export function newApiKey(): { key: string; hash: string; prefix: string } {
  const key = 'wpk_' + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 12) };
}

export function createOperators(pool: Pool) {
  async function findSite(idOrPublicId: string): Promise<store.SiteRow | null> {
    return isUuid(idOrPublicId) ? store.selectSiteById(pool, idOrPublicId) : store.selectSiteByPublicId(pool, idOrPublicId);
  }
  async function requireSite(idOrPublicId: string): Promise<store.SiteRow> {
    const site = await findSite(idOrPublicId);
    if (!site) throw new OperatorError(`site "${idOrPublicId}" does not exist`);
    return site;
  }
  async function requirePlanId(name: string): Promise<string> {
    const id = await store.findPlanId(pool, name);
    if (!id) throw new OperatorError(`plan "${name}" does not exist`);
    return id;
  }

  return {
    async createPlan(name: string, permissions: readonly Permission[]): Promise<Plan> {
      if (name.trim() === '') throw new OperatorError('plan name must not be empty');
      const unknown = permissions.filter((p) => !PERMISSIONS.includes(p));
      if (unknown.length > 0) throw new OperatorError(`unknown permission(s): ${unknown.join(', ')} (known: ${PERMISSIONS.join(', ')})`);
      const has = (p: Permission) => permissions.includes(p);
      const row = await store.insertPlan(pool, name, {
        can_create: has('create'),
        can_reports: has('reports'),
        can_delete: has('delete'),
        can_audience: has('audience'),
      });
      if (!row) throw new OperatorError(`plan "${name}" already exists`);
      return toPlan(row);
    },

    async listPlans(): Promise<Plan[]> {
      return (await store.selectPlans(pool)).map(toPlan);
    },

    async createSite(input: { name: string; plan: string }): Promise<Site> {
      if (input.name.trim() === '') throw new OperatorError('site name must not be empty');
      const planId = await requirePlanId(input.plan);
      const publicId = 'pub_' + randomBytes(16).toString('base64url');
      const id = await store.insertSite(pool, input.name, publicId, planId);
      return toSite((await store.selectSiteById(pool, id))!);
    },

    async getSite(idOrPublicId: string): Promise<Site | null> {
      const row = await findSite(idOrPublicId);
      return row ? toSite(row) : null;
    },

    async listSites(): Promise<Site[]> {
      return (await store.selectSites(pool)).map(toSite);
    },

    async issueKey(siteId: string, opts: { revokeOthers?: boolean; label?: string } = {}): Promise<IssuedKey> {
      const site = await requireSite(siteId);
      const { key, hash, prefix } = newApiKey();
      const keyId = await withTransaction(pool, async (tx) => {
        if (opts.revokeOthers) await store.revokeActiveKeys(tx, site.id);
        return store.insertKey(tx, site.id, hash, prefix, opts.label);
      });
      return { key, keyId, prefix };
    },

    async listKeys(siteId: string): Promise<KeyInfo[]> {
      const site = await requireSite(siteId);
      return (await store.selectKeys(pool, site.id)).map(toKey);
    },

    async revokeKeys(siteId: string, keyIdOrPrefix?: string): Promise<number> {
      const site = await requireSite(siteId);
      if (keyIdOrPrefix === undefined) return store.revokeActiveKeys(pool, site.id);
      return store.revokeActiveKeys(pool, site.id, isUuid(keyIdOrPrefix) ? { id: keyIdOrPrefix } : { prefix: keyIdOrPrefix });
    },

    /** The site's default pushes per minute for campaigns created without `throttlePerMinute`; null removes it. */
    async setThrottle(siteId: string, perMinute: number | null): Promise<{ id: string; defaultThrottlePerMinute: number | null }> {
      if (perMinute !== null && (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > MAX_THROTTLE_PER_MINUTE)) {
        throw new OperatorError(`the pushes per minute must be a whole number from 1 to ${MAX_THROTTLE_PER_MINUTE}, or none`);
      }
      const site = await requireSite(siteId);
      await store.updateSiteThrottle(pool, site.id, perMinute);
      return { id: site.id, defaultThrottlePerMinute: perMinute };
    },

    async changePlan(siteId: string, plan: string): Promise<Site> {
      const site = await requireSite(siteId);
      await store.updateSitePlan(pool, site.id, await requirePlanId(plan));
      return toSite((await store.selectSiteById(pool, site.id))!);
    },
  };
}
