// Rotation of VAPID_ENCRYPTION_KEY: the previous keys in the configuration, stored VAPID private
// keys opened with the current or a previous key (both stored layouts), tracking tokens verified
// under previous keys, and the re-encryption of every site (real Postgres).
import { expect } from 'chai';
import { createCipheriv, createECDH, randomBytes, randomUUID } from 'node:crypto';
import { freshDatabase } from '../../../test/support/postgres.js';
import { ConfigError } from '@webpush/shared/config.js';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { migrateDeliverySchema } from '../src/app.js';
import { loadConfig, loadVapidEncryptionKeys } from '../src/config.js';
import { DeliveryOperatorError } from '../src/errors.js';
import { createDeliveryOperators, type ReencryptCounts } from '../src/operators.js';
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret } from '../src/webhooks/secrets.js';
import { newIdentitySecret, openIdentitySecret, sealIdentitySecret } from '../src/people/identity-secret.js';
import { createTrackingTokens, deriveTrackingKey, trackingTokensFor } from '../src/tracking/tracking-token.js';
import {
  decryptVapidPrivateKey,
  encryptionKeyFingerprint,
  encryptVapidPrivateKey,
  generateVapidKeyPair,
  openVapidPrivateKey,
  VapidKeyDecryptError,
} from '../src/sites/vapid-keys.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';

const A = randomBytes(32);
const B = randomBytes(32);
const C = randomBytes(32);
const b64 = (k: Buffer) => k.toString('base64');

/** The layout written before key ids existed: iv | tag | ciphertext, site id as AAD. */
function legacySeal(privateKey: string, siteId: string, key: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(siteId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey, 'base64url')), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

