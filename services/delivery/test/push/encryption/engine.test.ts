// Both encryption engines (engine.js) behind one signature: the native addon, built by
// `npm run build` (a C compiler is on every machine that runs this suite: CI's included), and
// the JavaScript fallback. Each is checked against three decryptors written independently of it,
// refuses the keys it must not use while encrypting the rest of the chunk, and the pool runs the
// engine asked for.
import { expect } from 'chai';
import fc from 'fast-check';
import { ECDH, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { compiledPath, ensureBuilt } from '../../../../../scripts/lib/build-output.js';
import { INTERNAL_TOKENS } from '../../../../../test/support/internal-tokens.js';
import { ConfigError } from '@webpush/shared/config.js';
import { loadConfig } from '../../../src/config.js';
import { chunkCapacity, javascriptEncryptChunk, loadNative, resolveEngine, type EncryptChunk } from '@webpush/push/encryption/engine.js';
import { createEncryptPool } from '@webpush/push/encryption/pool.js';
import { KEYS_LENGTH } from '@webpush/push/encryption/protocol.js';
import { encryptedLength, MAX_PLAINTEXT_LENGTH } from '@webpush/push/encryption/rfc8291.js';
import { decryptAll, privateKeys, receiver, refusedKeys } from '../../../../../packages/push/test/encryption/support/decryptors.js';

const BUILT_ADDON = pathToFileURL(compiledPath('packages/push/native/rfc8291.node'));

/** A chunk as the pool packs it: keys back to back, one plaintext or each its own. */
function chunk(keys: { p256dh: Uint8Array; auth: Uint8Array }[], plaintexts: Uint8Array[] | Uint8Array) {
  const packed = Buffer.alloc(keys.length * KEYS_LENGTH);
  keys.forEach((k, i) => {
    packed.set(k.p256dh.subarray(0, 65), i * KEYS_LENGTH);
    packed.set(k.auth.subarray(0, 16), i * KEYS_LENGTH + 65);
  });
  const own = Array.isArray(plaintexts) ? Uint32Array.from(plaintexts, (p) => p.length) : null;
  const text = Array.isArray(plaintexts) ? Buffer.concat(plaintexts) : plaintexts;
  return { keys: packed, plaintexts: text, own, count: keys.length };
}

/** Runs an engine over a chunk; the bodies (empty where refused) and the bytes written. */
function run(encryptChunk: EncryptChunk, c: ReturnType<typeof chunk>) {
  const out = new Uint8Array(chunkCapacity(c.count, c.plaintexts, c.own));
  const lengths = new Uint32Array(c.count);
  const written = encryptChunk(out, c.keys, c.plaintexts, c.own, c.count, lengths);
  const bodies: Buffer[] = [];
  let at = 0;
  for (const length of lengths) {
    bodies.push(Buffer.from(out.subarray(at, at + length)));
    at += length;
  }
  return { bodies, written, total: at };
}

const text = Buffer.from(JSON.stringify({ v: 1, title: 'Soldes', body: 'Jusqu’à −50 % ✓', url: 'https://example.com/?utm_source=push' }));

before(async function () {
  this.timeout(180_000);
  await ensureBuilt();
});

const engines: [string, () => EncryptChunk][] = [
  ['native addon', () => loadNative(BUILT_ADDON)],
  ['JavaScript', () => javascriptEncryptChunk()],
];

for (const [name, open] of engines) {
  describe(`encryption engine: ${name}`, () => {
    let encryptChunk: EncryptChunk;
    before(() => {
      encryptChunk = open();
    });

    it('property: any plaintexts of 0–3993 bytes to any valid subscribers decrypt to themselves, each body where the lengths say', () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.uint8Array({ maxLength: MAX_PLAINTEXT_LENGTH }), privateKeys, fc.uint8Array({ minLength: 16, maxLength: 16 })), { minLength: 1, maxLength: 6 }),
          fc.boolean(),
          (items, shared) => {
            const receivers = items.map(([, key, auth]) => receiver(key, Buffer.from(auth)));
            const plaintexts = shared ? items[0][0] : items.map(([p]) => p);
            const c = chunk(receivers.map((r) => ({ p256dh: r.publicKey, auth: r.auth })), plaintexts);
            const { bodies, written, total } = run(encryptChunk, c);
            expect(written).to.equal(total);
            bodies.forEach((body, i) => {
              const expected = Buffer.from(shared ? items[0][0] : items[i][0]);
              expect(body.length).to.equal(encryptedLength(expected.length));
              expect(body.readUInt32BE(16)).to.equal(4096);
              expect(body[20]).to.equal(65);
              expect(() => ECDH.convertKey(body.subarray(21, 86), 'prime256v1')).not.to.throw();
              for (const plain of decryptAll(body, receivers[i])) expect(plain.equals(expected)).to.equal(true);
            });
          },
        ),
        { numRuns: 60 },
      );
    });

    it('uses a new salt and a new key pair for every message, past refills of its salt pool', () => {
      const r = receiver();
      const c = chunk(Array.from({ length: 600 }, () => ({ p256dh: r.publicKey, auth: r.auth })), text);
      const { bodies } = run(encryptChunk, c);
      expect(new Set(bodies.map((b) => b.subarray(0, 16).toString('hex'))).size).to.equal(600);
      expect(new Set(bodies.map((b) => b.subarray(21, 86).toString('hex'))).size).to.equal(600);
    });

    describe('refuses keys it must not use (length 0) and encrypts the rest of the chunk', () => {
      const r = receiver();
      const cases = refusedKeys(r).filter(([, key]) => key.length === 65);
      for (const [what, key] of cases) {
        it(what, () => {
          const c = chunk([{ p256dh: r.publicKey, auth: r.auth }, { p256dh: key, auth: r.auth }, { p256dh: r.publicKey, auth: r.auth }], text);
          const { bodies, written } = run(encryptChunk, c);
          expect(bodies.map((b) => b.length)).to.deep.equal([encryptedLength(text.length), 0, encryptedLength(text.length)]);
          expect(written).to.equal(2 * encryptedLength(text.length));
          for (const i of [0, 2]) expect(decryptAll(bodies[i], r)[1].equals(text)).to.equal(true);
        });
      }

      it('property: random 65-byte strings starting 0x04 (not P-256 points)', () => {
        fc.assert(
          fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), (xy) => {
            const { bodies } = run(encryptChunk, chunk([{ p256dh: Buffer.concat([Buffer.from([4]), xy]), auth: r.auth }], text));
            expect(bodies[0].length).to.equal(0);
          }),
          { numRuns: 200 },
        );
      });

      it('a plaintext over 3993 bytes, beside ones that fit', () => {
        const long = randomBytes(MAX_PLAINTEXT_LENGTH + 1);
        const c = chunk([{ p256dh: r.publicKey, auth: r.auth }, { p256dh: r.publicKey, auth: r.auth }], [long, text]);
        const { bodies } = run(encryptChunk, c);
        expect(bodies[0].length).to.equal(0);
        expect(decryptAll(bodies[1], r)[2].equals(text)).to.equal(true);
        expect(run(encryptChunk, chunk([{ p256dh: r.publicKey, auth: r.auth }], randomBytes(MAX_PLAINTEXT_LENGTH))).bodies[0].length).to.equal(4096);
      });
    });
  });
}

