// Identified subscribers over the plugin's HTTP endpoints (docs/people.md): the site's identity
// secret, identify and logout, a re-identify that moves the subscription, rotation with overlap,
// the link carried over a pushsubscriptionchange, the resolution a notification to a person
// uses. Every refusal is a 4xx with a message and leaves people and links as they were.
import { expect } from 'chai';
import fc from 'fast-check';
import { activeSubscriptionsOfPeople, identitySignature, IDENTITY_MESSAGES } from '../../src/people/index.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from '../support.js';

describe('delivery: identify and logout over HTTP', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('people_identity', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
  });
  after(async () => {
    await t?.stop();
  });

  /** What identify and logout may write, for "nothing stored" checks. */
  const stored = async () => (await t.pool.query(`SELECT (SELECT count(*) FROM delivery.people)::int AS people, (SELECT count(*) FROM delivery.person_subscriptions)::int AS links, (SELECT coalesce(string_agg(subscriber_id || ':' || person_id, ',' ORDER BY subscriber_id), '') FROM delivery.person_subscriptions) AS pairs`)).rows[0];

  async function subscribed(publicId: string): Promise<string> {
    const endpoint = pushEndpoint();
    const res = await request(t, 'POST', `/public/v1/sites/${publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() } } });
    expect(res.status).to.equal(201);
    return endpoint;
  }

  async function siteWithSecret() {
    const site = await newSite(t);
    const { secret } = await t.operators.identitySecret(site.siteId);
    return { ...site, secret, path: `/public/v1/sites/${site.publicId}/identity` };
  }

  const personOf = async (endpoint: string) =>
    (
      await t.pool.query(
        `SELECT p.external_id FROM delivery.subscribers s JOIN delivery.person_subscriptions l ON l.subscriber_id = s.id JOIN delivery.people p ON p.id = l.person_id WHERE s.endpoint = $1`,
        [endpoint],
      )
    ).rows.map((r) => r.external_id as string);

  it('when a site has no identity secret, then identify is refused (403) and nothing is stored; the operators make one on first asking, the same one after', async () => {
    const site = await newSite(t);
    const endpoint = await subscribed(site.publicId);
    const before = await stored();
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/identity`, { body: { endpoint, externalId: 'u1', signature: '0'.repeat(64) } });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ message: IDENTITY_MESSAGES.noSecret });
    expect(await stored()).to.deep.equal(before);
    const first = await t.operators.identitySecret(site.siteId);
    expect(first.created).to.equal(true);
    expect(first.secret).to.match(/^wpid_[A-Za-z0-9_-]{43}$/);
    expect(await t.operators.identitySecret(site.siteId)).to.deep.equal({ ...first, created: false });
    const sealed = (await t.pool.query('SELECT secret_enc FROM delivery.site_identity_secrets WHERE site_id = $1', [site.siteId])).rows[0].secret_enc as Buffer;
    expect(sealed.toString('latin1')).not.to.contain(first.secret.slice(5, 20)); // stored sealed, never in the clear
  });

  it('when the signature checks out, then the subscription belongs to the person (made on first use); again changes nothing; upper-case hex is the same signature', async () => {
    const site = await siteWithSecret();
    const endpoint = await subscribed(site.publicId);
    const signature = identitySignature(site.secret, 'user-123');
    const res = await request(t, 'POST', site.path, { body: { endpoint, externalId: 'user-123', signature } });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ identified: true });
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(await personOf(endpoint)).to.deep.equal(['user-123']);
    const after = await stored();
    expect((await request(t, 'POST', site.path, { body: { endpoint, externalId: 'user-123', signature: signature.toUpperCase() } })).body).to.deep.equal({ identified: true });
    expect(await stored()).to.deep.equal(after);
  });

  it('when the signature is wrong (another id\'s, another site\'s secret, one digit off), then 403 and nothing is stored', async () => {
    const site = await siteWithSecret();
    const other = await siteWithSecret();
    const endpoint = await subscribed(site.publicId);
    const before = await stored();
    const good = identitySignature(site.secret, 'alice');
    const wrong = [
      { externalId: 'alice', signature: identitySignature(site.secret, 'bob') },
      { externalId: 'alice', signature: identitySignature(other.secret, 'alice') },
      { externalId: 'alice', signature: (good[0] === '0' ? '1' : '0') + good.slice(1) },
      { externalId: 'alice ', signature: good },
    ];
    for (const body of wrong) {
      const res = await request(t, 'POST', site.path, { body: { endpoint, ...body } });
      expect(res.status, JSON.stringify(body)).to.equal(403);
      expect(res.body).to.deep.equal({ message: IDENTITY_MESSAGES.badSignature });
    }
    expect(await stored()).to.deep.equal(before);
  });

  it('when no active subscription has the endpoint (unknown, another site\'s, unsubscribed), then {identified: false} and no person is made', async () => {
    const site = await siteWithSecret();
    const other = await siteWithSecret();
    const theirs = await subscribed(other.publicId);
    const gone = await subscribed(site.publicId);
    expect((await request(t, 'DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: gone } })).status).to.equal(200);
    const before = await stored();
    for (const endpoint of [pushEndpoint(), theirs, gone]) {
      const res = await request(t, 'POST', site.path, { body: { endpoint, externalId: 'carol', signature: identitySignature(site.secret, 'carol') } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ identified: false });
    }
    expect(await stored()).to.deep.equal(before);
  });

  it('when a subscription is identified as another person, then it moves (at most one person); one person has many subscriptions; logout unlinks; the resolution finds only active subscriptions of the site', async () => {
    const site = await siteWithSecret();
    const other = await siteWithSecret();
    const [phone, laptop, shared] = [await subscribed(site.publicId), await subscribed(site.publicId), await subscribed(site.publicId)];
    const theirs = await subscribed(other.publicId);
    const identify = (s: typeof site, endpoint: string, id: string) => request(t, 'POST', s.path, { body: { endpoint, externalId: id, signature: identitySignature(s.secret, id) } });
    for (const endpoint of [phone, laptop, shared]) expect((await identify(site, endpoint, 'dana')).body).to.deep.equal({ identified: true });
    expect((await identify(other, theirs, 'dana')).body, 'the same id at another site is another person').to.deep.equal({ identified: true });
    expect((await identify(site, shared, 'erin')).body).to.deep.equal({ identified: true });
    expect(await personOf(shared)).to.deep.equal(['erin']);

    const ids = async (s: { siteId: string }, people: string[]) => {
      const found = await activeSubscriptionsOfPeople(t.pool, s.siteId, people);
      const { rows } = await t.pool.query('SELECT id::text AS id, endpoint FROM delivery.subscribers WHERE id = ANY($1::bigint[])', [found.map((f) => f.subscriberId)]);
      const endpointOf = new Map(rows.map((r) => [r.id, r.endpoint]));
      return found.map((f) => `${f.externalId} ${endpointOf.get(f.subscriberId)}`).sort();
    };
    expect(await ids(site, ['dana', 'erin', 'nobody'])).to.deep.equal([`dana ${phone}`, `dana ${laptop}`, `erin ${shared}`].sort());
    expect(await ids(other, ['dana', 'erin'])).to.deep.equal([`dana ${theirs}`]);

    expect((await request(t, 'DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: laptop } })).status).to.equal(200);
    expect(await ids(site, ['dana'])).to.deep.equal([`dana ${phone}`]);

    const logout = await request(t, 'DELETE', site.path, { body: { endpoint: phone } });
    expect(logout.status).to.equal(200);
    expect(logout.body).to.deep.equal({ unlinked: true });
    expect((await request(t, 'DELETE', site.path, { body: { endpoint: phone } })).body).to.deep.equal({ unlinked: false });
    expect((await request(t, 'DELETE', site.path, { body: { endpoint: theirs } })).body, 'another site\'s subscription').to.deep.equal({ unlinked: false });
    expect(await ids(site, ['dana'])).to.deep.equal([]);
    expect(await ids(other, ['dana'])).to.deep.equal([`dana ${theirs}`]);
  });

  it('when the secret is rotated, then the previous one is accepted during the overlap only, and not at all with no overlap', async () => {
    const site = await siteWithSecret();
    const endpoint = await subscribed(site.publicId);
    const signed = (secret: string) => ({ endpoint, externalId: 'frank', signature: identitySignature(secret, 'frank') });
    const rotated = await t.operators.rotateIdentitySecret(site.siteId, 24);
    expect(rotated.secret).to.not.equal(site.secret);
    expect((await request(t, 'POST', site.path, { body: signed(site.secret) })).status).to.equal(200);
    expect((await request(t, 'POST', site.path, { body: signed(rotated.secret) })).status).to.equal(200);
    await t.pool.query(`UPDATE delivery.site_identity_secrets SET previous_secret_expires_at = now() - interval '1 second' WHERE site_id = $1`, [site.siteId]);
    expect((await request(t, 'POST', site.path, { body: signed(site.secret) })).status, 'after the overlap').to.equal(403);
    const again = await t.operators.rotateIdentitySecret(site.siteId, 0);
    expect((await request(t, 'POST', site.path, { body: signed(rotated.secret) })).status).to.equal(403);
    expect((await request(t, 'POST', site.path, { body: signed(again.secret) })).status).to.equal(200);
    for (const hours of [-1, 169, 1.5, Number.NaN]) {
      let refused: unknown = null;
      await t.operators.rotateIdentitySecret(site.siteId, hours).catch((err: unknown) => (refused = err));
      expect(String(refused)).to.contain('overlap');
    }
    expect((await request(t, 'POST', site.path, { body: signed(again.secret) })).status, 'a refused rotation changed nothing').to.equal(200);
  });

  it('when the browser replaces its subscription (pushsubscriptionchange), then the new one belongs to the same person', async () => {
    const site = await siteWithSecret();
    const oldEndpoint = await subscribed(site.publicId);
    await request(t, 'POST', site.path, { body: { endpoint: oldEndpoint, externalId: 'gina', signature: identitySignature(site.secret, 'gina') } });
    const endpoint = await subscribed(site.publicId);
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscription-changes`, { body: { oldEndpoint, endpoint } });
    expect(res.body).to.deep.equal({ replaced: true });
    expect(await personOf(endpoint)).to.deep.equal(['gina']);
    expect((await activeSubscriptionsOfPeople(t.pool, site.siteId, ['gina'])).length).to.equal(1);
  });

  it('when anything is hostile (ids, signatures, endpoints, bodies), then a 4xx with a message, never a 5xx, and nothing stored', async () => {
    const site = await siteWithSecret();
    const endpoint = await subscribed(site.publicId);
    const before = await stored();
    const hostileText = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('', '\u0000', 'a\u0000b', '\ud800', 'x'.repeat(129), '\u0007bell', 'tab\there', '\u0085', '😀'.repeat(129)),
    );
    const value = fc.oneof(hostileText, fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }));
    await fc.assert(
      fc.asyncProperty(fc.record({ endpoint: fc.oneof(fc.constant(endpoint), value), externalId: value, signature: fc.oneof(value, fc.stringMatching(/^[0-9a-f]{64}$/)) }, { requiredKeys: [] }), async (body) => {
        for (const method of ['POST', 'DELETE']) {
          const res = await request(t, method, site.path, { body });
          expect(res.status, `${method} ${JSON.stringify(body)}`).to.be.oneOf(method === 'POST' ? [400, 403] : [200, 400]);
          if (res.status !== 200) expect(res.body.message).to.be.a('string').and.not.equal('');
        }
      }),
      { numRuns: 60 },
    );
    for (const raw of ['', 'null', '[]', '"x"', '{', '{"endpoint":']) {
      const res = await request(t, 'POST', site.path, { raw });
      expect(res.status, raw).to.equal(400);
    }
    const unknownSite = await request(t, 'POST', '/public/v1/sites/pub_nope/identity', { body: { endpoint, externalId: 'a', signature: identitySignature(site.secret, 'a') } });
    expect(unknownSite.status).to.equal(404);
    // DELETE with the real endpoint unlinks nothing here: nothing was linked.
    expect(await stored()).to.deep.equal(before);
  });

  it('when an id is at the bounds (128 characters, emoji, spaces inside), then it is taken exactly as signed; 129 is refused with the rule', async () => {
    const site = await siteWithSecret();
    const endpoint = await subscribed(site.publicId);
    for (const id of ['x'.repeat(128), '😀'.repeat(128), 'Ana María <ana@example.com>', '0']) {
      const res = await request(t, 'POST', site.path, { body: { endpoint, externalId: id, signature: identitySignature(site.secret, id) } });
      expect(res.status, id).to.equal(200);
      expect(await personOf(endpoint)).to.deep.equal([id]);
    }
    const long = 'x'.repeat(129);
    const res = await request(t, 'POST', site.path, { body: { endpoint, externalId: long, signature: identitySignature(site.secret, long) } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ message: IDENTITY_MESSAGES.externalId });
  });
});
