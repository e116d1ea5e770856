// The RFC 8291 encoder against three decryptors written independently of it: the tests' own
// (hkdfSync), the push simulator's, and http_ece's (what web-push uses).
import { expect } from 'chai';
import fc from 'fast-check';
import { createHmac, ECDH, randomBytes } from 'node:crypto';
import {
  Aes128gcmEncoder,
  encryptedLength,
  hmacSha256,
  MAX_PLAINTEXT_LENGTH,
  Rfc8291Error,
} from '../../src/encryption/rfc8291.js';
import { decryptAll, privateKeys, receiver, refusedKeys } from './support/decryptors.js';

describe('RFC 8291 encoder (aes128gcm)', () => {
  it('property: its HMAC-SHA-256 equals node:crypto\'s for every key of 0–64 bytes and data of 0–145 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 145 }), (key, data) => {
        expect(hmacSha256(key, data).equals(createHmac('sha256', key).update(data).digest())).to.equal(true);
      }),
      { numRuns: 500 },
    );
    expect(() => hmacSha256(new Uint8Array(65), new Uint8Array(1))).to.throw(RangeError);
    expect(() => hmacSha256(new Uint8Array(16), new Uint8Array(146))).to.throw(RangeError);
  });

  const encoder = new Aes128gcmEncoder();
  const text = Buffer.from(JSON.stringify({ v: 1, title: 'Soldes', body: 'Jusqu’à −50 % ✓', url: 'https://example.com/?utm_source=push' }));

  it('writes one 4096-byte record with our fresh public key as keyid', () => {
    const r = receiver();
    const body = encoder.encrypt(text, r.publicKey, r.auth);
    expect(body.length).to.equal(encryptedLength(text.length)).and.equal(86 + text.length + 1 + 16);
    expect(body.readUInt32BE(16)).to.equal(4096);
    expect(body[20]).to.equal(65);
    expect(body[21]).to.equal(0x04);
    expect(() => ECDH.convertKey(body.subarray(21, 86), 'prime256v1')).not.to.throw();
    for (const plain of decryptAll(body, r)) expect(plain.equals(text)).to.equal(true);
  });

  it('property: any plaintext of 0–3993 bytes to any valid subscriber decrypts to itself', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: MAX_PLAINTEXT_LENGTH }),
        privateKeys,
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        (plaintext, privateKey, auth) => {
          const r = receiver(privateKey, Buffer.from(auth));
          const body = encoder.encrypt(plaintext, r.publicKey, r.auth);
          expect(body.length).to.equal(encryptedLength(plaintext.length));
          for (const plain of decryptAll(body, r)) expect(plain.equals(plaintext)).to.equal(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('takes a plaintext of exactly 3993 bytes (a 4096-byte body) and refuses 3994', () => {
    const r = receiver();
    const largest = randomBytes(MAX_PLAINTEXT_LENGTH);
    const body = encoder.encrypt(largest, r.publicKey, r.auth);
    expect(MAX_PLAINTEXT_LENGTH).to.equal(3993);
    expect(body.length).to.equal(4096);
    expect(decryptAll(body, r)[0].equals(largest)).to.equal(true);
    expect(() => encoder.encrypt(randomBytes(MAX_PLAINTEXT_LENGTH + 1), r.publicKey, r.auth)).to.throw(Rfc8291Error, /exceeds 3993/);
  });

  it('uses a new salt and a new key pair for every message, past a refill of its salt pool', () => {
    const r = receiver();
    const salts = new Set<string>();
    const keys = new Set<string>();
    const count = 600; // more than two fills of 256 salts
    for (let i = 0; i < count; i += 1) {
      const body = encoder.encrypt(text, r.publicKey, r.auth);
      salts.add(body.subarray(0, 16).toString('hex'));
      keys.add(body.subarray(21, 86).toString('hex'));
    }
    expect(salts.size).to.equal(count);
    expect(keys.size).to.equal(count);
    // Another thread's encoder draws its own salts.
    expect(salts.has(new Aes128gcmEncoder().encrypt(text, r.publicKey, r.auth).subarray(0, 16).toString('hex'))).to.equal(false);
  });

  it('writes at an offset, exactly encryptedLength bytes, and nothing when it refuses', () => {
    const r = receiver();
    const out = Buffer.alloc(40 + encryptedLength(text.length) + 40, 0xee);
    expect(encoder.encryptInto(out, 40, text, r.publicKey, r.auth)).to.equal(encryptedLength(text.length));
    expect(out.subarray(0, 40).every((b) => b === 0xee)).to.equal(true);
    expect(out.subarray(out.length - 40).every((b) => b === 0xee)).to.equal(true);
    expect(decryptAll(out.subarray(40, out.length - 40), r)[1].equals(text)).to.equal(true);

    const untouched = Buffer.alloc(encryptedLength(text.length), 0xee);
    const notOnCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]);
    expect(() => encoder.encryptInto(untouched, 0, text, notOnCurve, r.auth)).to.throw(Rfc8291Error);
    expect(untouched.every((b) => b === 0xee)).to.equal(true);
    expect(() => encoder.encryptInto(Buffer.alloc(10), 0, text, r.publicKey, r.auth)).to.throw(RangeError);
  });

  describe('refuses subscriber keys it must not use', () => {
    const r = receiver();
    const cases = refusedKeys(r);
    for (const [name, key] of cases) {
      it(name, () => {
        expect(() => encoder.encrypt(text, key, r.auth)).to.throw(Rfc8291Error, /p256dh/);
      });
    }

    it('property: random 65-byte strings starting 0x04 (not P-256 points)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (xy) => {
          expect(() => encoder.encrypt(text, Buffer.concat([Buffer.from([4]), xy]), r.auth)).to.throw(Rfc8291Error);
        }),
      );
    });

    for (const length of [0, 8, 15, 17, 32]) {
      it(`an auth secret of ${length} bytes`, () => {
        expect(() => encoder.encrypt(text, r.publicKey, randomBytes(length))).to.throw(Rfc8291Error, /auth secret must be 16 bytes/);
      });
    }

    it('and keeps encrypting correctly after refusing', () => {
      expect(() => encoder.encrypt(text, cases[0][1], r.auth)).to.throw(Rfc8291Error);
      expect(decryptAll(encoder.encrypt(text, r.publicKey, r.auth), r)[2].equals(text)).to.equal(true);
    });
  });
});
