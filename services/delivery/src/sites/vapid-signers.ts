// The VAPID signer of each site, for the push path's jobs: the site's keys are looked up and its
// private key decrypted once per site and process (never logged), then the signer caches one
// signed header per push-service origin (packages/push/src/vapid.ts).
import type { Queryable } from '@webpush/shared/db.js';
import { createVapidHeaderCache, type VapidHeaderCache } from '@webpush/push/vapid.js';
import { findSiteById } from './site-store.js';
import { decryptVapidPrivateKey, type VapidEncryptionKeys } from './vapid-keys.js';

/** The signer of a site; rejects when the site is unknown or its key does not decrypt (and is asked again next time). */
export type VapidSigners = (siteId: string) => Promise<VapidHeaderCache>;

export function vapidSigners(db: Queryable, keys: Buffer | VapidEncryptionKeys, subject: string): VapidSigners {
  const signers = new Map<string, Promise<VapidHeaderCache>>();
  return (siteId) => {
    let signer = signers.get(siteId);
    if (!signer) {
      signer = (async () => {
        const site = await findSiteById(db, siteId);
        if (!site) throw new Error(`site ${siteId} has no VAPID keys`);
        return createVapidHeaderCache({
          subject,
          publicKey: site.vapidPublicKey,
          privateKey: decryptVapidPrivateKey(site.vapidPrivateKeyEnc, site.siteId, keys),
        });
      })();
      signer.catch(() => signers.delete(siteId));
      signers.set(siteId, signer);
    }
    return signer;
  };
}
