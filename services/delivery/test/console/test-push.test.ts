// The console's test push (delivery.v1.ConsoleData SendTestPush) against the push simulator,
// which verifies each push's VAPID JWT against the key the subscription was made with and
// decrypts it as a browser would: one push with the site's keys, the plugin's payload format,
// nothing stored or counted. Its refusals: a subscription refused exactly as the plugin's
// subscribe endpoint refuses it, an endpoint the destination policy refuses, a site this
// service does not know, another site's subscription (its push service says so), the push
// service refusing or unreachable, the per-site limit; and the gateway's only.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsoleDataClient } from '@webpush/contracts/generated/delivery/v1/ConsoleData.js';
import type { SendTestPushRequest } from '@webpush/contracts/generated/delivery/v1/SendTestPushRequest.js';
import type { SendTestPushResponse__Output } from '@webpush/contracts/generated/delivery/v1/SendTestPushResponse.js';
import { startPushSimulator, type PushSimulator } from '../../../../tools/push-simulator/src/index.js';
import { loadConsoleDataProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../../test/support/internal-tokens.js';
import { TEST_PUSH } from '../../src/console/test-push.js';
import { browserKeys, request, startTestDelivery, type TestDelivery } from '../support.js';

const LINK = 'https://console.example/console/#/sites/x/settings';
const ENDPOINT_MESSAGE = 'subscription.endpoint must be an https URL of a push service';
const P256DH_MESSAGE = 'subscription.keys.p256dh must be a base64url P-256 public key';
const AUTH_MESSAGE = 'subscription.keys.auth must be 16 bytes in base64url';

function sendTestPush(client: ConsoleDataClient, req: SendTestPushRequest): Promise<SendTestPushResponse__Output> {
  return new Promise((resolve, reject) => client.SendTestPush(req, (err, res) => (err ? reject(err) : resolve(res!))));
}

/** The refusal a call answers, with its retry-after metadata (fails the test when it succeeds). */
async function refused(promise: Promise<unknown>): Promise<{ code: number; details: string; retryAfter?: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as grpc.ServiceError;
    const retryAfter = e.metadata?.get('retry-after')[0];
    return { code: e.code, details: e.details, ...(retryAfter !== undefined ? { retryAfter: String(retryAfter) } : {}) };
  }
  throw new Error('expected the call to be refused');
}

