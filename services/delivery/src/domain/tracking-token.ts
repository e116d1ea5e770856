// The token a push payload carries so the service worker can report an impression or a click
// without any credential: campaign id (16 bytes) | subscriber id (8 bytes, big-endian) | the
// first 16 bytes of HMAC-SHA256 over those 24 bytes. 54 base64url characters. A forged or
// altered token, or one made by another deployment (other secret), does not verify.
// Tokens are always signed with the current key; during a rotation of VAPID_ENCRYPTION_KEY they
// are also accepted under the previous keys, so notifications delivered before it still count.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { VapidEncryptionKeys } from './vapid-keys.js';

const MAC_BYTES = 16;
const TOKEN_BYTES = 16 + 8 + MAC_BYTES;

export interface TrackingTarget {
  campaignId: string;
  subscriberId: string;
}

/** A tracking key derived from the VAPID encryption key, so operators manage one secret less. */
export function deriveTrackingKey(vapidEncryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', vapidEncryptionKey, Buffer.alloc(0), 'webpush tracking token v1', 32));
}

/** `key` signs and verifies; `previousKeys` only verify (tokens issued before a key rotation). */
export function createTrackingTokens(key: Buffer, previousKeys: readonly Buffer[] = []) {
  const macWith = (k: Buffer, data: Buffer) => createHmac('sha256', k).update(data).digest().subarray(0, MAC_BYTES);
  const mac = (data: Buffer) => macWith(key, data);
  const verifying = [key, ...previousKeys];
  return {
    sign({ campaignId, subscriberId }: TrackingTarget): string {
      const data = Buffer.alloc(24);
      Buffer.from(campaignId.replace(/-/g, ''), 'hex').copy(data, 0);
      data.writeBigUInt64BE(BigInt(subscriberId), 16);
      return Buffer.concat([data, mac(data)]).toString('base64url');
    },
    /** The campaign and subscriber a token names, or null when it does not verify. */
    verify(token: unknown): TrackingTarget | null {
      if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{54}$/.test(token)) return null;
      const raw = Buffer.from(token, 'base64url');
      if (raw.length !== TOKEN_BYTES) return null;
      const data = raw.subarray(0, 24);
      const given = raw.subarray(24);
      if (!verifying.some((k) => timingSafeEqual(macWith(k, data), given))) return null;
      const hex = data.subarray(0, 16).toString('hex');
      const campaignId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return { campaignId, subscriberId: data.readBigUInt64BE(16).toString() };
    },
  };
}

/** Tokens keyed from the VAPID encryption keys: signed under the current one, verified under any. */
export function trackingTokensFor(keys: VapidEncryptionKeys): TrackingTokens {
  return createTrackingTokens(deriveTrackingKey(keys.current), keys.previous.map(deriveTrackingKey));
}

export type TrackingTokens = ReturnType<typeof createTrackingTokens>;
