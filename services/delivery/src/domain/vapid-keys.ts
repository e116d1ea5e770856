// VAPID key pairs of the sites. The private key is kept only encrypted (AES-256-GCM) with the
// site id as associated data, so a ciphertext copied onto another site's row does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import webpush from 'web-push';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface VapidKeyPair {
  /** base64url of the uncompressed P-256 point */
  publicKey: string;
  /** base64url of the 32-byte private scalar */
  privateKey: string;
}

export function generateVapidKeyPair(): VapidKeyPair {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

/** iv | tag | ciphertext of the raw private key bytes. */
export function encryptVapidPrivateKey(privateKey: string, siteId: string, key: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(siteId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey, 'base64url')), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

/** The base64url private key; throws when the key or the site id does not match. */
export function decryptVapidPrivateKey(sealed: Buffer, siteId: string, key: Buffer): string {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(siteId, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('base64url');
}
