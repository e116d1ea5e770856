// Adapts the push sender to the chunk worker: one VAPID header cache per site (the private key
// is decrypted once per site and process and never logged), per-subscription payloads.
import type { Pool } from '../../../shared/src/db.js';
import { findSiteById } from '../db/sites.js';
import { decryptVapidPrivateKey, type VapidEncryptionKeys } from '../domain/vapid-keys.js';
import type { PushSender, PushResult as SenderResult } from '../push/sender.js';
import { createVapidHeaderCache, type VapidHeaderCache } from '../push/vapid.js';
import type { Pusher, PushResult } from './chunk-worker.js';

export function createPushGateway(deps: { pool: Pool; sender: PushSender; vapidEncryptionKey: Buffer | VapidEncryptionKeys; vapidSubject: string }): Pusher {
  const caches = new Map<string, Promise<VapidHeaderCache>>();
  const cacheFor = (siteId: string) => {
    let cache = caches.get(siteId);
    if (!cache) {
      cache = (async () => {
        const site = await findSiteById(deps.pool, siteId);
        if (!site) throw new Error(`site ${siteId} has no VAPID keys`);
        return createVapidHeaderCache({
          subject: deps.vapidSubject,
          publicKey: site.vapidPublicKey,
          privateKey: decryptVapidPrivateKey(site.vapidPrivateKeyEnc, site.siteId, deps.vapidEncryptionKey),
        });
      })();
      cache.catch(() => caches.delete(siteId));
      caches.set(siteId, cache);
    }
    return cache;
  };
  return {
    async push(siteId, meta, items, hooks = {}) {
      const vapid = await cacheFor(siteId);
      const { onResult } = hooks;
      const results = await deps.sender.sendBatch(
        {
          payload: '',
          ttl: meta.ttl,
          urgency: meta.urgency,
          topic: meta.topic,
          vapid,
          subscriptions: items,
        },
        { beforeSend: hooks.beforeSend, onResult: onResult && ((r) => onResult(resultOf(r))) },
      );
      return results.map(resultOf);
    },
  };
}

function resultOf(r: SenderResult): PushResult {
  const result: PushResult = { id: r.id, outcome: r.outcome, status: r.status, reason: r.reason, refused: r.refused, attempts: r.attempts };
  if (r.ambiguous) result.ambiguous = r.ambiguous;
  return result;
}