describe('console data: a test push to the site owner\'s browser', function () {
  this.timeout(60_000);
  let sim: PushSimulator;
  let t: TestDelivery;
  let sites = 0;

  /** A site registered here, with its VAPID public key. */
  const newSite = async () => {
    const site = { siteId: randomUUID(), publicId: `pub_test_push_${++sites}` };
    return { ...site, vapidPublicKey: (await t.operators.registerSite(site)).vapidPublicKey };
  };
  const push = (req: Partial<SendTestPushRequest> & { siteId: string }) =>
    sendTestPush(t.consoleData, { endpoint: '', p256dh: '', auth: '', siteName: 'Demo shop', link: LINK, ...req });
  const ofSubscription = (sub: { endpoint: string; keys: { p256dh: string; auth: string } }) => ({ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth });
  const countRows = async (siteId: string) => {
    const { rows } = await t.pool.query(
      `SELECT (SELECT count(*) FROM delivery.subscribers WHERE site_id = $1)::int AS subscribers,
              (SELECT count(*) FROM delivery.campaign_runs WHERE site_id = $1)::int AS runs,
              (SELECT count(*) FROM delivery.delivery_log)::int AS pushes,
              (SELECT count(*) FROM delivery.webhook_deliveries)::int AS webhooks,
              (SELECT count(*) FROM delivery.audience_daily WHERE site_id = $1)::int AS daily`,
      [siteId],
    );
    return rows[0];
  };

  before(async () => {
    sim = await startPushSimulator();
    // localhost is a push service name here (PUSH_SERVICE_HOSTS) but no test host: the plugin's
    // rules accept https://localhost/… and the destination policy refuses to connect there.
    t = await startTestDelivery('console_test_push', { PUSH_EXTRA_CA_FILE: sim.caCertFile, PUSH_TEST_HOSTS: '127.0.0.1', PUSH_SERVICE_HOSTS: 'fcm.googleapis.com,localhost' });
  });
  after(async () => {
    await t?.stop();
    await sim?.close();
  });
  afterEach(() => sim.clearBehaviours());

  it('sends one push with the site VAPID keys, which the browser decrypts to the plugin payload: a fixed title, the site named, the link; short TTL, high urgency, no topic', async () => {
    const site = await newSite();
    const sub = sim.createSubscription(site.vapidPublicKey);
    const before = await countRows(site.siteId);
    const verified = sim.stats().vapid.verifications;

    expect(await push({ siteId: site.siteId, ...ofSubscription(sub) })).to.deep.equal({ sent: true, pushServiceStatus: 201, message: '' });

    const received = sim.received(sub.id);
    expect(received).to.have.length(1);
    // The simulator decrypted it with the subscription's keys, after checking the VAPID JWT was
    // signed by the key the subscription was made with (a 403 otherwise).
    expect(JSON.parse(received[0].payload)).to.deep.equal({
      v: 1,
      id: 'test-notification',
      title: 'Test notification',
      body: 'Notifications from Demo shop reach this browser.',
      url: LINK,
      icon: null,
      image: null,
    });
    expect(received[0].headers).to.deep.equal({ ttl: TEST_PUSH.ttlSec, urgency: 'high', topic: undefined });
    expect(sim.stats().vapid.verifications).to.be.greaterThan(verified);
    // Not stored, not counted: no subscriber, run, delivery log row, daily count or webhook event.
    expect(await countRows(site.siteId)).to.deep.equal(before);
    expect(before).to.deep.include({ subscribers: 0, runs: 0, daily: 0 });
  });

  it("names the site by its first 100 characters, and 'this site' when it has no name; no link is an empty url", async () => {
    const site = await newSite();
    const sub = sim.createSubscription(site.vapidPublicKey);
    await push({ siteId: site.siteId, ...ofSubscription(sub), siteName: `  ${'é'.repeat(120)} ` });
    await push({ siteId: site.siteId, ...ofSubscription(sub), siteName: '', link: '' });
    const [long, none] = sim.received(sub.id).map((m) => JSON.parse(m.payload) as { body: string; url: string });
    expect(long.body).to.equal(`Notifications from ${'é'.repeat(100)} reach this browser.`);
    expect([none.body, none.url]).to.deep.equal(['Notifications from this site reach this browser.', '']);
  });

  it('refuses a subscription exactly as the plugin\'s subscribe endpoint does (the same messages), before any push', async () => {
    const site = await newSite();
    const valid = sim.createSubscription(site.vapidPublicKey);
    const keys = browserKeys();
    const pushed = sim.received().length;
    const cases: [string, { endpoint: string; p256dh: string; auth: string }][] = [
      ['nothing', { endpoint: '', p256dh: '', auth: '' }],
      ['http endpoint of a push service', { ...ofSubscription(valid), endpoint: 'http://fcm.googleapis.com/fcm/send/x' }],
      ['a host that is no push service', { ...ofSubscription(valid), endpoint: 'https://evil.example/push/x' }],
      ['an IP literal', { ...ofSubscription(valid), endpoint: 'https://10.0.0.1/push/x' }],
      ['a long endpoint', { ...ofSubscription(valid), endpoint: `https://fcm.googleapis.com/${'x'.repeat(2100)}` }],
      ['a p256dh off the curve', { ...ofSubscription(valid), p256dh: `BA${'A'.repeat(85)}` }],
      ['a short auth', { ...ofSubscription(valid), auth: keys.auth.slice(0, 10) }],
      ['all wrong', { endpoint: 'javascript:alert(1)', p256dh: 'x', auth: '\u0000' }],
    ];
    for (const [name, sub] of cases) {
      const plugin = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } } } });
      expect(plugin.status, name).to.equal(400);
      expect(await refused(push({ siteId: site.siteId, ...sub })), name).to.deep.equal({ code: grpc.status.INVALID_ARGUMENT, details: plugin.body.message });
    }
    expect((await refused(push({ siteId: site.siteId }))).details).to.equal([ENDPOINT_MESSAGE, P256DH_MESSAGE, AUTH_MESSAGE].join(', '));
    expect(await refused(push({ siteId: site.siteId, ...ofSubscription(valid), link: 'javascript:alert(1)' }))).to.deep.equal({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'link must be an http(s) URL of at most 2048 characters',
    });
    expect(sim.received()).to.have.length(pushed);
  });

  it('refuses an endpoint the destination policy refuses (a push service name resolving to a loopback address), which the plugin would store', async () => {
    const site = await newSite();
    const sub = { endpoint: 'https://localhost/push/abc', ...browserKeys() };
    const plugin = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } } } });
    expect(plugin.status).to.equal(201);
    const answer = await refused(push({ siteId: site.siteId, ...sub }));
    expect(answer.code).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(answer.details).to.match(/^subscription\.endpoint is not a destination pushes may go to: localhost resolves to (127\.0\.0\.1|::1) \(.*loopback.*\)$/);
  });

  it("refuses a site it does not know (NOT_FOUND); another site's subscription is sent with this site's key, which its push service refuses (403, said in the answer)", async () => {
    const a = await newSite();
    const b = await newSite();
    const subOfA = sim.createSubscription(a.vapidPublicKey);
    for (const siteId of [randomUUID(), 'not-a-site']) {
      expect(await refused(push({ siteId, ...ofSubscription(subOfA) })), siteId).to.deep.equal({ code: grpc.status.NOT_FOUND, details: 'Site not found' });
    }
    const rejected = sim.stats().rejected.total;
    expect(await push({ siteId: b.siteId, ...ofSubscription(subOfA) })).to.deep.equal({
      sent: false,
      pushServiceStatus: 403,
      message: 'The push service refused the test notification: 403 forbidden (VAPID key mismatch)',
    });
    expect(sim.stats().rejected.total).to.equal(rejected + 1);
    expect(sim.received(subOfA.id)).to.deep.equal([]);
  });

  it("answers what the push service said when it does not take the push: a gone subscription, 5xx until the 5 s retry budget ends, nobody listening", async () => {
    const site = await newSite();
    const gone = sim.createSubscription(site.vapidPublicKey);
    sim.expireSubscription(gone.id);
    expect(await push({ siteId: site.siteId, ...ofSubscription(gone) })).to.deep.equal({
      sent: false,
      pushServiceStatus: 410,
      message: 'The push service refused the test notification: 410 subscription gone',
    });

    const failing = sim.createSubscription(site.vapidPublicKey);
    sim.setBehaviour({ status: 500, forSubscription: failing.id });
    const started = Date.now();
    const answer = await push({ siteId: site.siteId, ...ofSubscription(failing) });
    expect(Date.now() - started).to.be.within(TEST_PUSH.retryBudgetMs - 1000, TEST_PUSH.retryBudgetMs + 5000);
    expect(answer).to.deep.include({ sent: false, pushServiceStatus: 500 });
    expect(answer.message, answer.message).to.match(/^The push service refused the test notification: gave up after \d+ attempts \(retry budget 5 s(; origin down)?\): 500 push service error$/);

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nobody = await push({ siteId: site.siteId, endpoint: `https://127.0.0.1:${port}/push/x`, ...browserKeys() });
    expect(nobody).to.deep.include({ sent: false, pushServiceStatus: 0 });
    expect(nobody.message).to.match(/^The push service could not be reached: gave up after \d+ attempts \(retry budget 5 s(; origin down)?\): .*ECONNREFUSED/);
  });

  it('sends at most 10 a minute per site (RESOURCE_EXHAUSTED with retry-after); refused input does not count, other sites are not held up', async () => {
    const site = await newSite();
    const other = await newSite();
    const sub = sim.createSubscription(site.vapidPublicKey);
    for (let i = 0; i < 3; i++) expect((await refused(push({ siteId: site.siteId }))).code).to.equal(grpc.status.INVALID_ARGUMENT);
    for (let i = 0; i < TEST_PUSH.perSitePerMinute; i++) expect((await push({ siteId: site.siteId, ...ofSubscription(sub) })).sent, `push ${i + 1}`).to.equal(true);
    const held = await refused(push({ siteId: site.siteId, ...ofSubscription(sub) }));
    expect(held).to.deep.include({ code: grpc.status.RESOURCE_EXHAUSTED, details: 'Too many test notifications for this site; try again in a minute' });
    expect(Number(held.retryAfter)).to.be.within(1, 60);
    expect(sim.received(sub.id)).to.have.length(TEST_PUSH.perSitePerMinute);
    expect((await push({ siteId: other.siteId, ...ofSubscription(sim.createSubscription(other.vapidPublicKey)) })).sent).to.equal(true);
  });

  it('answers the gateway only', async () => {
    const asCampaign = new (loadConsoleDataProto().delivery.v1.ConsoleData)(`127.0.0.1:${t.service.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN));
    try {
      const site = await newSite();
      const denied = await refused(sendTestPush(asCampaign, { siteId: site.siteId, ...ofSubscription(sim.createSubscription(site.vapidPublicKey)), siteName: 'x', link: '' }));
      expect(denied.code).to.equal(grpc.status.PERMISSION_DENIED);
    } finally {
      asCampaign.close();
    }
  });
});
