// Identified subscribers and /v2/users through the real stack (docs/people.md): the operator
// prints the site's identity secret, two browsers identify as the site's user (the plugin's
// endpoints through the gateway), a campaign reaches them, and the customer's server reads the
// user, sets tags, exports what is stored (the campaign's sends included) and deletes it all.
// Every answer is checked against the OpenAPI document; another site's key never finds the user,
// and a plan without the audience permission gets its 403.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { assertResponseMatchesContract } from '../support/openapi.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: identified subscribers and /v2/users', function () {
  this.timeout(240_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let other: SiteInfo;

  before(async () => {
    sim = await startPushSimulator({ seed: 37 });
    stack = await startStack('e2e_users', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await siteWithPermissions(stack, ALL, 'people');
    other = await siteWithPermissions(stack, ALL, 'other people');
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  /** A call checked against the contract. */
  const call = async (method: string, path: string, opts: { key?: string | null; body?: unknown } = {}) => {
    const res = await stack.api.request(method, path, opts);
    assertResponseMatchesContract(method, path, res.status, res.body);
    return res;
  };

  async function identifiedBrowser(s: SiteInfo, secret: string, externalId: string) {
    const sub = sim.createSubscription(s.vapidPublicKey);
    const created = await call('POST', `/public/v1/sites/${s.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['news'] } });
    expect(created.status, created.text).to.equal(201);
    const signature = createHmac('sha256', secret).update(externalId).digest('hex');
    const res = await call('POST', `/public/v1/sites/${s.publicId}/identity`, { body: { endpoint: sub.endpoint, externalId, signature } });
    expect(res.body).to.deep.equal({ identified: true });
    return { simId: sub.id, subscriberId: created.body.id as string, endpoint: sub.endpoint };
  }

  it('when two browsers identify as the site\'s user and a campaign reaches them, then the user is read, tagged, exported with the sends, and deleted with everything; the other site never finds them', async () => {
    const { secret } = await stack.cli('sites', 'identity-secret', site.id);
    const { secret: otherSecret } = await stack.cli('sites', 'identity-secret', other.id);
    const id = 'Ana María';
    const path = `/v2/users/${encodeURIComponent(id)}`;
    const forged = await call('POST', `/public/v1/sites/${site.publicId}/identity`, {
      body: { endpoint: 'https://127.0.0.1/none', externalId: id, signature: createHmac('sha256', otherSecret).update(id).digest('hex') },
    });
    expect(forged.status).to.equal(403);
    const phone = await identifiedBrowser(site, secret, id);
    const laptop = await identifiedBrowser(site, secret, id);
    const theirs = await identifiedBrowser(other, otherSecret, id);

    const campaign = await call('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ topics: ['news'], status: 'published' }) });
    expect(campaign.status, campaign.text).to.equal(200);
    for (const b of [phone, laptop]) await eventually(async () => sim.received(b.simId).find((m) => JSON.parse(m.payload).id === campaign.body.id), 60_000, 200);

    const read = await call('GET', path, { key: site.apiKey });
    expect(read.status, read.text).to.equal(200);
    expect(read.body.externalId).to.equal(id);
    expect(read.body.subscriptions.map((s: { id: string }) => s.id).sort()).to.deep.equal([phone.subscriberId, laptop.subscriberId].sort());
    expect(read.body.tags).to.deep.equal({});

    const tagged = await call('PATCH', path, { key: site.apiKey, body: { tags: { plan: 'gold', score: 7, vip: true, since: '2026-01-15' } } });
    expect(tagged.status, tagged.text).to.equal(200);
    expect(tagged.body.tags).to.deep.equal({ plan: 'gold', score: 7, since: '2026-01-15T00:00:00.000Z', vip: true });
    const refused = await call('PATCH', path, { key: site.apiKey, body: { tags: { 'Not A Key': 1 } } });
    expect(refused.status).to.equal(400);

    const exported = await eventually(async () => {
      const res = await call('GET', `${path}/export`, { key: site.apiKey });
      return res.body.deliveries?.filter((d: { state: string }) => d.state === 'sent').length === 2 ? res : undefined;
    }, 30_000, 300);
    expect(exported.body.deliveries.map((d: { campaignId: string }) => d.campaignId)).to.deep.equal([campaign.body.id, campaign.body.id]);
    expect(exported.body.tags.plan).to.equal('gold');
    expect(JSON.stringify(exported.body)).to.not.contain(phone.endpoint);

    const otherRead = await call('GET', path, { key: other.apiKey });
    expect(otherRead.body.subscriptions.map((s: { id: string }) => s.id)).to.deep.equal([theirs.subscriberId]);

    const deleted = await call('DELETE', path, { key: site.apiKey });
    expect(deleted.body).to.deep.equal({ externalId: id, deleted: true, subscriptions: 2 });
    expect((await call('GET', path, { key: site.apiKey })).status).to.equal(404);
    expect((await call('GET', `${path}/export`, { key: site.apiKey })).status).to.equal(404);
    expect((await call('DELETE', path, { key: site.apiKey })).body).to.deep.equal({ message: 'User not found' });
    expect((await call('GET', path, { key: other.apiKey })).body.subscriptions, 'the other site keeps its own user').to.have.length(1);
    // The deleted subscriptions are gone from the audience and receive nothing more.
    const topics = await call('GET', '/v2/topics', { key: site.apiKey });
    expect(topics.body).to.deep.equal([]);
  });

  it('when a key\'s plan lacks the audience permission, then every /v2/users call answers 403 with its message; a bad id answers 400', async () => {
    const limited = await siteWithPermissions(stack, ['create', 'reports'], 'no audience');
    for (const [method, tail] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['GET', '/export']]) {
      const res = await call(method, `/v2/users/u1${tail}`, { key: limited.apiKey, body: method === 'PATCH' ? { tags: {} } : undefined });
      expect(res.status, `${method} ${tail}`).to.equal(403);
      expect(res.body).to.deep.equal({ message: 'This plan does not have permission to manage users via API' });
    }
    const long = await call('GET', `/v2/users/${'x'.repeat(129)}`, { key: site.apiKey });
    expect(long.status).to.equal(400);
    expect(long.body.message).to.equal('externalId must be a string of 1 to 128 characters without control characters');
  });
});