describe('delivery: VAPID_ENCRYPTION_KEY rotation', function () {
  describe('configuration', () => {
    const base = { DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: b64(B), ...INTERNAL_TOKENS };

    it('without VAPID_ENCRYPTION_KEY_PREVIOUS (unset or empty) there are no previous keys', () => {
      expect(loadConfig(base).vapidEncryptionKeysPrevious).to.deep.equal([]);
      expect(loadConfig({ ...base, VAPID_ENCRYPTION_KEY_PREVIOUS: '' }).vapidEncryptionKeysPrevious).to.deep.equal([]);
      expect(loadConfig({ ...base, VAPID_ENCRYPTION_KEY_PREVIOUS: '  ' }).vapidEncryptionKeysPrevious).to.deep.equal([]);
    });

    it('reads one or more comma-separated previous keys in order (base64 or base64url, spaces around commas ignored), dropping the current key and repeats', () => {
      const one = loadConfig({ ...base, VAPID_ENCRYPTION_KEY_PREVIOUS: b64(A) });
      expect(one.vapidEncryptionKeysPrevious.map(b64)).to.deep.equal([b64(A)]);
      expect(Object.isFrozen(one.vapidEncryptionKeysPrevious)).to.equal(true);
      const many = loadConfig({ ...base, VAPID_ENCRYPTION_KEY_PREVIOUS: ` ${b64(A)} , ${C.toString('base64url')},${b64(B)},${b64(A)}` });
      expect(many.vapidEncryptionKeysPrevious.map(b64)).to.deep.equal([b64(A), b64(C)]);
      expect(many.vapidEncryptionKey.equals(B)).to.equal(true);
    });

    it('a malformed previous key stops start-up with an error naming the variable (and which key), never the key itself', () => {
      const short = randomBytes(16).toString('base64');
      const cases: [string, RegExp][] = [
        [short, /^VAPID_ENCRYPTION_KEY_PREVIOUS must be base64 of exactly 32 bytes$/],
        [randomBytes(33).toString('base64'), /^VAPID_ENCRYPTION_KEY_PREVIOUS must be base64/],
        ['not base64 at all!', /^VAPID_ENCRYPTION_KEY_PREVIOUS must be base64/],
        [`${b64(A)},${short}`, /^VAPID_ENCRYPTION_KEY_PREVIOUS \(key 2 of 2\) must be base64 of exactly 32 bytes$/],
        [`${b64(A)},`, /^VAPID_ENCRYPTION_KEY_PREVIOUS \(key 2 of 2\) is empty/],
        [`${b64(A)};${b64(C)}`, /^VAPID_ENCRYPTION_KEY_PREVIOUS must be base64/],
      ];
      for (const [value, message] of cases) {
        let thrown: unknown;
        try {
          loadConfig({ ...base, VAPID_ENCRYPTION_KEY_PREVIOUS: value });
        } catch (err) {
          thrown = err;
        }
        expect(thrown, value).to.be.instanceOf(ConfigError);
        expect((thrown as Error).message, value).to.match(message);
        expect((thrown as Error).message).to.not.include(short).and.not.include(b64(A));
      }
      // The CLI validates the same way.
      expect(() => loadVapidEncryptionKeys({ VAPID_ENCRYPTION_KEY: b64(B), VAPID_ENCRYPTION_KEY_PREVIOUS: short })).to.throw(ConfigError, /VAPID_ENCRYPTION_KEY_PREVIOUS/);
    });
  });

  describe('stored VAPID private keys', () => {
    const siteId = randomUUID();
    const pair = generateVapidKeyPair();

    it('are written naming their key, and open with the current key or, after a rotation, a previous one; an unknown key fails', () => {
      const sealed = encryptVapidPrivateKey(pair.privateKey, siteId, A);
      expect(sealed).to.have.length(69);
      expect(sealed[0]).to.equal(1);
      expect(sealed.subarray(1, 9).toString('hex')).to.equal(encryptionKeyFingerprint(A));
      expect(openVapidPrivateKey(sealed, siteId, A)).to.deep.equal({ privateKey: pair.privateKey, current: true });
      expect(openVapidPrivateKey(sealed, siteId, { current: B, previous: [C, A] })).to.deep.equal({ privateKey: pair.privateKey, current: false });
      expect(decryptVapidPrivateKey(sealed, siteId, { current: B, previous: [A] })).to.equal(pair.privateKey);
      expect(() => decryptVapidPrivateKey(sealed, siteId, { current: B, previous: [C] })).to.throw(VapidKeyDecryptError, /neither VAPID_ENCRYPTION_KEY nor any VAPID_ENCRYPTION_KEY_PREVIOUS/);
      expect(() => decryptVapidPrivateKey(sealed, siteId, B)).to.throw(VapidKeyDecryptError, siteId);
    });

    it('still bind the site and detect tampering, including a forged key id', () => {
      const sealed = encryptVapidPrivateKey(pair.privateKey, siteId, A);
      expect(() => decryptVapidPrivateKey(sealed, randomUUID(), A)).to.throw(VapidKeyDecryptError, /does not decrypt with the key it names/);
      const flipped = Buffer.from(sealed);
      flipped[flipped.length - 1] ^= 1;
      expect(() => decryptVapidPrivateKey(flipped, siteId, A)).to.throw(VapidKeyDecryptError);
      // Claiming another known key does not help: the id is authenticated too.
      const relabelled = Buffer.concat([sealed.subarray(0, 1), Buffer.from(encryptionKeyFingerprint(B), 'hex'), sealed.subarray(9)]);
      expect(() => decryptVapidPrivateKey(relabelled, siteId, { current: B, previous: [A] })).to.throw(VapidKeyDecryptError);
      expect(() => decryptVapidPrivateKey(Buffer.alloc(40), siteId, A)).to.throw(VapidKeyDecryptError, /is not a stored VAPID private key \(40 bytes\)/);
    });

    it('in the legacy layout (rows written before key ids) open with the current key, then the previous ones, and never count as current', () => {
      const legacy = legacySeal(pair.privateKey, siteId, A);
      expect(legacy).to.have.length(60);
      expect(openVapidPrivateKey(legacy, siteId, A)).to.deep.equal({ privateKey: pair.privateKey, current: false });
      expect(openVapidPrivateKey(legacy, siteId, { current: B, previous: [C, A] })).to.deep.equal({ privateKey: pair.privateKey, current: false });
      expect(() => decryptVapidPrivateKey(legacy, siteId, { current: B, previous: [C] })).to.throw(VapidKeyDecryptError, /does not decrypt with VAPID_ENCRYPTION_KEY or any VAPID_ENCRYPTION_KEY_PREVIOUS/);
      expect(() => decryptVapidPrivateKey(legacy, randomUUID(), A)).to.throw(VapidKeyDecryptError);
    });
  });

  describe('tracking tokens', () => {
    const target = { campaignId: randomUUID(), subscriberId: '123456789' };

    it('are issued with the current key and accepted under the current or a previous key; without the previous key, old tokens are refused', () => {
      const beforeRotation = trackingTokensFor({ current: A, previous: [] });
      const during = trackingTokensFor({ current: B, previous: [A] });
      const after = trackingTokensFor({ current: B, previous: [] });
      const oldToken = beforeRotation.sign(target);
      expect(during.verify(oldToken)).to.deep.equal(target);
      expect(after.verify(oldToken)).to.equal(null);
      // New tokens are signed with B only: identical to a B-only signer, refused by an A-only verifier.
      const newToken = during.sign(target);
      expect(newToken).to.equal(after.sign(target)).and.not.equal(oldToken);
      expect(after.verify(newToken)).to.deep.equal(target);
      expect(beforeRotation.verify(newToken)).to.equal(null);
      expect(createTrackingTokens(deriveTrackingKey(B), [deriveTrackingKey(C)]).verify(oldToken)).to.equal(null);
    });

    it('an altered token verifies under no key', () => {
      const during = trackingTokensFor({ current: B, previous: [A] });
      const oldToken = trackingTokensFor({ current: A, previous: [] }).sign(target);
      const flipped = oldToken.slice(0, 40) + (oldToken[40] === 'A' ? 'B' : 'A') + oldToken.slice(41);
      expect(during.verify(flipped)).to.equal(null);
      expect(during.verify(oldToken.slice(1))).to.equal(null);
    });
  });

  describe('re-encrypting every site (vapid reencrypt)', function () {
    this.timeout(120_000);
    let pool: Pool;
    let drop: () => Promise<void>;
    const sites: { siteId: string; publicId: string; privateKey?: string; publicKey?: string }[] = [];
    const hooks: { id: string; secret: string; previous: string | null }[] = [];
    // Identity secrets too (people/identity-secret.ts): one under A in its rotation overlap, one under B.
    const identities: { siteId: string; secret: string; previous: string | null }[] = [];

    before(async () => {
      const db = await freshDatabase('key_rotation');
      drop = db.drop;
      pool = createPool(db.url, { max: 4 });
      await migrateDeliverySchema(pool);
      const underA = createDeliveryOperators(pool, A);
      const underB = createDeliveryOperators(pool, B);
      const underC = createDeliveryOperators(pool, C);
      const register = async (ops: typeof underA, label: string) => {
        const site = { siteId: randomUUID(), publicId: `pub_${label}_${sites.length}` };
        await ops.registerSite(site);
        sites.push(site);
        return site;
      };
      for (let i = 0; i < 3; i++) await register(underA, 'a');
      // Two rows in the legacy layout under A, as written before key ids existed.
      for (let i = 0; i < 2; i++) {
        const site = await register(underA, 'legacy');
        const { rows } = await pool.query('SELECT vapid_private_key_enc FROM delivery.sites WHERE site_id = $1', [site.siteId]);
        const privateKey = decryptVapidPrivateKey(rows[0].vapid_private_key_enc, site.siteId, A);
        await pool.query('UPDATE delivery.sites SET vapid_private_key_enc = $2 WHERE site_id = $1', [site.siteId, legacySeal(privateKey, site.siteId, A)]);
      }
      for (let i = 0; i < 2; i++) await register(underB, 'b');
      await register(underC, 'unknown');
      // Webhook signing secrets are sealed with the same keys: two endpoints under A (one with a
      // previous secret still in its rotation overlap), one already under B.
      for (const [site, key, withPrevious] of [[sites[0], A, true], [sites[1], A, false], [sites[5], B, false]] as const) {
        const id = randomUUID();
        const secret = newWebhookSecret();
        const previous = withPrevious ? newWebhookSecret() : null;
        hooks.push({ id, secret, previous });
        await pool.query(
          `INSERT INTO delivery.webhook_endpoints (id, site_id, url, events, secret_enc, previous_secret_enc, previous_secret_expires_at)
           VALUES ($1, $2, 'https://hooks.example.com/x', '{campaign.completed}', $3, $4, now() + interval '1 hour')`,
          [id, site.siteId, sealWebhookSecret(secret, id, key), previous === null ? null : sealWebhookSecret(previous, id, key)],
        );
      }
      for (const [site, key, withPrevious] of [[sites[2], A, true], [sites[6], B, false]] as const) {
        const secret = newIdentitySecret();
        const previous = withPrevious ? newIdentitySecret() : null;
        identities.push({ siteId: site.siteId, secret, previous });
        await pool.query(
          `INSERT INTO delivery.site_identity_secrets (site_id, secret_enc, previous_secret_enc, previous_secret_expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')`,
          [site.siteId, sealIdentitySecret(secret, site.siteId, key), previous === null ? null : sealIdentitySecret(previous, site.siteId, key)],
        );
      }
      const { rows } = await pool.query('SELECT site_id, vapid_public_key, vapid_private_key_enc FROM delivery.sites');
      for (const r of rows) {
        const site = sites.find((s) => s.siteId === r.site_id)!;
        site.publicKey = r.vapid_public_key;
        site.privateKey = decryptVapidPrivateKey(r.vapid_private_key_enc, r.site_id, { current: A, previous: [B, C] });
      }
    });
    after(async () => {
      await pool?.end();
      await drop?.();
    });

    it('re-encrypts the sites under previous keys (both layouts) in batches, counts those already current, lists those no known key opens, and changes no key pair', async () => {
      const progress: ReencryptCounts[] = [];
      const ops = createDeliveryOperators(pool, { current: B, previous: [A] });
      const result = await ops.reencryptVapidKeys({ batchSize: 3, onProgress: (c) => progress.push(c) });
      const unknown = sites.find((s) => s.publicId.startsWith('pub_unknown'))!;
      expect(result.reencrypted).to.equal(5);
      expect(result.alreadyCurrent).to.equal(2);
      expect(result.failed).to.deep.equal([
        { siteId: unknown.siteId, publicId: unknown.publicId, reason: `is encrypted with a key (id ${encryptionKeyFingerprint(C)}) that is neither VAPID_ENCRYPTION_KEY nor any VAPID_ENCRYPTION_KEY_PREVIOUS` },
      ]);
      expect(progress).to.have.length(3); // 8 sites in batches of 3
      expect(progress.at(-1)).to.deep.equal(result);
      expect(result.webhookSecretsReencrypted).to.equal(2);
      const stored = (await pool.query('SELECT id::text, secret_enc, previous_secret_enc FROM delivery.webhook_endpoints')).rows;
      for (const hook of hooks) {
        const row = stored.find((r) => r.id === hook.id)!;
        expect(openWebhookSecret(row.secret_enc, hook.id, B)).to.equal(hook.secret);
        if (hook.previous !== null) expect(openWebhookSecret(row.previous_secret_enc, hook.id, B)).to.equal(hook.previous);
      }
      expect(result.identitySecretsReencrypted).to.equal(1);
      const sealed = (await pool.query('SELECT site_id::text, secret_enc, previous_secret_enc FROM delivery.site_identity_secrets')).rows;
      for (const identity of identities) {
        const row = sealed.find((r) => r.site_id === identity.siteId)!;
        expect(openIdentitySecret(row.secret_enc, identity.siteId, B)).to.equal(identity.secret);
        if (identity.previous !== null) expect(openIdentitySecret(row.previous_secret_enc, identity.siteId, B)).to.equal(identity.previous);
      }

      const { rows } = await pool.query('SELECT site_id, vapid_public_key, vapid_private_key_enc FROM delivery.sites');
      expect(rows).to.have.length(sites.length);
      for (const r of rows) {
        const site = sites.find((s) => s.siteId === r.site_id)!;
        expect(r.vapid_public_key, site.publicId).to.equal(site.publicKey);
        if (site === unknown) {
          expect(decryptVapidPrivateKey(r.vapid_private_key_enc, r.site_id, C)).to.equal(site.privateKey);
          continue;
        }
        // B alone now opens every other row, to the same private key, which still matches the public key.
        expect(openVapidPrivateKey(r.vapid_private_key_enc, r.site_id, B), site.publicId).to.deep.equal({ privateKey: site.privateKey, current: true });
        const ecdh = createECDH('prime256v1');
        ecdh.setPrivateKey(Buffer.from(site.privateKey!, 'base64url'));
        expect(ecdh.getPublicKey().toString('base64url')).to.equal(site.publicKey);
      }
    });

    it('is idempotent: a second run re-encrypts nothing and still lists the undecryptable site', async () => {
      const before = (await pool.query('SELECT site_id, vapid_private_key_enc FROM delivery.sites ORDER BY site_id')).rows;
      const result = await createDeliveryOperators(pool, { current: B, previous: [A] }).reencryptVapidKeys();
      expect(result.reencrypted).to.equal(0);
      expect(result.webhookSecretsReencrypted).to.equal(0);
      expect(result.alreadyCurrent).to.equal(7);
      expect(result.failed).to.have.length(1);
      const after = (await pool.query('SELECT site_id, vapid_private_key_enc FROM delivery.sites ORDER BY site_id')).rows;
      expect(after).to.deep.equal(before);
    });

    it('once the missing key is given as a previous key, the last site is re-encrypted too', async () => {
      const result = await createDeliveryOperators(pool, { current: B, previous: [A, C] }).reencryptVapidKeys({ batchSize: 1 });
      expect(result).to.deep.equal({ reencrypted: 1, alreadyCurrent: 7, failed: [], webhookSecretsReencrypted: 0, identitySecretsReencrypted: 0 });
      const { rows } = await pool.query('SELECT site_id, vapid_private_key_enc FROM delivery.sites');
      for (const r of rows) expect(openVapidPrivateKey(r.vapid_private_key_enc, r.site_id, B).current).to.equal(true);
    });

    it('refuses a batch size out of range', async () => {
      const ops = createDeliveryOperators(pool, B);
      for (const batchSize of [0, -1, 1.5, 10_001]) {
        let thrown: unknown;
        await ops.reencryptVapidKeys({ batchSize }).catch((err) => (thrown = err));
        expect(thrown, String(batchSize)).to.be.instanceOf(DeliveryOperatorError);
      }
    });
  });
});
