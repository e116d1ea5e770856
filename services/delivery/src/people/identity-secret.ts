// A site's identity secret: `wpid_` and 32 random bytes (base64url). The customer's server signs
// each user id with it — hex HMAC-SHA256 with the whole secret text as the key — and its pages
// hand id and signature to the plugin (`webpush('identify', id, signature)`), so a visitor
// cannot claim an id the site did not sign. Kept only sealed, exactly as a webhook signing
// secret (webhooks/secrets.ts: AES-256-GCM under VAPID_ENCRYPTION_KEY), bound to the site.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PoolClient } from 'pg';
import { encryptVapidPrivateKey, keyRing, openVapidPrivateKey, VapidKeyDecryptError, type VapidEncryptionKeys } from '../sites/index.js';
import { lockIdentitySecrets, storeIdentitySecrets } from './people-store.js';

const PREFIX = 'wpid_';

export function newIdentitySecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

function boundTo(siteId: string): string {
  return `identity:${siteId}`;
}

export function sealIdentitySecret(secret: string, siteId: string, keys: Buffer | VapidEncryptionKeys): Buffer {
  return encryptVapidPrivateKey(secret.slice(PREFIX.length), boundTo(siteId), keyRing(keys).current);
}

export function openIdentitySecret(sealed: Buffer, siteId: string, keys: Buffer | VapidEncryptionKeys): string {
  return PREFIX + openVapidPrivateKey(sealed, boundTo(siteId), keys).privateKey;
}

/** What the customer's server computes: hex HMAC-SHA256(secret, externalId), the id as UTF-8. */
export function identitySignature(secret: string, externalId: string): string {
  return createHmac('sha256', secret).update(externalId, 'utf8').digest('hex');
}

/** Whether `signature` (64 hex digits, either case) signs `externalId` under one of `secrets`; constant time per secret. */
export function signatureMatches(secrets: readonly string[], externalId: string, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  let matched = false;
  // Every secret is tried, matched or not, so the answer's timing does not tell which one did.
  for (const secret of secrets) matched = timingSafeEqual(Buffer.from(identitySignature(secret, externalId), 'hex'), given) || matched;
  return matched;
}

/**
 * After a rotation of VAPID_ENCRYPTION_KEY (`vapid reencrypt`): these sites' sealed identity
 * secrets not under the current key are sealed again under it, in the caller's transaction.
 * Secrets no known key opens are left as they are and listed.
 */
export async function resealIdentitySecrets(
  tx: PoolClient,
  siteIds: readonly string[],
  keys: VapidEncryptionKeys,
): Promise<{ resealed: number; failed: { siteId: string; reason: string }[] }> {
  const rows = await lockIdentitySecrets(tx, siteIds);
  let resealed = 0;
  const failed: { siteId: string; reason: string }[] = [];
  for (const r of rows) {
    try {
      const reseal = (sealed: Buffer | null): Buffer | null => {
        if (sealed === null) return null;
        const opened = openVapidPrivateKey(sealed, boundTo(r.site_id), keys);
        return opened.current ? sealed : encryptVapidPrivateKey(opened.privateKey, boundTo(r.site_id), keys.current);
      };
      const secret = reseal(r.secret_enc)!;
      const previous = reseal(r.previous_secret_enc);
      if (secret === r.secret_enc && previous === r.previous_secret_enc) continue;
      await storeIdentitySecrets(tx, r.site_id, secret, previous);
      resealed++;
    } catch (err) {
      if (!(err instanceof VapidKeyDecryptError)) throw err;
      failed.push({ siteId: r.site_id, reason: `its identity secret ${err.reason}` });
    }
  }
  return { resealed, failed };
}
