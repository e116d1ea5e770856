// Webhooks through the real stack (docs/webhooks.md): a customer registers an endpoint with
// /v2, and a local HTTPS receiver — checking every signature with the docs' five lines — gets a
// campaign's life (dispatched, completed with its counts), its subscribers coming and going, and
// its impressions and clicks in batches; every event once after deduplication even when the
// delivery service is killed -9 mid-delivery and the receiver answers 500 or never; and the
// platform never calls a private address.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: webhooks', function () {
  this.timeout(240_000);
  let stack: Stack;
  let sim: PushSimulator;
  let receiver: WebhookReceiver;
  let site: SiteInfo;

  before(async () => {
    sim = await startPushSimulator({ seed: 17 });
    receiver = await startWebhookReceiver();
    stack = await startStack('e2e_webhooks', {
      PUSH_EXTRA_CA_FILE: sim.caCertFile,
      SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_TEST_HOSTS: '127.0.0.1',
      WEBHOOK_EXTRA_CA_FILE: receiver.caFile,
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_BATCH_INTERVAL_MS: '300',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_LEASE_SEC: '2',
      // The restarted delivery service rejoins its Kafka groups sooner (webhooks need no Kafka; the campaign above does).
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    site = await siteWithPermissions(stack, ALL, 'hooked');
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.answer = () => 200;
  });

  const api = (method: string, path: string, body?: unknown, key = site.apiKey) => stack.api.request(method, path, { key, body });

  async function hook(path: string, events: string[]): Promise<{ id: string; secret: string }> {
    const res = await api('POST', '/v2/webhooks', { url: `${receiver.url}${path}`, events, description: path });
    expect(res.status, res.text).to.equal(200);
    receiver.secrets.push(res.body.secret);
    return res.body;
  }

  /** Public subscriber id → simulator id. */
  const subscribeBrowsers = async (n: number, topic: string): Promise<Map<string, string>> =>
    new Map((await subscribeSimulated(stack, sim, site, n, () => ({ topics: [topic] }))).map((b) => [b.subscriberId, b.simId]));

  it('when a campaign is sent and read, then the receiver gets subscriber.created for each browser, campaign.dispatched, campaign.completed with the counts, and batched impressions and clicks, all signed', async () => {
    await hook('/life', ['subscriber.created', 'campaign.dispatched', 'campaign.completed', 'notification.impressions', 'notification.clicks']);
    const got = () => [...receiver.distinct().values()].filter((w) => w.path === '/life');
    const browsers = await subscribeBrowsers(12, 'life');
    const created = await api('POST', '/v2/campaign/create', validCampaign({ status: 'published', topics: ['life'] }));
    expect(created.status, created.text).to.equal(200);
    const campaignId = created.body.id as string;
    const pushes = () => sim.received().filter((m) => JSON.parse(m.payload).id === campaignId);
    await eventually(async () => (pushes().length >= browsers.size ? true : undefined), 60_000, 100);
    const token = (m: { payload: string }) => JSON.parse(m.payload).token as string;
    for (const m of pushes()) expect((await stack.api.request('POST', '/public/v1/events', { body: { type: 'impression', token: token(m) } })).status).to.equal(202);
    for (const m of pushes().slice(0, 3)) expect((await stack.api.request('POST', '/public/v1/events', { body: { type: 'click', token: token(m) } })).status).to.equal(202);

    const typed = (type: string) => got().filter((w) => w.event.type === type);
    await eventually(async () => {
      const items = (type: string) => typed(type).reduce((n, w) => n + w.event.data.items.length, 0);
      return typed('campaign.completed').length === 1 && items('notification.impressions') === 12 && items('notification.clicks') === 3 ? true : undefined;
    }, 60_000, 100);
    expect(got().every((w) => w.verified), 'every request verifies with the docs code').to.equal(true);
    expect(typed('subscriber.created').map((w) => w.event.data.subscriberId).sort()).to.deep.equal([...browsers.keys()].sort());
    expect(typed('campaign.dispatched').map((w) => w.event.data)).to.deep.equal([{ campaignId }]);
    expect(typed('campaign.completed')[0].event.data).to.deep.include({ campaignId, audience: 12, sent: 12, failed: 0, expired: 0 });
    // Batched: a handful of requests for 15 reports, never one each.
    expect(typed('notification.impressions').length + typed('notification.clicks').length).to.be.below(6);
    const impressed = typed('notification.impressions').flatMap((w) => w.event.data.items);
    expect(new Set(impressed.map((i: { subscriberId: string }) => i.subscriberId))).to.deep.equal(new Set(browsers.keys()));
    expect(impressed.every((i: { campaignId: string }) => i.campaignId === campaignId)).to.equal(true);
  });

  it('when the delivery service is killed -9 mid-delivery while the receiver answers 500 or never, then after deduplication every event arrives exactly once, retried until taken', async () => {
    const { id: hookId } = await hook('/kill', ['subscriber.created']);
    const requests = () => receiver.received.filter((w) => w.path === '/kill');
    // The first attempt of every event hangs (the sender's timeout ends it), the second is a 500.
    receiver.answer = (w) => (w.path !== '/kill' ? 200 : w.seen === 1 ? 'hang' : w.seen === 2 ? 500 : 200);
    const browsers = await subscribeBrowsers(30, 'kill');
    await eventually(async () => (requests().length >= 10 ? true : undefined), 30_000, 20);
    stack.services.signal('delivery', 'SIGKILL');
    await eventually(async () => (stack.services.exitCode('delivery') !== undefined ? true : undefined), 30_000, 50);
    const beforeRestart = requests().length;
    await stack.services.restart('delivery');

    await eventually(async () => (new Set(requests().filter((w) => w.seen >= 3).map((w) => w.event.id)).size >= browsers.size ? true : undefined), 90_000, 100);
    const distinct = new Map(requests().map((w) => [w.event.id, w]));
    expect(distinct.size, 'one event per subscriber, no more').to.equal(browsers.size);
    expect([...distinct.values()].map((w) => w.event.data.subscriberId).sort()).to.deep.equal([...browsers.keys()].sort());
    expect(requests().every((w) => w.verified)).to.equal(true);
    expect(beforeRestart).to.be.below(requests().length);

    const list = await api('GET', `/v2/webhooks/${hookId}/deliveries`);
    expect(list.status).to.equal(200);
    const states = await eventually(async () => {
      const res = await api('GET', `/v2/webhooks/${hookId}/deliveries`);
      return res.body.every((d: { state: string }) => d.state === 'delivered') ? res.body : undefined;
    }, 30_000, 100);
    expect(states).to.have.length(browsers.size);
    const odd = states.filter((d: { attempts: number; lastStatus: number }) => d.attempts < 3 || d.lastStatus !== 200);
    expect(odd, JSON.stringify(odd)).to.deep.equal([]);
  });

  it('when an endpoint points to a private, loopback, link-local or metadata address, then it is refused with 400 and never called', async () => {
    for (const url of [`https://localhost:${receiver.port}/private`, 'https://169.254.169.254/latest/meta-data/', 'https://10.0.0.7/hook', 'https://[fd00::1]/hook', 'http://hooks.example.com/private']) {
      const res = await api('POST', '/v2/webhooks', { url, events: ['subscriber.created'] });
      expect(res.status, url).to.equal(400);
      expect(res.body.message, url).to.be.oneOf(['url must not point to a private, loopback, link-local or metadata address', 'url must be an https URL of at most 2048 characters']);
    }
    await subscribeBrowsers(2, 'private');
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((w) => w.path === '/private')).to.deep.equal([]);
  });

  it('when a key without the reports permission manages webhooks, then it gets 403; another site sees none of them', async () => {
    const noReports = await siteWithPermissions(stack, ['create', 'delete', 'audience'], 'no-reports');
    const res = await api('GET', '/v2/webhooks', undefined, noReports.apiKey);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('This plan does not have permission to manage webhooks via API');
    const other = await siteWithPermissions(stack, ALL, 'other');
    const mine = await api('GET', '/v2/webhooks');
    expect(mine.body.length).to.be.above(0);
    expect((await api('GET', '/v2/webhooks', undefined, other.apiKey)).body).to.deep.equal([]);
    const foreign = await api('GET', `/v2/webhooks/${mine.body[0].id}`, undefined, other.apiKey);
    expect(foreign.status).to.equal(404);
    expect(foreign.body.message).to.equal('Webhook not found');
    expect((await api('DELETE', `/v2/webhooks/${mine.body[0].id}`, undefined, other.apiKey)).status).to.equal(404);
    expect((await api('PATCH', `/v2/webhooks/${mine.body[0].id}`, { enabled: false }, other.apiKey)).status).to.equal(404);
  });
});
