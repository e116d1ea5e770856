// A sent campaign corrected and then recalled (docs/api-decisions.md, "Update and recall"),
// through the real stack: gateway → campaign service → outbox → Kafka → delivery → web push to
// the push-service simulator, which decrypts every push and, as RFC 8030 §5.4 asks of a push
// service, lets a message replace the one with the same Topic still waiting for its device (no
// device takes them here: every device is offline). So each device ends with one message of the
// campaign: its last revision, never the first version.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { freePort } from '@webpush/shared/ports.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: update and recall of a sent campaign', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  const news: string[] = [];
  const others: string[] = [];

  const subscribe = async (topics: string[]): Promise<string> => {
    const sub = sim.createSubscription(site.vapidPublicKey);
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics } });
    expect(res.status, res.text).to.equal(201);
    return sub.id;
  };
  const call = (method: string, path: string, body?: unknown) => stack.api.request(method, path, { key: site.apiKey, body });
  /** The simulator's messages of a campaign (its revisions' too: they carry its id), per device. */
  const messagesOf = (campaignId: string) =>
    sim.received().filter((m) => JSON.parse(m.payload).id === campaignId).map((m) => ({ device: m.subscriptionId, topic: m.headers.topic, payload: JSON.parse(m.payload) as Record<string, unknown> }));

  before(async () => {
    const gatewayPort = await freePort();
    sim = await startPushSimulator({ trackingBaseUrl: `http://127.0.0.1:${gatewayPort}`, seed: 11 });
    stack = await startStack('e2e_revise', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', TRACKING_RATE_LIMIT_PER_MINUTE: '0' }, { gateway: gatewayPort });
    site = await siteWithPermissions(stack, ALL, 'reviser');
    for (let i = 0; i < 6; i++) news.push(await subscribe(['news']));
    for (let i = 0; i < 2; i++) others.push(await subscribe(['sports']));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  it('when a sent campaign is corrected, then each device it was sent to gets the correction once, in place of the first version, under the campaign\'s Topic; nobody else gets anything', async () => {
    const draft = (await call('POST', '/v2/campaign/create', validCampaign({ status: 'draft', topics: ['news'] }))).body.id as string;
    const refused = await call('POST', `/v2/campaign/${draft}/update`, { title: 'Corrected title' });
    expect([refused.status, refused.body]).to.deep.equal([409, { message: 'Only a sent campaign can be updated or recalled' }]);

    const created = await call('POST', '/v2/campaign/create', validCampaign({ status: 'published', topics: ['news'], ttl: 3600, utmSource: 'push' }));
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    await eventually(async () => (messagesOf(id).length >= news.length ? true : undefined), 60_000, 200);
    // Answered 409 while the campaign is still sending (its counters not final yet), then 200.
    const updated = await eventually(async () => {
      const res = await call('POST', `/v2/campaign/${id}/update`, { title: 'Corrected title', link: 'https://shop.example/corrected' });
      if (res.status !== 409) return res;
      expect(res.body.message).to.equal('The campaign is still sending; it can be updated or recalled once it has finished');
      return undefined;
    }, 30_000, 250);
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body).to.deep.include({ id, revision: 1, action: 'update' });

    await eventually(async () => (messagesOf(id).filter((m) => m.payload.revision === 1).length >= news.length ? true : undefined), 60_000, 200);
    const got = messagesOf(id);
    expect(got.map((m) => m.device).sort(), 'one message per device: the first version was replaced while it waited').to.deep.equal([...news].sort());
    for (const m of got) {
      expect(m.topic).to.equal(id.replace(/-/g, ''));
      expect(m.payload).to.deep.include({ revision: 1, id, title: 'Corrected title', body: 'Everything is half price until Sunday', url: 'https://shop.example/corrected?utm_source=push' });
    }
    expect(sim.stats().replaced).to.be.at.least(news.length);
    for (const device of others) expect(sim.received(device)).to.deep.equal([]);

    // The correction's impression is the campaign's, once per subscriber.
    const token = got[0].payload.token as string;
    for (let i = 0; i < 2; i++) expect((await stack.api.request('POST', '/public/v1/events', { body: { type: 'impression', token } })).status).to.equal(202);
    const campaign = await eventually(async () => {
      const c = (await call('GET', `/v2/campaign/${id}`)).body;
      return c.analytics.impressions === 1 ? c : undefined;
    }, 20_000, 200);
    expect(campaign).to.deep.include({ title: 'Weekend sale', link: 'https://shop.example/sale' });
  });

  it('when it is then recalled, then each device gets the recall once in place of the correction; a second recall sends nothing; an update is refused', async () => {
    const [c] = (await call('POST', '/v2/campaigns', { status: ['sent'], limit: 1 })).body.items as { id: string }[];
    const id = c.id;
    const recalled = await call('POST', `/v2/campaign/${id}/recall`);
    expect(recalled.status, recalled.text).to.equal(200);
    expect(recalled.body).to.deep.include({ id, revision: 2, action: 'recall' });
    await eventually(async () => (messagesOf(id).filter((m) => m.payload.recall === true).length >= news.length ? true : undefined), 60_000, 200);
    const got = messagesOf(id);
    expect(got.map((m) => m.device).sort()).to.deep.equal([...news].sort());
    for (const m of got) expect(m.payload).to.deep.equal({ v: 1, id, revision: 2, recall: true });

    const again = await call('POST', `/v2/campaign/${id}/recall`, {});
    expect([again.status, again.body]).to.deep.equal([200, recalled.body]);
    const update = await call('POST', `/v2/campaign/${id}/update`, { title: 'Too late now' });
    expect([update.status, update.body]).to.deep.equal([409, { message: 'The campaign was recalled; it can no longer be updated' }]);
    // The second recall was the first one answered again: no revision of its own was made.
    expect(messagesOf(id)).to.have.length(news.length);
  });
});
