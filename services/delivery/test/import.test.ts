// Bringing a site over from another push provider (operators.ts, audience/import.ts): its VAPID
// key pair, adopted only before its first subscriber and campaign, and its subscriptions, each
// checked like a subscribe, imported idempotently on the endpoint, the refused ones reported
// by line and never stored.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { DeliveryOperatorError } from '../src/errors.js';
import { IMPORT_BATCH_ROWS, IMPORT_MESSAGES, MAX_LISTED_REFUSALS } from '../src/audience/import.js';
import { MESSAGES } from '../src/audience/subscription-input.js';
import { decryptVapidPrivateKey, generateVapidKeyPair } from '../src/sites/vapid-keys.js';
import { browserKeys, countAudience, listCountries, newSite, pushEndpoint, startTestDelivery, type TestDelivery } from './support.js';

// generateVapidKeyPair pads the private key to 32 bytes (a raw ECDH key has 31 once in 256).
const keyPair = generateVapidKeyPair;

/** RFC 3339 texts at the edges of what Postgres stores: years 0000, 0001 and 9999, with offsets that cross them. */
const edgeDateTime = fc
  .tuple(fc.constantFrom('0000', '0001', '9999'), fc.constantFrom('01-01T00:00:00', '01-01T00:30:00', '12-31T23:59:59'), fc.constantFrom('Z', '+01:00', '-01:00', '+00:00'))
  .map(([year, rest, zone]) => `${year}-${rest}${zone}`);

const line = (extra: Record<string, unknown> = {}) => JSON.stringify({ endpoint: pushEndpoint(), keys: browserKeys(), ...extra });

