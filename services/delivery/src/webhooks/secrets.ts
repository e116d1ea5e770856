// Signing secrets of webhook endpoints: `whsec_` and 32 random bytes (base64url), shown to the
// customer once and kept only sealed, exactly as a VAPID private key is (sites/vapid-keys.ts:
// AES-256-GCM under VAPID_ENCRYPTION_KEY, naming the key; previous keys still open it), bound to
// the endpoint by the associated data so a sealed secret copied to another row does not open.
import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { encryptVapidPrivateKey, openVapidPrivateKey, keyRing, VapidKeyDecryptError, type VapidEncryptionKeys } from '../sites/index.js';
import { lockSealedSecrets, storeSealedSecrets } from './webhook-store.js';

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

function boundTo(endpointId: string): string {
  return `webhook:${endpointId}`;
}

export function sealWebhookSecret(secret: string, endpointId: string, keys: Buffer | VapidEncryptionKeys): Buffer {
  return encryptVapidPrivateKey(secret.slice(PREFIX.length), boundTo(endpointId), keyRing(keys).current);
}

export function openWebhookSecret(sealed: Buffer, endpointId: string, keys: Buffer | VapidEncryptionKeys): string {
  return PREFIX + openVapidPrivateKey(sealed, boundTo(endpointId), keys).privateKey;
}

/**
 * After a rotation of VAPID_ENCRYPTION_KEY (the operators' `vapid reencrypt`): the sealed secrets
 * of these sites' webhook endpoints that are not under the current key are sealed again under it,
 * in the caller's transaction. Secrets no known key opens are left as they are and listed.
 */
export async function resealWebhookSecrets(
  tx: PoolClient,
  siteIds: readonly string[],
  keys: VapidEncryptionKeys,
): Promise<{ resealed: number; failed: { endpointId: string; siteId: string; reason: string }[] }> {
  const rows = await lockSealedSecrets(tx, siteIds);
  let resealed = 0;
  const failed: { endpointId: string; siteId: string; reason: string }[] = [];
  for (const r of rows) {
    try {
      const reseal = (sealed: Buffer | null): Buffer | null => {
        if (sealed === null) return null;
        const opened = openVapidPrivateKey(sealed, boundTo(r.id), keys);
        return opened.current ? sealed : encryptVapidPrivateKey(opened.privateKey, boundTo(r.id), keys.current);
      };
      const secret = reseal(r.secret_enc)!;
      const previous = reseal(r.previous_secret_enc);
      if (secret === r.secret_enc && previous === r.previous_secret_enc) continue;
      await storeSealedSecrets(tx, r.id, secret, previous);
      resealed++;
    } catch (err) {
      if (!(err instanceof VapidKeyDecryptError)) throw err;
      failed.push({ endpointId: r.id, siteId: r.site_id, reason: `its webhook signing secret ${err.reason}` });
    }
  }
  return { resealed, failed };
}
