// Receivers of our encrypted pushes, and the three decryptors written independently of our
// encoders (the tests' own over hkdfSync, the push simulator's, and http_ece, what web-push uses),
// shared by the encoder and engine suites.
import fc from 'fast-check';
import { createECDH, ECDH as EcdhClass, randomBytes, type ECDH } from 'node:crypto';
import ece from 'http_ece';
import { decryptAes128gcm } from '../../../../../tools/push-simulator/src/aes128gcm.js';
import { decryptPush } from '../../support/rfc8291.js';

export interface Receiver {
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
}

/** A subscription's keys: a given P-256 private key (or a fresh one) and auth secret. */
export function receiver(privateKey?: Uint8Array, auth: Buffer = randomBytes(16)): Receiver {
  const ecdh = createECDH('prime256v1');
  if (privateKey) ecdh.setPrivateKey(privateKey);
  else ecdh.generateKeys();
  return { ecdh, publicKey: ecdh.getPublicKey(), auth };
}

/** The plaintext by each decryptor; they must agree. */
export function decryptAll(body: Buffer, r: Receiver): Buffer[] {
  return [
    decryptPush(body, { p256dh: r.publicKey.toString('base64url'), auth: r.auth.toString('base64url'), ecdh: r.ecdh }),
    decryptAes128gcm(body, { privateKey: r.ecdh.getPrivateKey(), publicKey: r.publicKey, authSecret: r.auth }),
    ece.decrypt(body, { version: 'aes128gcm', privateKey: r.ecdh, authSecret: r.auth.toString('base64url') }),
  ];
}

/** P-256's field prime: a coordinate may not reach it. */
const P = Buffer.from('ffffffff00000001000000000000000000000000ffffffffffffffffffffffff', 'hex');
const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
/** A P-256 private key: 32 bytes in [1, n-1]. */
export const privateKeys = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => {
  const k = BigInt(`0x${Buffer.from(b).toString('hex')}`);
  return k > 0n && k < N;
});

/**
 * Subscriber keys an encoder must refuse, made from a valid receiver's point: [what, key]. The
 * engines take 65 bytes per key (the chunk's layout), so they are given those of 65 bytes.
 */
export function refusedKeys(r: Receiver): [string, Buffer][] {
  const x = r.publicKey.subarray(1, 33);
  const y = r.publicKey.subarray(33);
  const compressed = EcdhClass.convertKey(r.publicKey, 'prime256v1', undefined, undefined, 'compressed') as Buffer;
  return [
    ['a point not on the curve (y with its last bit flipped)', Buffer.concat([Buffer.from([4]), x, y.subarray(0, 31), Buffer.from([y[31] ^ 1])])],
    ['a coordinate not below the field prime (x = p)', Buffer.concat([Buffer.from([4]), P, y])],
    ['the point at infinity (its one-byte encoding)', Buffer.from([0])],
    ['the point at infinity as 65 zero bytes (how the pool marks undecodable keys)', Buffer.alloc(65)],
    ['(0, 0) in uncompressed form', Buffer.concat([Buffer.from([4]), Buffer.alloc(64)])],
    ['a valid point in compressed form (33 bytes)', compressed],
    ['a valid point compressed, padded to 65 bytes', Buffer.concat([compressed, Buffer.alloc(32)])],
    ['a valid point in hybrid form (0x06/0x07)', Buffer.concat([Buffer.from([6 + (y[31] & 1)]), x, y])],
    ['64 bytes', r.publicKey.subarray(0, 64)],
    ['66 bytes', Buffer.concat([r.publicKey, Buffer.from([0])])],
    ['no bytes', Buffer.alloc(0)],
  ];
}
