// API key (by its SHA-256: the raw key never reaches this file) → site and plan. Answers (known and
// unknown keys alike) are cached per hash for a short TTL in a bounded map, so a burst of calls,
// or of guesses, costs one backend round trip per key per TTL. A failed lookup (service down)
// is not cached.
import { createHash } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import type { CallContext, CampaignBackend } from '../grpc/clients.js';
import { isGrpcError } from '../grpc/status-map.js';

export type Permission = 'create' | 'reports' | 'delete' | 'audience';

export interface Principal {
  siteId: string;
  permissions: Readonly<Record<Permission, boolean>>;
  /** The API key that made the call, as the site's audit log names it (never the key); absent for a console user. */
  key?: Readonly<{ id: string; prefix: string; label: string }>;
}

export interface Authenticator {
  /** By the key's SHA-256 (sha256Hex, which the caller has for its limits too): null when the key is unknown or revoked; rejects when the lookup itself failed. */
  authenticate(keyHash: string, ctx: CallContext): Promise<Principal | null>;
}

interface Entry {
  expiresAt: number;
  answer: Promise<Principal | null>;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function createAuthenticator(backend: Pick<CampaignBackend, 'authenticate'>, { ttlMs, maxEntries = 10_000, now = Date.now } = { ttlMs: 5000 }): Authenticator {
  const cache = new Map<string, Entry>();

  async function lookup(keyHash: string, ctx: CallContext): Promise<Principal | null> {
    try {
      const res = await backend.authenticate(keyHash, ctx);
      const p = res.permissions;
      return {
        siteId: res.siteId,
        permissions: Object.freeze({ create: !!p?.create, reports: !!p?.reports, delete: !!p?.delete, audience: !!p?.audience }),
        key: Object.freeze({ id: res.keyId, prefix: res.keyPrefix, label: res.keyLabel }),
      };
    } catch (err) {
      if (isGrpcError(err) && err.code === Status.UNAUTHENTICATED) return null;
      throw err;
    }
  }

  function remember(keyHash: string, entry: Entry): void {
    // Map iteration order is insertion order: the first key is the oldest entry.
    while (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
    cache.set(keyHash, entry);
  }

  return {
    authenticate(keyHash, ctx) {
      if (ttlMs <= 0) return lookup(keyHash, ctx);
      const cached = cache.get(keyHash);
      if (cached && cached.expiresAt > now()) return cached.answer;
      if (cached) cache.delete(keyHash);
      // The promise itself is cached so concurrent calls with one key share one lookup.
      const answer = lookup(keyHash, ctx);
      const entry = { expiresAt: now() + ttlMs, answer };
      remember(keyHash, entry);
      answer.catch(() => {
        if (cache.get(keyHash) === entry) cache.delete(keyHash);
      });
      return answer;
    },
  };
}