describe('delivery: importing a site from another provider', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('import');
  });
  after(async () => {
    await t?.stop();
  });

  const rowsOf = async (siteId: string) => Number((await t.pool.query('SELECT count(*) AS n FROM delivery.subscribers WHERE site_id = $1', [siteId])).rows[0].n);

  describe('the VAPID key pair', () => {
    it('is adopted before the first subscriber, stored encrypted, and importing it again changes nothing', async () => {
      const site = await newSite(t);
      const pair = keyPair();
      expect(await t.operators.importVapidKeys({ siteId: site.siteId, ...pair })).to.deep.equal({ vapidPublicKey: pair.publicKey, changed: true });
      const { rows } = await t.pool.query('SELECT vapid_public_key, vapid_private_key_enc FROM delivery.sites WHERE site_id = $1', [site.siteId]);
      expect(rows[0].vapid_public_key).to.equal(pair.publicKey);
      expect(Buffer.from(rows[0].vapid_private_key_enc).includes(Buffer.from(pair.privateKey, 'base64url'))).to.equal(false);
      expect(decryptVapidPrivateKey(rows[0].vapid_private_key_enc, site.siteId, t.config.vapidEncryptionKey)).to.equal(pair.privateKey);
      expect(await t.operators.importVapidKeys({ siteId: site.siteId, ...pair })).to.deep.equal({ vapidPublicKey: pair.publicKey, changed: false });
    });

    it('is refused once the site has a subscriber, and the site keeps its key', async () => {
      const site = await newSite(t);
      const before = (await t.pool.query('SELECT vapid_public_key FROM delivery.sites WHERE site_id = $1', [site.siteId])).rows[0].vapid_public_key;
      await t.operators.importSubscriptions({ siteId: site.siteId, lines: [line()] });
      const err = await t.operators.importVapidKeys({ siteId: site.siteId, ...keyPair() }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(DeliveryOperatorError);
      expect((err as Error).message).to.include('before the first subscriber and the first campaign');
      expect((await t.pool.query('SELECT vapid_public_key FROM delivery.sites WHERE site_id = $1', [site.siteId])).rows[0].vapid_public_key).to.equal(before);
    });

    it('is refused when the keys are malformed or do not belong together', async () => {
      const site = await newSite(t);
      const a = keyPair();
      const b = keyPair();
      const cases: [Record<string, unknown>, string][] = [
        [{ publicKey: a.publicKey, privateKey: b.privateKey }, 'publicKey must be the public key of privateKey'],
        [{ publicKey: a.publicKey.slice(0, 40), privateKey: a.privateKey }, 'publicKey must be an uncompressed P-256 public key'],
        [{ publicKey: a.publicKey, privateKey: 'not base64url!' }, 'privateKey must be 32 bytes'],
        [{ publicKey: a.publicKey, privateKey: Buffer.alloc(32, 0xff).toString('base64url') }, 'privateKey must be a P-256 private key'],
        [{ publicKey: 42, privateKey: null }, 'publicKey must be an uncompressed P-256 public key'],
      ];
      for (const [pair, reason] of cases) {
        const err = await t.operators.importVapidKeys({ siteId: site.siteId, ...(pair as { publicKey: string; privateKey: string }) }).catch((e: unknown) => e);
        expect(err, JSON.stringify(pair)).to.be.instanceOf(DeliveryOperatorError);
        expect((err as Error).message).to.include(reason);
      }
    });
  });

  describe('subscriptions', () => {
    it('are imported with their topics, country and creation time, in batches, and a second import finds them all there', async () => {
      const site = await newSite(t);
      const count = IMPORT_BATCH_ROWS + 250;
      const lines = Array.from({ length: count }, (_, i) => line({ topics: [i % 2 ? 'News' : 'sports'], country: 'br', createdAt: '2024-02-29T10:00:00.5+02:00' }));
      const progress: number[] = [];
      const first = await t.operators.importSubscriptions({ siteId: site.siteId, lines, onProgress: (r) => progress.push(r.imported) });
      expect(first).to.deep.equal({ read: count, imported: count, existing: 0, refused: 0, refusals: [] });
      expect(progress).to.deep.equal([IMPORT_BATCH_ROWS, count]);
      expect(await countAudience(t, site.siteId, ['news', 'sports'], [])).to.equal(count);
      expect(await listCountries(t, site.siteId)).to.deep.equal([{ name: 'country__br', users: count }]);
      const { rows } = await t.pool.query(`SELECT DISTINCT created_at FROM delivery.subscribers WHERE site_id = $1`, [site.siteId]);
      expect(rows.map((r) => (r.created_at as Date).toISOString())).to.deep.equal(['2024-02-29T08:00:00.500Z']);
      const again = await t.operators.importSubscriptions({ siteId: site.siteId, lines });
      expect(again).to.deep.equal({ read: count, imported: 0, existing: count, refused: 0, refusals: [] });
      expect(await rowsOf(site.siteId)).to.equal(count);
    });

    it('refuse each bad line with its line number and the reason, store none of them, and import the rest', async () => {
      const site = await newSite(t);
      const good = line();
      const lines = [
        good,
        '',
        '{not json',
        '[1, 2]',
        line({ endpoint: 'http://evil.example/push/1' }),
        JSON.stringify({ endpoint: pushEndpoint(), keys: { p256dh: browserKeys().p256dh.slice(0, 50), auth: randomBytes(16).toString('base64url') } }),
        JSON.stringify({ endpoint: pushEndpoint(), keys: { p256dh: browserKeys().p256dh, auth: randomBytes(8).toString('base64url') } }),
        line({ country: 'Brazil' }),
        line({ createdAt: '2026-02-30T00:00:00Z' }),
        line({ createdAt: '2999-01-01T00:00:00Z' }),
        line({ topics: ['country__br'] }),
        good,
      ];
      const report = await t.operators.importSubscriptions({ siteId: site.siteId, lines });
      expect(report.read).to.equal(11);
      expect(report.imported).to.equal(1);
      expect(report.existing).to.equal(1); // the repeated line
      expect(report.refused).to.equal(9);
      expect(report.refusals).to.deep.equal([
        { line: 3, reason: IMPORT_MESSAGES.invalidJson },
        { line: 4, reason: IMPORT_MESSAGES.notObject },
        { line: 5, reason: MESSAGES.endpoint },
        { line: 6, reason: MESSAGES.p256dh },
        { line: 7, reason: MESSAGES.auth },
        { line: 8, reason: IMPORT_MESSAGES.country },
        { line: 9, reason: IMPORT_MESSAGES.createdAt },
        { line: 10, reason: IMPORT_MESSAGES.createdAt },
        { line: 11, reason: MESSAGES.topicPrefix },
      ]);
      expect(await rowsOf(site.siteId)).to.equal(1);
    });

    it('refuse a createdAt before year 1 (RFC 3339 allows year 0000; Postgres has no year 0) with the reason, and take year 1', async () => {
      const site = await newSite(t);
      const lines = [line({ createdAt: '0000-01-01T00:00:00Z' }), line({ createdAt: '0001-01-01T00:30:00+01:00' }), line({ createdAt: '0001-01-01T00:00:00Z' })];
      const report = await t.operators.importSubscriptions({ siteId: site.siteId, lines });
      expect(report.refusals).to.deep.equal([
        { line: 1, reason: IMPORT_MESSAGES.createdAt },
        { line: 2, reason: IMPORT_MESSAGES.createdAt },
      ]);
      expect(report.imported).to.equal(1);
      const { rows } = await t.pool.query("SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM delivery.subscribers WHERE site_id = $1", [site.siteId]);
      expect(rows).to.deep.equal([{ day: '0001-01-01' }]);
    });

    it(`list at most ${MAX_LISTED_REFUSALS} refusals and count the rest`, async () => {
      const site = await newSite(t);
      const report = await t.operators.importSubscriptions({ siteId: site.siteId, lines: Array.from({ length: MAX_LISTED_REFUSALS + 5 }, () => '{}') });
      expect(report.refused).to.equal(MAX_LISTED_REFUSALS + 5);
      expect(report.refusals).to.have.length(MAX_LISTED_REFUSALS);
    });

    it('whatever a line holds, it is imported or refused with a reason: no exception, nothing stored for a refusal', async () => {
      const site = await newSite(t);
      const hostile = fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.json({ maxDepth: 3 }),
        fc.record(
          {
            endpoint: fc.oneof(fc.string({ maxLength: 100 }), fc.constant(pushEndpoint()), fc.webUrl()),
            keys: fc.oneof(fc.constant(browserKeys()), fc.record({ p256dh: fc.string(), auth: fc.string() }), fc.anything()),
            topics: fc.oneof(fc.array(fc.string({ maxLength: 70 }), { maxLength: 25 }), fc.anything()),
            country: fc.oneof(fc.string({ maxLength: 4 }), fc.anything()),
            createdAt: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), edgeDateTime, fc.string(), fc.anything()),
          },
          { requiredKeys: [] },
        ).map((r) => JSON.stringify(r) ?? 'null'),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 20 }), async (lines) => {
          const before = await rowsOf(site.siteId);
          const report = await t.operators.importSubscriptions({ siteId: site.siteId, lines });
          expect(report.read).to.equal(lines.filter((l) => l.trim() !== '').length);
          expect(report.imported + report.existing + report.refused).to.equal(report.read);
          for (const r of report.refusals) expect(r.reason).to.be.a('string').and.not.equal('');
          expect(await rowsOf(site.siteId)).to.equal(before + report.imported);
        }),
        { numRuns: 60 },
      );
    });

    it('are refused as a whole for a site that is not registered', async () => {
      const err = await t.operators.importSubscriptions({ siteId: '00000000-0000-4000-8000-000000000000', lines: [line()] }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(DeliveryOperatorError);
    });
  });
});
