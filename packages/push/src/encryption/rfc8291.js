// @ts-check
// Message Encryption for Web Push (RFC 8291) in the aes128gcm content coding (RFC 8188): one
// record of at most 4096 bytes, the sender's public key as keyid. Plain JavaScript importing only
// node: modules, so worker threads load it as is, from the TypeScript sources or from dist.
//
// Per message it costs one P-256 key generation and one ECDH (ECDH.computeSecret, which also checks
// our fresh key pair: see bench/encrypt.ts for the options measured), five HMAC-SHA-256 and one
// AES-128-GCM pass. Everything else is reused between messages: the ECDH object (generateKeys()
// replaces its key pair), the key-info buffer and a pool of random salts.
//
// No Buffer is ever passed to node:crypto as a key. Node 24 first asks whether such a key is a
// KeyObject, then a CryptoKey, by a private-field brand check in a try/catch: two exceptions, with
// their stack traces, per call — 44 µs for a 6 µs HMAC and 27 µs of a 12 µs AES-GCM pass here
// (docs/history/performance-log.md). So the HMACs are RFC 2104 over one-shot SHA-256 hashes and the AES key
// is a KeyObject: the key schedule costs 18 µs instead of 97.
import { createCipheriv, createECDH, createSecretKey, hash, randomFillSync } from 'node:crypto';

/** Bytes of an uncompressed P-256 point (0x04 | x | y): a subscription's `p256dh`, our keyid. */
export const P256_POINT_LENGTH = 65;
/** Bytes of a subscription's `auth` secret (RFC 8291 §3.2). */
export const AUTH_SECRET_LENGTH = 16;
/** The one record's size, written in the header (RFC 8188 §2.1). */
export const RECORD_SIZE = 4096;
const SALT_LENGTH = 16;
const TAG_LENGTH = 16;
/** salt(16) | rs(4) | idlen(1) | keyid(65) */
const HEADER_LENGTH = SALT_LENGTH + 4 + 1 + P256_POINT_LENGTH;
/** Header, the 0x02 delimiter and the tag around the plaintext. */
const OVERHEAD = HEADER_LENGTH + 1 + TAG_LENGTH;
/** RFC 8291 §4: a body of at most 4096 bytes leaves 3993 for the plaintext. */
export const MAX_PLAINTEXT_LENGTH = RECORD_SIZE - OVERHEAD;

const KEY_INFO_PREFIX = Buffer.from('WebPush: info\0', 'latin1');
// HKDF-Expand to at most 32 bytes is one HMAC over info | 0x01.
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0\x01', 'latin1');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0\x01', 'latin1');
const DELIMITER = Buffer.from([0x02]);
/** rs | idlen: the header between the salt and the keyid. */
const RS_IDLEN = Buffer.alloc(5);
RS_IDLEN.writeUInt32BE(RECORD_SIZE, 0);
RS_IDLEN[4] = P256_POINT_LENGTH;
/** Salts drawn from the CSPRNG at once: one randomFillSync costs as much as a few HMACs. */
const SALTS_PER_FILL = 256;

/** SHA-256's block: an HMAC key of at most this many bytes is used as is (RFC 2104 §2). */
const SHA256_BLOCK = 64;
/** The longest HMAC input here: the key info (144 bytes and 0x01). */
const MAX_HMAC_DATA = KEY_INFO_PREFIX.length + 2 * P256_POINT_LENGTH + 1;
// Scratch of hmacSha256: (K ^ ipad) | data, then (K ^ opad) | inner hash. The function is
// synchronous, so one pair per thread is never in use twice at once.
const INNER = Buffer.alloc(SHA256_BLOCK + MAX_HMAC_DATA);
const OUTER = Buffer.alloc(SHA256_BLOCK + 32);

/**
 * HMAC-SHA-256 (RFC 2104) of `data` under `key`, from two one-shot hashes. Only for the key
 * schedule below: keys of at most 64 bytes, data of at most MAX_HMAC_DATA bytes (checked).
 * @param {Uint8Array} key
 * @param {Uint8Array} data
 * @returns {Buffer}
 */
export function hmacSha256(key, data) {
  if (key.length > SHA256_BLOCK || data.length > MAX_HMAC_DATA) throw new RangeError('hmacSha256: key or data too long');
  for (let i = 0; i < SHA256_BLOCK; i++) {
    const k = i < key.length ? key[i] : 0;
    INNER[i] = k ^ 0x36;
    OUTER[i] = k ^ 0x5c;
  }
  INNER.set(data, SHA256_BLOCK);
  OUTER.set(hash('sha256', INNER.subarray(0, SHA256_BLOCK + data.length), 'buffer'), SHA256_BLOCK);
  return hash('sha256', OUTER, 'buffer');
}

/** Refused input: unusable subscription keys or a plaintext too long. */
export class Rfc8291Error extends Error {
  /** @override */
  name = 'Rfc8291Error';
}

/**
 * Bytes of the body for a plaintext of `plaintextLength` bytes.
 * @param {number} plaintextLength
 */
export function encryptedLength(plaintextLength) {
  return plaintextLength + OVERHEAD;
}

/**
 * Encrypts push messages. Keeps reusable state, so one per thread; not for concurrent use (it is
 * synchronous, so within a thread it never is).
 */
