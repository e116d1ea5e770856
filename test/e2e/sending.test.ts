// Campaigns reach browsers: outbox → Kafka → delivery → web push to our push-service
// simulator (which verifies VAPID and decrypts like a browser), and the simulated devices'
// impressions and clicks come back into analytics.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { freePort } from '@webpush/shared/ports.js';
import { ALL, inSeconds, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

interface Browser {
  id: string;
  endpoint: string;
}

describe('e2e: sending campaigns to browsers', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  const news: Browser[] = [];
  const sports: Browser[] = [];

  const subscribeBrowser = async (topics: string[]): Promise<Browser> => {
    const sub = sim.createSubscription(site.vapidPublicKey);
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics },
    });
    expect(res.status, res.text).to.equal(201);
    return { id: sub.id, endpoint: sub.endpoint };
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body });
    expect(res.status, res.text).to.equal(200);
    return res.body.id as string;
  };
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const messagesOf = (campaignId: string) =>
    sim.received().filter((m) => JSON.parse(m.payload).id === campaignId);

  before(async () => {
    const gatewayPort = await freePort();
    sim = await startPushSimulator({
      trackingBaseUrl: `http://127.0.0.1:${gatewayPort}`,
      device: { impressionRate: 0.75, clickRate: 0.5, seed: 42 },
      seed: 7,
    });
    stack = await startStack(
      'e2e_send',
      { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', TRACKING_RATE_LIMIT_PER_MINUTE: '0' },
      { gateway: gatewayPort },
    );
    site = await siteWithPermissions(stack, ALL, 'sender');
    for (let i = 0; i < 30; i++) news.push(await subscribeBrowser(['news']));
    for (let i = 0; i < 12; i++) sports.push(await subscribeBrowser(['sports']));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  it('when a campaign is sent now, then every subscriber of its audience gets it exactly once, decrypted, and nobody else', async () => {
    const id = await create(
      validCampaign({ status: 'published', topics: ['news'], ttl: 3600, utmSource: 'push', utmCampaign: 'spring', callToAction: 'Open', icon: 'https://cdn.example/i.png' }),
    );
    await eventually(async () => (messagesOf(id).length >= news.length ? true : undefined), 60_000, 200);
    const got = messagesOf(id);
    expect(got.map((m) => m.subscriptionId).sort()).to.deep.equal(news.map((b) => b.id).sort());
    const payload = JSON.parse(got[0].payload);
    expect(payload).to.include({ v: 1, id, title: 'Weekend sale', body: 'Everything is half price until Sunday', url: 'https://shop.example/sale?utm_source=push&utm_campaign=spring', icon: 'https://cdn.example/i.png', action: 'Open' });
    expect(payload.token).to.be.a('string');
    expect(got[0].headers).to.deep.include({ ttl: 3600, urgency: 'normal', topic: id.replace(/-/g, '') });
    expect(sim.stats().vapid.distinctAuthorizations).to.equal(1);
  });

  it('when the devices report impressions and clicks, then analytics matches what they reported', async () => {
    await sim.whenDeviceIdle(20_000);
    sim.reset(); // counters from here on belong to this campaign alone
    const id = await create(validCampaign({ status: 'published', topics: ['news', 'sports'] }));
    await eventually(async () => (messagesOf(id).length >= news.length + sports.length ? true : undefined), 60_000, 200);
    await sim.whenDeviceIdle(20_000);
    const device = sim.stats().device;
    expect(device.errors).to.equal(0);
    expect(device.impressionsSent).to.be.greaterThan(0);
    const c = await eventually(async () => {
      const got = await get(id);
      return got.analytics.impressions === device.impressionsSent && got.analytics.clicks === device.clicksSent ? got : undefined;
    }, 20_000, 250);
    expect(c.totalUsers).to.equal(news.length + sports.length);
    expect(c.analytics.totalUsers).to.equal(news.length + sports.length);
    expect(c.analytics.ctr).to.equal(Math.round((device.clicksSent / device.impressionsSent) * 10000) / 100);
    expect(c.analytics.its).to.equal(Math.round((device.impressionsSent / c.totalUsers) * 10000) / 100);
    console.log(`      analytics: ${device.impressionsSent} impressions and ${device.clicksSent} clicks reported by devices = ${c.analytics.impressions}/${c.analytics.clicks} in the API`);
  });

  it('when a service worker reports with a forged token, then 400 and nothing is counted; a real token counts once; the click link redirects', async () => {
    await sim.whenDeviceIdle(20_000);
    const deviceBefore = sim.stats().device;
    const id = await create(validCampaign({ status: 'published', topics: ['sports'], link: 'https://shop.example/p?x=1', utmSource: 'push' }));
    await eventually(async () => (messagesOf(id).length >= sports.length ? true : undefined), 60_000, 200);
    await sim.whenDeviceIdle(20_000);
    // The devices' own reports are stored when they are answered and published from what is
    // stored a moment later: wait until analytics shows them all before counting ours.
    const device = sim.stats().device;
    const reported = { impressions: device.impressionsSent - deviceBefore.impressionsSent, clicks: device.clicksSent - deviceBefore.clicksSent };
    const before = await eventually(async () => {
      const a = (await get(id)).analytics;
      return a.impressions === reported.impressions && a.clicks === reported.clicks ? a : undefined;
    }, 20_000, 100);
    const token: string = JSON.parse(messagesOf(id)[0].payload).token;
    const flipped = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    for (const bad of [flipped, 'x'.repeat(54), '', 42]) {
      const res = await stack.api.request('POST', '/public/v1/events', { body: { type: 'impression', token: bad } });
      expect(res.status, String(bad)).to.equal(400);
      expect(res.body.message).to.include('token is not a valid tracking token');
    }
    expect((await stack.api.request('POST', '/public/v1/events', { body: { type: 'seen', token } })).body.message).to.equal('type must be impression or click');
    for (let i = 0; i < 3; i++) expect((await stack.api.request('POST', '/public/v1/events', { body: { type: 'impression', token } })).status).to.equal(202);
    const redirect = await fetch(`${stack.services.gatewayUrl}/public/v1/r/${token}`, { redirect: 'manual' });
    expect(redirect.status).to.equal(302);
    expect(redirect.headers.get('location')).to.equal('https://shop.example/p?x=1&utm_source=push');
    expect((await fetch(`${stack.services.gatewayUrl}/public/v1/r/${flipped}`, { redirect: 'manual' })).status).to.equal(404);
    // The first subscriber's impression and click may already have been reported by its device: at most one each.
    const after = await eventually(async () => {
      const a = (await get(id)).analytics;
      return a.clicks >= 1 && a.impressions >= 1 ? a : undefined;
    });
    expect(after.impressions - before.impressions).to.be.at.most(1);
    expect(after.clicks - before.clicks).to.be.at.most(1);
    expect(after.impressions).to.be.at.most(sports.length);
  });

  it('when a campaign is scheduled, then it is sent once at its date', async () => {
    const id = await create(validCampaign({ status: 'published', topics: ['sports'], scheduleMode: 'scheduled', scheduleDate: inSeconds(2) }));
    expect(messagesOf(id)).to.have.length(0);
    await eventually(async () => (messagesOf(id).length >= sports.length ? true : undefined), 60_000, 200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(messagesOf(id).map((m) => m.subscriptionId).sort()).to.deep.equal(sports.map((b) => b.id).sort());
  });

  it('when a push service answers 410, then the subscription is deactivated, counted expired, and never contacted again', async () => {
    const gone = news.slice(0, 4);
    for (const b of gone) sim.expireSubscription(b.id);
    const first = await create(validCampaign({ status: 'published', topics: ['news'] }));
    await eventually(async () => ((await get(first)).analytics !== undefined && messagesOf(first).length >= news.length - gone.length ? true : undefined), 60_000, 200);
    await eventually(async () => {
      const res = await stack.api.request('GET', '/v2/topics', { key: site.apiKey });
      const n = res.body.find((t: { name: string }) => t.name === 'news');
      return n?.users === news.length - gone.length ? true : undefined;
    }, 20_000, 250);
    const before = sim.stats().afterExpiry;
    const second = await create(validCampaign({ status: 'published', topics: ['news'] }));
    await eventually(async () => (messagesOf(second).length >= news.length - gone.length ? true : undefined), 60_000, 200);
    expect(sim.stats().afterExpiry).to.equal(before);
    expect((await get(second)).totalUsers).to.equal(news.length - gone.length);
  });

  it('when the push service answers 429 with Retry-After, then delivery waits and still reaches everyone', async () => {
    sim.setBehaviour({ status: 429, retryAfter: '1', times: 3 });
    const started = Date.now();
    const id = await create(validCampaign({ status: 'published', topics: ['sports'] }));
    await eventually(async () => (messagesOf(id).length >= sports.length ? true : undefined), 60_000, 200);
    expect(Date.now() - started).to.be.greaterThan(900);
    sim.clearBehaviours();
  });

  it('when every push fails for a reason other than expiry, then the campaign becomes failed', async () => {
    sim.setBehaviour({ status: 400 });
    try {
      const id = await create(validCampaign({ status: 'published', topics: ['sports'] }));
      const c = await eventually(async () => {
        const got = await get(id);
        return got.status === 'failed' ? got : undefined;
      }, 60_000, 250);
      expect(c.status).to.equal('failed');
      const listed = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { status: ['failed'], limit: 60 } });
      expect(listed.body.items.map((x: { id: string }) => x.id)).to.include(id);
    } finally {
      sim.clearBehaviours();
    }
  });
});
