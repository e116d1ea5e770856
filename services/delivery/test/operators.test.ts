// Operator actions: site registration with encrypted VAPID keys, bulk seeding.
import { expect } from 'chai';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import webpush from 'web-push';
import { DeliveryOperatorError } from '../src/errors.js';
import { decryptVapidPrivateKey } from '../src/sites/vapid-keys.js';
import {
  bruteForceGroups,
  bruteForceNames,
  bruteForceUnion,
  countAudience,
  listCountries,
  listTopics,
  newSite,
  sortedEntries,
  startTestDelivery,
  storedGroups,
  storedNames,
  type TestDelivery,
} from './support.js';

describe('delivery: operators', function () {
  this.timeout(180_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('operators');
  });
  after(async () => {
    await t?.stop();
  });

  it('registerSite stores a VAPID key pair whose private key is encrypted, not in plaintext, and decryptable with the key', async () => {
    const siteId = randomUUID();
    const { vapidPublicKey } = await t.operators.registerSite({ siteId, publicId: 'pub_vapidtest' });
    expect(Buffer.from(vapidPublicKey, 'base64url')).to.have.length(65);
    const { rows } = await t.pool.query('SELECT * FROM delivery.sites WHERE site_id = $1', [siteId]);
    const sealed: Buffer = rows[0].vapid_private_key_enc;
    const privateKey = decryptVapidPrivateKey(sealed, siteId, t.config.vapidEncryptionKey);
    const raw = Buffer.from(privateKey, 'base64url');
    expect(raw).to.have.length(32);
    expect(sealed.includes(raw), 'raw private key bytes absent').to.equal(false);
    expect(sealed.toString('latin1').includes(privateKey), 'base64url private key absent').to.equal(false);
    expect(JSON.stringify(rows[0])).to.not.include(privateKey);
    // The decrypted private key is the partner of the stored public key.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(raw);
    expect(ecdh.getPublicKey().toString('base64url')).to.equal(vapidPublicKey);
    // web-push accepts the pair for signing.
    const headers = webpush.getVapidHeaders('https://127.0.0.1', 'mailto:push@localhost', vapidPublicKey, privateKey, 'aes128gcm');
    expect(headers.Authorization).to.match(/^vapid t=/);
    expect(() => decryptVapidPrivateKey(sealed, siteId, randomBytes(32)), 'another key fails').to.throw();
    expect(() => decryptVapidPrivateKey(sealed, randomUUID(), t.config.vapidEncryptionKey), 'another site fails').to.throw();
  });

  it('registerSite is idempotent: the same site keeps its key; a public id of another site is refused', async () => {
    const siteId = randomUUID();
    const first = await t.operators.registerSite({ siteId, publicId: 'pub_idem' });
    const again = await t.operators.registerSite({ siteId, publicId: 'pub_idem' });
    expect(again).to.deep.equal(first);
    await expectRejected(t.operators.registerSite({ siteId: randomUUID(), publicId: 'pub_idem' }), /already belongs to another site/);
    await expectRejected(t.operators.registerSite({ siteId, publicId: 'pub_other' }), /already registered/);
    await expectRejected(t.operators.registerSite({ siteId: 'nope', publicId: 'pub_x' }), /not a UUID/);
  });

  it('seedSubscribers refuses an unregistered site and bad names with a clear message', async () => {
    await expectRejected(t.operators.seedSubscribers({ siteId: randomUUID(), count: 1, topics: ['a'], countries: ['br'] }), /not registered/);
    const { siteId } = await newSite(t);
    await expectRejected(t.operators.seedSubscribers({ siteId, count: 1, topics: [''], countries: ['br'] }), /not a valid topic/);
    await expectRejected(t.operators.seedSubscribers({ siteId, count: -1, topics: ['a'], countries: ['br'] }), /count must be/);
  });

  it('seedSubscribers inserts 20,000 subscribers in batches and the counters match a brute-force count', async () => {
    const { siteId } = await newSite(t);
    const progress: number[] = [];
    const started = process.hrtime.bigint();
    const result = await t.operators.seedSubscribers({
      siteId,
      count: 20_000,
      topics: ['Sport', 'news', 'tech', 'cooking', 'travel'],
      countries: ['BR', 'country__us', 'pt', 'country__desconhecido'],
      topicsPerSubscriber: 2,
      onProgress: (done, total) => {
        expect(total).to.equal(20_000);
        progress.push(done);
      },
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`      seeded 20000 subscribers in ${seconds.toFixed(2)} s: ${Math.round(20_000 / seconds)} rows/s`);
    expect(result).to.deep.equal({ inserted: 20_000 });
    expect(progress).to.have.length(4);
    expect(progress.at(-1)).to.equal(20_000);

    expect(sortedEntries(await storedNames(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceNames(t.pool, siteId)));
    expect(sortedEntries(await storedGroups(t.pool, siteId))).to.deep.equal(sortedEntries(await bruteForceGroups(t.pool, siteId)));
    const topics = await listTopics(t, siteId);
    expect(topics.map((e) => e.name).sort()).to.deep.equal(['cooking', 'news', 'sport', 'tech', 'travel']);
    expect(topics.reduce((sum, e) => sum + e.users, 0)).to.equal(40_000, 'two distinct topics each');
    const countries = await listCountries(t, siteId);
    expect(countries.map((e) => e.name).sort()).to.deep.equal(['country__br', 'country__desconhecido', 'country__pt', 'country__us']);
    expect(countries.reduce((sum, e) => sum + e.users, 0)).to.equal(20_000);
    expect(await countAudience(t, siteId, ['sport', 'news'], ['country__pt'])).to.equal(await bruteForceUnion(t.pool, siteId, ['sport', 'news'], ['country__pt']));

    const { rows } = await t.pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT p256dh)::int AS keys, bool_and(endpoint LIKE 'https://seed.push.invalid/%') AS base,
              bool_and(length(decode(translate(auth, '-_', '+/') || '==', 'base64')) = 16) AS auth16
         FROM delivery.subscribers WHERE site_id = $1`,
      [siteId],
    );
    expect(rows[0]).to.deep.equal({ n: 20_000, keys: 64, base: true, auth16: true });
  });

  it('seedSubscribers uses the endpoint base given and accepts more topics per subscriber than topics exist', async () => {
    const { siteId } = await newSite(t);
    await t.operators.seedSubscribers({ siteId, count: 10, topics: ['a'], countries: [], topicsPerSubscriber: 3, endpointBase: 'https://127.0.0.1:9999/push/' });
    const { rows } = await t.pool.query('SELECT endpoint, topics, country FROM delivery.subscribers WHERE site_id = $1', [siteId]);
    expect(rows).to.have.length(10);
    for (const r of rows) {
      expect(r.endpoint.startsWith('https://127.0.0.1:9999/push/')).to.equal(true);
      expect(r).to.deep.include({ topics: ['a'], country: 'country__desconhecido' });
    }
  });
});

async function expectRejected(p: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(DeliveryOperatorError);
    expect((err as Error).message).to.match(message);
    return;
  }
  expect.fail('expected a rejection');
}
