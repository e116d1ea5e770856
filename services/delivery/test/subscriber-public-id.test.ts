// Anonymous answers name a subscriber only by an opaque id: a random UUID that reveals neither
// how many subscribers there are nor the order in which they came.
import { expect } from 'chai';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from './support.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('delivery: opaque subscriber ids', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let site: { siteId: string; publicId: string };
  let path: string;

  before(async () => {
    t = await startTestDelivery('subscriber_public_id', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await newSite(t);
    path = `/public/v1/sites/${site.publicId}/subscriptions`;
  });
  after(async () => t?.stop());

  const subscribe = async (endpoint = pushEndpoint()) => {
    const res = await request(t, 'POST', path, { body: { subscription: { endpoint, keys: browserKeys() } } });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    return { endpoint, id: res.body.id as string, created: res.body.created as boolean };
  };
  const internalId = async (endpoint: string) =>
    (await t.pool.query('SELECT id::text AS id FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0].id as string;

  it('when two browsers subscribe one after the other, then their ids are unrelated random UUIDs, not the sequence', async () => {
    const a = await subscribe();
    const b = await subscribe();
    for (const s of [a, b]) {
      expect(s.id).to.match(UUID_V4);
      expect(s.id).to.not.match(/^\d+$/);
      expect(BigInt('0x' + s.id.replace(/-/g, ''))).to.not.equal(BigInt(await internalId(s.endpoint)));
    }
    expect(a.id).to.not.equal(b.id);
    // Consecutive internal ids (n, n+1) must not show through as a small difference.
    const asNumber = (id: string) => BigInt('0x' + id.replace(/-/g, ''));
    const gap = asNumber(a.id) > asNumber(b.id) ? asNumber(a.id) - asNumber(b.id) : asNumber(b.id) - asNumber(a.id);
    expect(gap > 2n ** 64n).to.equal(true);
  });

  it('when 20 browsers subscribe in turn, then the ids do not sort in the order they came', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await subscribe()).id);
    expect(new Set(ids).size).to.equal(20);
    expect([...ids].sort()).to.not.deep.equal(ids); // a 1 in 20! chance of a false failure
  });

  it('when the same browser subscribes again, then it keeps its id', async () => {
    const first = await subscribe();
    const again = await subscribe(first.endpoint);
    expect(again).to.deep.equal({ ...first, created: false });
  });

  it('when a subscriber stored before public ids existed subscribes again, then it gets one and keeps it', async () => {
    const old = await subscribe();
    await t.pool.query('UPDATE delivery.subscribers SET public_id = NULL WHERE endpoint = $1', [old.endpoint]);
    const refreshed = await subscribe(old.endpoint);
    expect(refreshed.id).to.match(UUID_V4);
    expect(refreshed.created).to.equal(false);
    expect((await subscribe(old.endpoint)).id).to.equal(refreshed.id);
  });

  it('when the plugin reports a page view, a subscription change or an unsubscribe, then the answer carries no id at all', async () => {
    const a = await subscribe();
    const b = await subscribe();
    const answers = [
      await request(t, 'POST', `/public/v1/sites/${site.publicId}/pageviews`, { body: { endpoint: a.endpoint, topics: ['news'] } }),
      await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscription-changes`, { body: { oldEndpoint: a.endpoint, endpoint: b.endpoint } }),
      await request(t, 'DELETE', path, { body: { endpoint: b.endpoint } }),
    ];
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    expect(answers.map((r) => r.body)).to.deep.equal([{ updated: true }, { replaced: true }, { deactivated: true }]);
  });
});
