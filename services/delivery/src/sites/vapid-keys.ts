// VAPID key pairs of the sites. The private key is kept only encrypted (AES-256-GCM) with the
// site id as associated data, so a ciphertext copied onto another site's row does not decrypt.
//
// Stored layouts (both are read; only the second is written):
//   legacy (60 bytes): iv(12) | tag(16) | ciphertext(32)                 AAD = site id
//   v1     (69 bytes): 0x01 | key id(8) | iv(12) | tag(16) | ciphertext(32)  AAD = 0x01 | key id | site id
// The key id is a fingerprint of the encryption key (HMAC-SHA256 of a fixed label, 8 bytes), so
// during a rotation of VAPID_ENCRYPTION_KEY each row names the key that opens it and the
// re-encryption command can tell rows that are already under the current key.
import { createCipheriv, createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import webpush from 'web-push';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const PRIVATE_KEY_BYTES = 32;
const VERSION_1 = 0x01;
const KEY_ID_BYTES = 8;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const LEGACY_BYTES = IV_BYTES + TAG_BYTES + PRIVATE_KEY_BYTES;
const V1_BYTES = HEADER_BYTES + LEGACY_BYTES;

export interface VapidKeyPair {
  /** base64url of the uncompressed P-256 point */
  publicKey: string;
  /** base64url of the 32-byte private scalar */
  privateKey: string;
}

/**
 * The keys that protect the VAPID private keys at rest: `current` (VAPID_ENCRYPTION_KEY)
 * encrypts and is tried first; `previous` (VAPID_ENCRYPTION_KEY_PREVIOUS) only decrypt.
 */
export interface VapidEncryptionKeys {
  readonly current: Buffer;
  readonly previous: readonly Buffer[];
}

/** A key given alone is a key ring without previous keys. */
export function keyRing(keys: Buffer | VapidEncryptionKeys): VapidEncryptionKeys {
  return Buffer.isBuffer(keys) ? { current: keys, previous: [] } : keys;
}

/** Thrown when a stored private key opens with none of the known keys (or is not one of our layouts). */
export class VapidKeyDecryptError extends Error {
  override name = 'VapidKeyDecryptError';
  constructor(
    readonly siteId: string,
    /** Why, without the site: "does not decrypt with …". */
    readonly reason: string,
  ) {
    super(`the VAPID private key of site ${siteId} ${reason}`);
  }
}

/**
 * Why a key pair brought from elsewhere cannot be a site's VAPID keys, or null when it can: the
 * public key must be the base64url of an uncompressed P-256 point, the private key of a 32-byte
 * scalar, and the one must be the other's public key (a mismatched pair would sign pushes that
 * every push service refuses). Messages name the fields, after `prefix` (e.g. "vapidKeys.").
 */
export function vapidKeyPairProblem(pair: { publicKey: unknown; privateKey: unknown }, prefix = ''): string | null {
  const decode = (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9_-]+$/.test(v) ? Buffer.from(v, 'base64url') : null);
  const publicKey = decode(pair.publicKey);
  const privateKey = decode(pair.privateKey);
  if (!publicKey || publicKey.length !== 65 || publicKey[0] !== 0x04) return `${prefix}publicKey must be an uncompressed P-256 public key (65 bytes) in base64url`;
  if (!privateKey || privateKey.length !== PRIVATE_KEY_BYTES) return `${prefix}privateKey must be ${PRIVATE_KEY_BYTES} bytes in base64url`;
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(privateKey);
  } catch {
    return `${prefix}privateKey must be a P-256 private key`;
  }
  return ecdh.getPublicKey().equals(publicKey) ? null : `${prefix}publicKey must be the public key of ${prefix}privateKey`;
}

export function generateVapidKeyPair(): VapidKeyPair {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

/** 8 bytes naming an encryption key without revealing it. */
export function encryptionKeyId(key: Buffer): Buffer {
  return createHmac('sha256', key).update('webpush vapid private key id v1').digest().subarray(0, KEY_ID_BYTES);
}

/** Hex of the key id: safe to log and print. */
export function encryptionKeyFingerprint(key: Buffer): string {
  return encryptionKeyId(key).toString('hex');
}

/** The v1 layout under `key`: 0x01 | key id | iv | tag | ciphertext of the raw private key bytes. */
export function encryptVapidPrivateKey(privateKey: string, siteId: string, key: Buffer): Buffer {
  const header = Buffer.concat([Buffer.from([VERSION_1]), encryptionKeyId(key)]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.concat([header, Buffer.from(siteId, 'utf8')]));
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey, 'base64url')), cipher.final()]);
  return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
}

function open(body: Buffer, aad: Buffer, key: Buffer): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
    decipher.setAAD(aad);
    decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('base64url');
  } catch {
    return null;
  }
}

export interface OpenedVapidPrivateKey {
  /** base64url of the private key */
  privateKey: string;
  /** true when the row is in the current layout under the current key: nothing to re-encrypt. */
  current: boolean;
}

/**
 * Opens a stored private key with the current key or a previous one. v1 rows name their key
 * (only that key is tried); legacy rows are tried with the current key, then the previous ones.
 */
export function openVapidPrivateKey(sealed: Buffer, siteId: string, keys: Buffer | VapidEncryptionKeys): OpenedVapidPrivateKey {
  const ring = keyRing(keys);
  const all = [ring.current, ...ring.previous];
  const site = Buffer.from(siteId, 'utf8');
  if (sealed.length === V1_BYTES && sealed[0] === VERSION_1) {
    const header = sealed.subarray(0, HEADER_BYTES);
    const id = header.subarray(1);
    const index = all.findIndex((k) => encryptionKeyId(k).equals(id));
    if (index < 0) {
      throw new VapidKeyDecryptError(siteId, `is encrypted with a key (id ${id.toString('hex')}) that is neither VAPID_ENCRYPTION_KEY nor any VAPID_ENCRYPTION_KEY_PREVIOUS`);
    }
    const privateKey = open(sealed.subarray(HEADER_BYTES), Buffer.concat([header, site]), all[index]);
    if (privateKey === null) throw new VapidKeyDecryptError(siteId, `does not decrypt with the key it names (id ${id.toString('hex')}): corrupted, or copied from another site`);
    return { privateKey, current: index === 0 };
  }
  if (sealed.length === LEGACY_BYTES) {
    for (const key of all) {
      const privateKey = open(sealed, site, key);
      if (privateKey !== null) return { privateKey, current: false };
    }
    throw new VapidKeyDecryptError(siteId, 'does not decrypt with VAPID_ENCRYPTION_KEY or any VAPID_ENCRYPTION_KEY_PREVIOUS');
  }
  throw new VapidKeyDecryptError(siteId, `is not a stored VAPID private key (${sealed.length} bytes)`);
}

/** The base64url private key; throws VapidKeyDecryptError when no known key (or not this site) opens it. */
export function decryptVapidPrivateKey(sealed: Buffer, siteId: string, keys: Buffer | VapidEncryptionKeys): string {
  return openVapidPrivateKey(sealed, siteId, keys).privateKey;
}