export class Aes128gcmEncoder {
  #ecdh = createECDH('prime256v1');
  /** "WebPush: info\0" | ua_public(65) | as_public(65) | 0x01: the IKM's HKDF-Expand input. */
  #keyInfo = Buffer.alloc(KEY_INFO_PREFIX.length + 2 * P256_POINT_LENGTH + 1);
  #salts = Buffer.alloc(SALTS_PER_FILL * SALT_LENGTH);
  #saltOffset = this.#salts.length;

  constructor() {
    KEY_INFO_PREFIX.copy(this.#keyInfo, 0);
    this.#keyInfo[this.#keyInfo.length - 1] = 0x01;
  }

  /**
   * The aes128gcm body of `plaintext` for one subscription, in a new Buffer.
   * @param {Uint8Array} plaintext at most MAX_PLAINTEXT_LENGTH bytes
   * @param {Uint8Array} p256dh the subscription's uncompressed P-256 public key (65 bytes)
   * @param {Uint8Array} auth the subscription's auth secret (16 bytes)
   * @returns {Buffer}
   */
  encrypt(plaintext, p256dh, auth) {
    const out = Buffer.allocUnsafe(encryptedLength(plaintext.length));
    this.encryptInto(out, 0, plaintext, p256dh, auth);
    return out;
  }

  /**
   * Writes the body of `plaintext` into `out` at `offset`. Throws Rfc8291Error, before writing
   * anything, when the plaintext is too long, the auth secret is not 16 bytes or `p256dh` is not
   * an uncompressed point on P-256 (compressed points are refused too: RFC 8291 §3.1 uses the
   * uncompressed form in the key derivation).
   * @param {Uint8Array} out at least encryptedLength(plaintext.length) bytes from `offset`
   * @param {number} offset
   * @param {Uint8Array} plaintext
   * @param {Uint8Array} p256dh
   * @param {Uint8Array} auth
   * @returns {number} bytes written: encryptedLength(plaintext.length)
   */
  encryptInto(out, offset, plaintext, p256dh, auth) {
    if (plaintext.length > MAX_PLAINTEXT_LENGTH) throw new Rfc8291Error(`plaintext of ${plaintext.length} bytes exceeds ${MAX_PLAINTEXT_LENGTH}`);
    if (auth.length !== AUTH_SECRET_LENGTH) throw new Rfc8291Error(`auth secret must be ${AUTH_SECRET_LENGTH} bytes, got ${auth.length}`);
    if (p256dh.length !== P256_POINT_LENGTH || p256dh[0] !== 0x04) throw new Rfc8291Error('p256dh must be an uncompressed P-256 point (65 bytes, 0x04 first)');
    const length = encryptedLength(plaintext.length);
    if (offset < 0 || offset + length > out.length) throw new RangeError('output too small');

    // A fresh key pair for every message (RFC 8291 §3.1), replacing the previous one.
    const senderKey = this.#ecdh.generateKeys();
    /** @type {Buffer} */
    let secret;
    try {
      // Decoding the point checks that it lies on the curve (P-256's cofactor is 1, so that is
      // enough); the point at infinity has no 65-byte form.
      secret = this.#ecdh.computeSecret(p256dh);
    } catch {
      throw new Rfc8291Error('p256dh is not a point on P-256');
    }
    if (this.#saltOffset === this.#salts.length) {
      randomFillSync(this.#salts);
      this.#saltOffset = 0;
    }
    const salt = this.#salts.subarray(this.#saltOffset, this.#saltOffset + SALT_LENGTH);
    this.#saltOffset += SALT_LENGTH;

    // RFC 8291 §3.4: IKM = HKDF(auth, ecdh_secret, key_info, 32); RFC 8188 §2.2: CEK and nonce
    // from HKDF(salt, IKM, …). HKDF-Extract and a one-block Expand are one HMAC each, done by hand
    // because hkdfSync costs about three times as much here.
    this.#keyInfo.set(p256dh, KEY_INFO_PREFIX.length);
    this.#keyInfo.set(senderKey, KEY_INFO_PREFIX.length + P256_POINT_LENGTH);
    const prkKey = hmacSha256(auth, secret);
    const ikm = hmacSha256(prkKey, this.#keyInfo);
    const prk = hmacSha256(salt, ikm);
    const cek = createSecretKey(hmacSha256(prk, CEK_INFO).subarray(0, 16));
    const nonce = hmacSha256(prk, NONCE_INFO).subarray(0, 12);

    // Header: salt | rs | idlen | keyid (RFC 8188 §2.1, RFC 8291 §4).
    out.set(salt, offset);
    out.set(RS_IDLEN, offset + SALT_LENGTH);
    out.set(senderKey, offset + SALT_LENGTH + RS_IDLEN.length);

    // One record, and the last: plaintext | 0x02, no padding.
    const cipher = createCipheriv('aes-128-gcm', cek, nonce);
    let at = offset + HEADER_LENGTH;
    out.set(cipher.update(plaintext), at);
    at += plaintext.length;
    out.set(cipher.update(DELIMITER), at);
    at += 1;
    cipher.final();
    out.set(cipher.getAuthTag(), at);
    return length;
  }
}
