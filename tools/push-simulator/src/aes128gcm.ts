// The browser's half of RFC 8291 (Message Encryption for Web Push) over RFC 8188 (aes128gcm).
import { createDecipheriv, createECDH, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

const HEADER_FIXED = 21; // salt(16) | rs(4) | idlen(1)
const TAG_LENGTH = 16;
const P256_POINT_LENGTH = 65;

export interface ReceiverKeys {
  /** The subscription's P-256 private key (32 raw bytes). */
  privateKey: Buffer;
  /** The subscription's uncompressed P-256 public key (65 bytes), i.e. `p256dh`. */
  publicKey: Buffer;
  /** The 16-byte `auth` secret. */
  authSecret: Buffer;
}

export class DecryptError extends Error {}

export function decryptAes128gcm(body: Buffer, keys: ReceiverKeys): Buffer {
  if (body.length < HEADER_FIXED) throw new DecryptError('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  // RFC 8291 §4: the keyid carries the sender's ephemeral public key and nothing else.
  if (idlen !== P256_POINT_LENGTH) throw new DecryptError(`keyid must be a 65-byte P-256 point, got ${idlen} bytes`);
  if (rs < TAG_LENGTH + 2) throw new DecryptError(`record size ${rs} is too small`);
  if (body.length < HEADER_FIXED + idlen) throw new DecryptError('body shorter than its keyid');
  const senderPublicKey = body.subarray(HEADER_FIXED, HEADER_FIXED + idlen);
  const ciphertext = body.subarray(HEADER_FIXED + idlen);
  if (ciphertext.length === 0) throw new DecryptError('no ciphertext');

  let ecdhSecret: Buffer;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(keys.privateKey);
    ecdhSecret = ecdh.computeSecret(senderPublicKey);
  } catch {
    throw new DecryptError('keyid is not a valid P-256 point');
  }

  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'latin1'), keys.publicKey, senderPublicKey]);
  // KeyObjects: given a Buffer key, Node 24's hkdfSync and createDecipheriv spend more finding
  // out what it is not (caught exceptions) than deriving or decrypting.
  const ikm = createSecretKey(Buffer.from(hkdfSync('sha256', createSecretKey(ecdhSecret), keys.authSecret, keyInfo, 32)));
  const cek = createSecretKey(Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0', 'latin1'), 16)));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0', 'latin1'), 12));

  const plaintexts: Buffer[] = [];
  const recordCount = Math.ceil(ciphertext.length / rs);
  for (let seq = 0; seq < recordCount; seq++) {
    const record = ciphertext.subarray(seq * rs, Math.min((seq + 1) * rs, ciphertext.length));
    const last = seq === recordCount - 1;
    if (!last && record.length !== rs) throw new DecryptError('truncated record');
    if (record.length <= TAG_LENGTH) throw new DecryptError('record shorter than its tag');
    const plain = openRecord(record, cek, nonceFor(baseNonce, seq));
    plaintexts.push(stripPadding(plain, last));
  }
  return Buffer.concat(plaintexts);
}

function nonceFor(base: Buffer, seq: number): Buffer {
  const nonce = Buffer.from(base);
  // RFC 8188 §2.3: XOR the sequence number into the low 48 bits (records are few, so 32 suffice).
  nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
  return nonce;
}

function openRecord(record: Buffer, cek: KeyObject, nonce: Buffer): Buffer {
  try {
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_LENGTH));
    return Buffer.concat([decipher.update(record.subarray(0, record.length - TAG_LENGTH)), decipher.final()]);
  } catch {
    throw new DecryptError('authentication failed');
  }
}

function stripPadding(plain: Buffer, last: boolean): Buffer {
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0) throw new DecryptError('record has no padding delimiter');
  const expected = last ? 0x02 : 0x01;
  if (plain[end] !== expected) throw new DecryptError(`padding delimiter must be 0x0${expected}`);
  return plain.subarray(0, end);
}
