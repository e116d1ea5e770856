// Operator commands (the SiteAdmin gRPC API behind the CLI, npm start's demo, tests): plans,
// sites and API keys. Keys are shown once and stored only as SHA-256; the `wpk_` prefix lets
// secret scanners recognise a leaked key.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { formatUtcDate } from '../base/dates.js';
import { isUuid } from '../base/ids.js';
import * as store from './site-store.js';

/** The most pushes per minute a throttle may ask for: a site's default and a campaign's own alike. */
export const MAX_THROTTLE_PER_MINUTE = 1_000_000;

/** A site's default throttle (the operators' `sites set-throttle` and the console's settings): 1 to the most; null is none. */
export function isSiteThrottle(perMinute: number | null): boolean {
  return perMinute === null || (Number.isInteger(perMinute) && perMinute >= 1 && perMinute <= MAX_THROTTLE_PER_MINUTE);
}

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

/** An operator's request refused: bad input (the admin API's INVALID_ARGUMENT). */
export class OperatorError extends Error {
  override name = 'OperatorError';
}
/** What the request names does not exist: a site, a plan, a user (NOT_FOUND). */
export class OperatorNotFoundError extends OperatorError {}
/** What the request would make exists already: a plan's name, a site's id (ALREADY_EXISTS). */
export class OperatorConflictError extends OperatorError {}

/**
 * How the delivery service learns a new site (its SiteRegistry.RegisterSite; in-process for
 * npm start's demo and tests): idempotent, answering the site's VAPID public key.
 */
export type SiteRegistrar = (site: { siteId: string; publicId: string }) => Promise<{ vapidPublicKey: string }>;

/**
 * A site's public id, derived from its id: a retried create (same id) registers the same public
 * id with the delivery service, which refuses a second one for a site. 16 bytes of SHA-256, as
 * unguessable from outside as the random ids before it.
 */
export function publicIdOf(siteId: string): string {
  return 'pub_' + createHash('sha256').update(`webpush site public id\0${siteId.toLowerCase()}`).digest().subarray(0, 16).toString('base64url');
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

const MAX_NAME_LENGTH = 200;

/** A plan's or site's name: shown in tables and the console, so one line of printable text. */
function checkName(what: 'plan' | 'site', name: string): void {
  if (name.trim() === '') throw new OperatorError(`${what} name must not be empty`);
  if (name.length > MAX_NAME_LENGTH) throw new OperatorError(`${what} name must be at most ${MAX_NAME_LENGTH} characters`);
  if (/[\p{Cc}\p{Cs}]/u.test(name)) throw new OperatorError(`${what} name must not contain control characters`);
}

/** What a public id can look like; anything else names no site (and is not sent to Postgres, which refuses NUL). */
const PUBLIC_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** What a key's prefix can look like (newApiKey). */
const KEY_PREFIX = /^[A-Za-z0-9_-]{1,12}$/;

export function createOperators(pool: Pool) {
  async function findSite(idOrPublicId: string): Promise<store.SiteRow | null> {
    if (isUuid(idOrPublicId)) return store.selectSiteById(pool, idOrPublicId);
    return PUBLIC_ID.test(idOrPublicId) ? store.selectSiteByPublicId(pool, idOrPublicId) : null;
  }
  async function requireSite(idOrPublicId: string): Promise<store.SiteRow> {
    const site = await findSite(idOrPublicId);
    if (!site) throw new OperatorNotFoundError(`site "${idOrPublicId}" does not exist`);
    return site;
  }
  async function requirePlanId(name: string): Promise<string> {
    // A name no plan can have (checkName) is not looked up.
    const id = name.length <= MAX_NAME_LENGTH && !/[\p{Cc}\p{Cs}]/u.test(name) ? await store.findPlanId(pool, name) : null;
    if (!id) throw new OperatorNotFoundError(`plan "${name}" does not exist`);
    return id;
  }

  return {
    async createPlan(name: string, permissions: readonly Permission[]): Promise<Plan> {
      checkName('plan', name);
      const unknown = permissions.filter((p) => !PERMISSIONS.includes(p));
      if (unknown.length > 0) throw new OperatorError(`unknown permission(s): ${unknown.join(', ')} (known: ${PERMISSIONS.join(', ')})`);
      const has = (p: Permission) => permissions.includes(p);
      const row = await store.insertPlan(pool, name, {
        can_create: has('create'),
        can_reports: has('reports'),
        can_delete: has('delete'),
        can_audience: has('audience'),
      });
      if (!row) throw new OperatorConflictError(`plan "${name}" already exists`);
      return toPlan(row);
    },

    async listPlans(): Promise<Plan[]> {
      return (await store.selectPlans(pool)).map(toPlan);
    },

    /**
     * Creates a site whole, or nothing: the delivery service learns it first (`register`,
     * idempotent), then the site and its first API key are stored in one transaction. A call that
     * failed (the delivery service down, a crash in between) leaves at most the delivery
     * service's record, which the same call again (same `id`) reuses; a repeat after success is
     * refused (the key was shown once). `id`: the caller's draw, so it can repeat the call.
     */
    async createSite(input: { id?: string; name: string; plan: string }, register: SiteRegistrar): Promise<{ site: Site; issued: IssuedKey; vapidPublicKey: string }> {
      checkName('site', input.name);
      if (input.id !== undefined && !isUuid(input.id)) throw new OperatorError(`site id "${input.id}" is not a UUID`);
      const id = (input.id ?? randomUUID()).toLowerCase();
      const exists = () => new OperatorConflictError(`site ${id} exists already (created by an earlier call; its API key was shown then: keys rotate issues a new one)`);
      const planId = await requirePlanId(input.plan);
      if (await store.selectSiteById(pool, id)) throw exists();
      const publicId = publicIdOf(id);
      const { vapidPublicKey } = await register({ siteId: id, publicId });
      const { key, hash, prefix } = newApiKey();
      const keyId = await withTransaction(pool, async (tx) => {
        if (!(await store.insertSite(tx, { id, name: input.name, publicId, planId }))) throw exists();
        return store.insertKey(tx, id, hash, prefix);
      });
      return { site: toSite((await store.selectSiteById(pool, id))!), issued: { key, keyId, prefix }, vapidPublicKey };
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
      if (!isUuid(keyIdOrPrefix) && !KEY_PREFIX.test(keyIdOrPrefix)) return 0;
      return store.revokeActiveKeys(pool, site.id, isUuid(keyIdOrPrefix) ? { id: keyIdOrPrefix } : { prefix: keyIdOrPrefix });
    },

    /** The site's default pushes per minute for campaigns created without `throttlePerMinute`; null removes it. */
    async setThrottle(siteId: string, perMinute: number | null): Promise<{ id: string; defaultThrottlePerMinute: number | null }> {
      if (!isSiteThrottle(perMinute)) {
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
