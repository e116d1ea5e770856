// The token a push payload carries so the service worker can report an impression or a click
// without any credential: campaign id (16 bytes) | subscriber id (8 bytes) | the first 16 bytes
// of HMAC-SHA256 over those 24 bytes. 54 base64url characters. A forged or altered token, or one
// made by another deployment (other secret), does not verify.
// The subscriber id is enciphered (v2): the token travels to a browser and sits in click-through
// URLs, and the internal id is a global sequence that would tell how many subscribers there are
// and in which order they came. A 64-bit block cipher (a 4-round Feistel network over AES, keyed
// from the tracking key and tweaked by the campaign id) keeps the token at 54 characters. Tokens
// of the first format (v1: the id in clear, another MAC key) are still accepted, so
// notifications delivered before the change still count.
// Tokens are always signed with the current key; during a rotation of VAPID_ENCRYPTION_KEY they
// are also accepted under the previous keys, so notifications delivered before it still count.
import { createCipheriv, createHmac, createSecretKey, hkdfSync, timingSafeEqual, type Cipheriv, type KeyObject } from 'node:crypto';
import type { VapidEncryptionKeys } from '../sites/index.js';

const MAC_BYTES = 16;
const TOKEN_BYTES = 16 + 8 + MAC_BYTES;
const FEISTEL_ROUNDS = 4;

export interface TrackingTarget {
  campaignId: string;
  subscriberId: string;
}

/** A tracking key derived from the VAPID encryption key, so operators manage one secret less. */
export function deriveTrackingKey(vapidEncryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', vapidEncryptionKey, Buffer.alloc(0), 'webpush tracking token v1', 32));
}

// The MAC keys are KeyObjects made once: given a Buffer, Node 24's createHmac spends ≈ 40 µs
// finding out that it is neither a KeyObject nor a CryptoKey (two caught exceptions), on every
// call — once per push here (see packages/push/src/encryption/rfc8291.js).
interface KeySet {
  /** v1: MAC over the clear id. */
  macV1: KeyObject;
  /** v2: MAC over the enciphered id (never valid for a v1 token, and the other way round). */
  macV2: KeyObject;
  /** AES-256 in ECB on single blocks: the Feistel round function. */
  rounds: Cipheriv;
}

function keySet(trackingKey: Buffer): KeySet {
  const sub = (info: string) => Buffer.from(hkdfSync('sha256', trackingKey, Buffer.alloc(0), info, 32));
  const rounds = createCipheriv('aes-256-ecb', sub('webpush tracking token v2 subscriber id'), null);
  rounds.setAutoPadding(false);
  return { macV1: createSecretKey(trackingKey), macV2: createSecretKey(sub('webpush tracking token v2 mac')), rounds };
}

/**
 * The 64-bit ids at data[24i+16..24i+24] enciphered (or deciphered) in place, each tweaked by its
 * campaign id at data[24i..24i+16]. All ids go through each round together: one AES call per
 * round for a whole chunk of pushes, not one per push (ECB enciphers each block on its own).
 */
function feistel(keys: KeySet, data: Buffer, count: number, decipher: boolean): void {
  const blocks = Buffer.alloc(count * 16);
  const left = new Uint32Array(count);
  const right = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    data.copy(blocks, i * 16, i * 24, i * 24 + 11); // tweak: the campaign id's first 11 bytes
    left[i] = data.readUInt32BE(i * 24 + 16);
    right[i] = data.readUInt32BE(i * 24 + 20);
  }
  // The round function of every half at once: AES(tweak | round | half), its first 32 bits.
  const f = (round: number, halves: Uint32Array) => {
    for (let i = 0; i < count; i++) {
      blocks[i * 16 + 11] = round;
      blocks.writeUInt32BE(halves[i], i * 16 + 12);
    }
    return keys.rounds.update(blocks);
  };
  for (let step = 0; step < FEISTEL_ROUNDS; step++) {
    if (!decipher) {
      const out = f(step, right);
      for (let i = 0; i < count; i++) {
        const next = (left[i] ^ out.readUInt32BE(i * 16)) >>> 0;
        left[i] = right[i];
        right[i] = next;
      }
    } else {
      const out = f(FEISTEL_ROUNDS - 1 - step, left);
      for (let i = 0; i < count; i++) {
        const previous = (right[i] ^ out.readUInt32BE(i * 16)) >>> 0;
        right[i] = left[i];
        left[i] = previous;
      }
    }
  }
  for (let i = 0; i < count; i++) {
    data.writeUInt32BE(left[i], i * 24 + 16);
    data.writeUInt32BE(right[i], i * 24 + 20);
  }
}

/** `key` signs and verifies; `previousKeys` only verify (tokens issued before a key rotation). */
export function createTrackingTokens(key: Buffer, previousKeys: readonly Buffer[] = []) {
  const macWith = (k: KeyObject, data: Buffer) => createHmac('sha256', k).update(data).digest().subarray(0, MAC_BYTES);
  const current = keySet(key);
  const verifying = [current, ...previousKeys.map(keySet)];
  /** The token of each subscriber of one campaign, in order: what a chunk of pushes carries. */
  const signAll = (campaignId: string, subscriberIds: readonly string[]): string[] => {
    const count = subscriberIds.length;
    const data = Buffer.alloc(count * 24);
    const campaign = Buffer.from(campaignId.replace(/-/g, ''), 'hex');
    for (let i = 0; i < count; i++) {
      campaign.copy(data, i * 24);
      data.writeBigUInt64BE(BigInt(subscriberIds[i]), i * 24 + 16);
    }
    feistel(current, data, count, false);
    const token = Buffer.alloc(TOKEN_BYTES);
    const signed = token.subarray(0, 24);
    return subscriberIds.map((_, i) => {
      data.copy(token, 0, i * 24, i * 24 + 24);
      macWith(current.macV2, signed).copy(token, 24);
      return token.toString('base64url');
    });
  };
  return {
    signAll,
    sign: ({ campaignId, subscriberId }: TrackingTarget): string => signAll(campaignId, [subscriberId])[0],
    /** The campaign and subscriber a token names, or null when it does not verify. */
    verify(token: unknown): TrackingTarget | null {
      if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{54}$/.test(token)) return null;
      const raw = Buffer.from(token, 'base64url');
      if (raw.length !== TOKEN_BYTES) return null;
      const data = Buffer.from(raw.subarray(0, 24));
      const given = raw.subarray(24);
      const v2 = verifying.find((k) => timingSafeEqual(macWith(k.macV2, data), given));
      if (v2) feistel(v2, data, 1, true);
      else if (!verifying.some((k) => timingSafeEqual(macWith(k.macV1, data), given))) return null;
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
