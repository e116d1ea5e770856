// The token a push payload carries so the service worker can report an impression or a click
// without any credential: campaign id (16 bytes) | subscriber id (8 bytes, big-endian) | the
// first 16 bytes of HMAC-SHA256 over those 24 bytes. 54 base64url characters. A forged or
// altered token, or one made by another deployment (other secret), does not verify.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

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

export function createTrackingTokens(key: Buffer) {
  const mac = (data: Buffer) => createHmac('sha256', key).update(data).digest().subarray(0, MAC_BYTES);
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
      if (!timingSafeEqual(mac(data), raw.subarray(24))) return null;
      const hex = data.subarray(0, 16).toString('hex');
      const campaignId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return { campaignId, subscriberId: data.readBigUInt64BE(16).toString() };
    },
  };
}

export type TrackingTokens = ReturnType<typeof createTrackingTokens>;
