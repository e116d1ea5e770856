// The Audience gRPC service over a real connection: lists, order, site isolation, odd ids.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { countAudience, listCountries, listTopics, newSite, startTestDelivery, type TestDelivery } from './support.js';

describe('delivery: Audience gRPC', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteA: { siteId: string; publicId: string };
  let siteB: { siteId: string; publicId: string };

  async function insert(siteId: string, country: string, topics: string[], n: number, active = true): Promise<void> {
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, active)
       SELECT $1, 'https://127.0.0.1/' || gen_random_uuid(), 'k', 'a', $2, $3, $5 FROM generate_series(1, $4)`,
      [siteId, country, topics, n, active],
    );
  }

  before(async () => {
    t = await startTestDelivery('audience_grpc');
    siteA = await newSite(t);
    siteB = await newSite(t);
    await insert(siteA.siteId, 'country__br', ['sport', 'news'], 5);
    await insert(siteA.siteId, 'country__us', ['news'], 3);
    await insert(siteA.siteId, 'country__desconhecido', ['tech'], 3);
    await insert(siteA.siteId, 'country__ar', ['gone'], 4, false);
    await insert(siteB.siteId, 'country__pt', ['cooking'], 7);
  });
  after(async () => {
    await t?.stop();
  });

  it('ListTopics answers topics with active subscribers, most users first, ties by name', async () => {
    expect(await listTopics(t, siteA.siteId)).to.deep.equal([
      { name: 'news', users: 8 },
      { name: 'sport', users: 5 },
      { name: 'tech', users: 3 },
    ]);
  });

  it('ListCountries answers country__ names only, including country__desconhecido, in the same order', async () => {
    expect(await listCountries(t, siteA.siteId)).to.deep.equal([
      { name: 'country__br', users: 5 },
      { name: 'country__desconhecido', users: 3 },
      { name: 'country__us', users: 3 },
    ]);
  });

  it('each site sees only its own names and counts', async () => {
    expect(await listTopics(t, siteB.siteId)).to.deep.equal([{ name: 'cooking', users: 7 }]);
    expect(await listCountries(t, siteB.siteId)).to.deep.equal([{ name: 'country__pt', users: 7 }]);
    expect(await countAudience(t, siteB.siteId, ['news', 'sport'], ['country__br'])).to.equal(0);
    expect(await countAudience(t, siteA.siteId, ['cooking'], ['country__pt'])).to.equal(0);
  });

  it('CountAudience counts the union of topics and countries once per subscriber', async () => {
    expect(await countAudience(t, siteA.siteId, ['news'], ['country__br'])).to.equal(8);
    expect(await countAudience(t, siteA.siteId, ['tech'], ['country__us'])).to.equal(6);
    expect(await countAudience(t, siteA.siteId, ['gone'], ['country__ar'])).to.equal(0, 'inactive subscribers are not counted');
  });

  it('an unknown or malformed site id answers empty lists and zero, never an error', async () => {
    for (const siteId of [randomUUID(), 'not-a-uuid', '']) {
      expect(await listTopics(t, siteId)).to.deep.equal([]);
      expect(await listCountries(t, siteId)).to.deep.equal([]);
      expect(await countAudience(t, siteId, ['news'], ['country__br'])).to.equal(0);
    }
  });
});