describe('encryption engine: the native addon guards its arguments', () => {
  let encryptChunk: EncryptChunk;
  before(() => {
    encryptChunk = loadNative(BUILT_ADDON);
  });
  const r = receiver();
  const c = chunk([{ p256dh: r.publicKey, auth: r.auth }, { p256dh: r.publicKey, auth: r.auth }], [text, text]);
  const call = (...args: unknown[]) => () => (encryptChunk as (...a: unknown[]) => number)(...args);

  it('throws, writing nothing past its output, when the arrays do not fit the count', () => {
    const small = new Uint8Array(encryptedLength(text.length) + 10).fill(0xee);
    expect(call(small, c.keys, c.plaintexts, c.own, 2, new Uint32Array(2))).to.throw(/output too small/);
    expect(small.subarray(encryptedLength(text.length)).every((b) => b === 0xee)).to.equal(true);
    const out = new Uint8Array(chunkCapacity(2, c.plaintexts, c.own));
    expect(call(out, c.keys.subarray(0, KEYS_LENGTH), c.plaintexts, c.own, 2, new Uint32Array(2))).to.throw(/fewer keys/);
    expect(call(out, c.keys, c.plaintexts, c.own, 2, new Uint32Array(1))).to.throw(/fewer keys/);
    expect(call(out, c.keys, c.plaintexts, new Uint32Array([text.length]), 2, new Uint32Array(2))).to.throw(/fewer keys/);
    expect(call(out, c.keys, c.plaintexts.subarray(1), c.own, 2, new Uint32Array(2))).to.throw(/exceed the plaintexts/);
  });

  it('throws on arguments of the wrong type or number', () => {
    const out = new Uint8Array(chunkCapacity(2, c.plaintexts, c.own));
    expect(call(out, c.keys, c.plaintexts, c.own, 2)).to.throw(/6 arguments/);
    expect(call('out', c.keys, c.plaintexts, c.own, 2, new Uint32Array(2))).to.throw(/wrong type/);
    expect(call(out, c.keys, c.plaintexts, new Uint8Array(2), 2, new Uint32Array(2))).to.throw(/wrong type/);
    expect(call(out, c.keys, c.plaintexts, c.own, 2, new Int32Array(2))).to.throw(/wrong type/);
    expect(call(out, c.keys, c.plaintexts, c.own, -1, new Uint32Array(2))).to.throw(/fewer keys|wrong type/);
    expect(run(encryptChunk, c).bodies.every((b) => decryptAll(b, r)[0].equals(text))).to.equal(true);
  });
});

