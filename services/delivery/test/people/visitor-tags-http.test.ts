// Tags from the page over the plugin's HTTP endpoint (docs/people.md, "Tags from the page"):
// only the keys the operators allowed, only for an identified subscription, with the API's value
// rules and bound; every refusal a 4xx with a message that leaves the tags as they were.
import { expect } from 'chai';
import { identitySignature, TAG_MESSAGES, VISITOR_TAG_MESSAGES } from '../../src/people/index.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from '../support.js';

describe('delivery: tags from the page over HTTP', function () {
  this.timeout(120_000);
  let t: TestDelivery;
  let site: { siteId: string; publicId: string };
  let path: string;
  let endpoint: string;

  const tagsOf = async (externalId: string) =>
    Object.fromEntries(
      (
        await t.pool.query(
          `SELECT key, coalesce(string_value, number_value::text, boolean_value::text, date_value::text) AS v FROM delivery.person_tags g JOIN delivery.people p ON p.id = g.person_id WHERE p.site_id = $1 AND p.external_id = $2 ORDER BY key`,
          [site.siteId, externalId],
        )
      ).rows.map((r) => [r.key, r.v]),
    );

  before(async () => {
    t = await startTestDelivery('people_visitor_tags', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await newSite(t);
    path = `/public/v1/sites/${site.publicId}/tags`;
    const { secret } = await t.operators.identitySecret(site.siteId);
    endpoint = pushEndpoint();
    await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() } } });
    const identified = await request(t, 'POST', `/public/v1/sites/${site.publicId}/identity`, { body: { endpoint, externalId: 'gus', signature: identitySignature(secret, 'gus') } });
    expect(identified.body).to.deep.equal({ identified: true });
  });
  after(async () => {
    await t?.stop();
  });

  it('when the site allows no keys (the default), then every tag is refused (403) and nothing is stored', async () => {
    const res = await request(t, 'POST', path, { body: { endpoint, tags: { plan: 'gold' } } });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ message: `${VISITOR_TAG_MESSAGES.notVisitorTag}plan` });
    expect(await tagsOf('gus')).to.deep.equal({});
  });

  it('when the operators allow some keys, then those are set and removed for the identified visitor, the others refused all together, nothing half-written', async () => {
    expect(await t.operators.setVisitorTags(site.siteId, ['plan', 'lang', 'plan'])).to.deep.equal({ siteId: site.siteId, keys: ['lang', 'plan'] });
    const ok = await request(t, 'POST', path, { body: { endpoint, tags: { plan: 'gold', lang: 'pt' } } });
    expect(ok.status).to.equal(200);
    expect(ok.body).to.deep.equal({ tagged: true });
    expect(await tagsOf('gus')).to.deep.equal({ lang: 'pt', plan: 'gold' });
    const mixed = await request(t, 'POST', path, { body: { endpoint, tags: { plan: 'silver', vip: true, admin: true } } });
    expect(mixed.status).to.equal(403);
    expect(mixed.body).to.deep.equal({ message: `${VISITOR_TAG_MESSAGES.notVisitorTag}admin, vip` });
    const bad = await request(t, 'POST', path, { body: { endpoint, tags: { plan: 'x'.repeat(257) } } });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ message: TAG_MESSAGES.value });
    expect(await tagsOf('gus')).to.deep.equal({ lang: 'pt', plan: 'gold' });
    expect((await request(t, 'POST', path, { body: { endpoint, tags: { lang: null } } })).body).to.deep.equal({ tagged: true });
    expect(await tagsOf('gus')).to.deep.equal({ plan: 'gold' });
  });

  it('when the subscription belongs to nobody (unknown, logged out), then {tagged: false} and nothing is stored; bad keys and bodies are 400', async () => {
    await t.operators.setVisitorTags(site.siteId, ['plan']);
    expect((await request(t, 'POST', path, { body: { endpoint: pushEndpoint(), tags: { plan: 'a' } } })).body).to.deep.equal({ tagged: false });
    const other = pushEndpoint();
    await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: other, keys: browserKeys() } } });
    expect((await request(t, 'POST', path, { body: { endpoint: other, tags: { plan: 'a' } } })).body).to.deep.equal({ tagged: false });
    for (const body of [{ endpoint, tags: { Plan: 'a' } }, { endpoint, tags: [] }, { endpoint }, { tags: { plan: 'a' } }, { endpoint: 'a\u0000', tags: { plan: 'a' } }]) {
      const res = await request(t, 'POST', path, { body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.message).to.be.a('string');
    }
    expect(await tagsOf('gus')).to.deep.equal({ plan: 'gold' });
    let refused: unknown = null;
    await t.operators.setVisitorTags(site.siteId, ['Bad Key']).catch((err: unknown) => (refused = err));
    expect(String(refused)).to.contain('tag keys are 1 to 64 characters');
  });
});