describe('encryption engine: choosing one (ENCRYPTION_ENGINE)', () => {
  const nowhere = new URL('file:///nonexistent/rfc8291.node');

  it('ENCRYPTION_ENGINE is auto by default, or native or javascript; anything else stops start-up naming it', () => {
    const env = { DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...INTERNAL_TOKENS };
    expect(loadConfig(env).sending.encryptionEngine).to.equal('auto');
    for (const value of ['auto', 'native', 'javascript']) expect(loadConfig({ ...env, ENCRYPTION_ENGINE: value }).sending.encryptionEngine).to.equal(value);
    for (const value of ['Native', 'js', 'wasm', '1']) {
      expect(() => loadConfig({ ...env, ENCRYPTION_ENGINE: value }), value).to.throw(ConfigError, `ENCRYPTION_ENGINE must be one of auto, native, javascript, got "${value}"`);
    }
  });

  it('auto takes the addon when it loads, else JavaScript and says why; native insists; javascript never loads it', () => {
    expect(resolveEngine('auto', BUILT_ADDON)).to.deep.equal({ engine: 'native' });
    expect(resolveEngine('native', BUILT_ADDON)).to.deep.equal({ engine: 'native' });
    expect(resolveEngine('auto', nowhere)).to.deep.equal({ engine: 'javascript', reason: '/nonexistent/rfc8291.node was not built (npm run build needs a C compiler, cc or $CC)' });
    expect(() => resolveEngine('native', nowhere)).to.throw(/ENCRYPTION_ENGINE=native, but the addon cannot be used: \/nonexistent\/rfc8291.node was not built/);
    expect(resolveEngine('javascript', nowhere).engine).to.equal('javascript');
  });

  for (const engine of ['native', 'javascript'] as const) {
    it(`a pool asked for ${engine} encrypts with it in every worker`, async function () {
      this.timeout(20_000);
      const pool = createEncryptPool({ size: 2, chunkSize: 3, engine, addonUrl: BUILT_ADDON });
      try {
        expect(pool.engine).to.equal(engine);
        const receivers = Array.from({ length: 10 }, () => receiver());
        const bodies = await pool.encryptBatch(text.toString(), receivers.map((r) => ({ p256dhRaw: r.publicKey, authRaw: r.auth })));
        bodies.forEach((body, i) => expect(decryptAll(body, receivers[i])[0].equals(text)).to.equal(true));
      } finally {
        await pool.close();
      }
    });
  }
});
