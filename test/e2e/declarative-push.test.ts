// Declarative Web Push (docs/site-plugin.md, "Safari and Declarative Web Push") end to end: a
// subscriber whose browser said at subscribe time that it shows declarative messages itself is
// sent one — naming the click-tracking redirect under PUBLIC_URL, for the body and each button —
// every other subscriber the service worker's format; the push headers are the same for both.
// A click on a declarative notification needs no script: the browser opens `navigate`, which
// counts the click once and goes on to the link of what that subscriber was sent (an A/B
// variant's own link included), with the UTM parameters. And Apple's push service (the simulator
// in its `apple` mode) refuses a VAPID subject it does not take as a contact.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { freePort } from '@webpush/shared/ports.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: Declarative Web Push messages', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  /** Apple's push service as far as its rules go (tools/push-simulator, `apple`). */
  let apple: PushSimulator;
  let site: SiteInfo;
  let publicUrl = '';
  const browsers: { id: string; declarative: boolean }[] = [];

  const create = async (body: Record<string, unknown>) => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body });
    expect(res.status, res.text).to.equal(200);
    return res.body.id as string;
  };
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  /** Each subscription's decrypted message of the campaign (the declarative one keeps the id in notification.data). */
  const messagesOf = (campaignId: string) =>
    sim.received().filter((m) => {
      const p = JSON.parse(m.payload);
      return (p.id ?? p.notification?.data?.id) === campaignId;
    });
  const redirect = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location') };
  };

  before(async () => {
    const gatewayPort = await freePort();
    publicUrl = `http://127.0.0.1:${gatewayPort}`;
    sim = await startPushSimulator({ trackingBaseUrl: publicUrl, seed: 7 });
    apple = await startPushSimulator({ apple: true, tls: false });
    stack = await startStack(
      'e2e_declarative',
      { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', TRACKING_RATE_LIMIT_PER_MINUTE: '0', PUBLIC_URL: publicUrl },
      { gateway: gatewayPort },
    );
    site = await siteWithPermissions(stack, ALL, 'declarative');
    for (const declarative of [true, false, true, false, true, false]) {
      const sub = sim.createSubscription(site.vapidPublicKey);
      const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
        body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['dwp'], declarative },
      });
      expect(res.status, res.text).to.equal(201);
      browsers.push({ id: sub.id, declarative });
    }
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
    await apple?.close();
  });

  it('when a campaign is sent, then a browser that shows declarative pushes gets the declarative message and every other one the worker\'s format, with the same headers', async () => {
    const id = await create(
      validCampaign({
        status: 'published', topics: ['dwp'], ttl: 3600, urgency: 'high', utmSource: 'push', callToAction: 'Open',
        actions: [{ title: 'Scores', link: 'https://shop.example/scores' }], lang: 'en-GB',
      }),
    );
    const got = await eventually(async () => (messagesOf(id).length >= browsers.length ? messagesOf(id) : undefined), 60_000, 200);
    for (const b of browsers) {
      const message = got.find((m) => m.subscriptionId === b.id)!;
      const payload = JSON.parse(message.payload);
      expect(message.headers, b.id).to.deep.include({ ttl: 3600, urgency: 'high', topic: id.replace(/-/g, '') });
      if (!b.declarative) {
        expect(payload).to.include({ v: 1, id, url: 'https://shop.example/sale?utm_source=push', action: 'Open' });
        continue;
      }
      const token = payload.notification.data.token as string;
      expect(Object.keys(payload).sort()).to.deep.equal(['mutable', 'notification', 'web_push']);
      expect(payload).to.include({ web_push: 8030, mutable: true });
      expect(payload.notification).to.deep.include({
        title: 'Weekend sale', body: 'Everything is half price until Sunday', tag: id, lang: 'en-GB',
        navigate: `${publicUrl}/public/v1/r/${token}`,
        actions: [
          { action: 'open', title: 'Open', navigate: `${publicUrl}/public/v1/r/${token}` },
          { action: 'link-0', title: 'Scores', navigate: `${publicUrl}/public/v1/r/${token}?button=0` },
        ],
        data: { id, token },
      });
    }
  });

  it('when a declarative notification or one of its buttons is clicked, then the redirect counts one click and goes to the campaign\'s own link; anything else is 404', async () => {
    const id = await create(
      validCampaign({ status: 'published', topics: ['dwp'], link: 'https://shop.example/p?x=1', utmSource: 'push', actions: [{ title: 'Scores', link: 'https://shop.example/scores#live' }] }),
    );
    const got = await eventually(async () => (messagesOf(id).length >= browsers.length ? messagesOf(id) : undefined), 60_000, 200);
    const declarative = JSON.parse(got.find((m) => m.subscriptionId === browsers[0].id)!.payload).notification;
    expect(await redirect(declarative.navigate)).to.deep.equal({ status: 302, location: 'https://shop.example/p?x=1&utm_source=push' });
    expect(await redirect(declarative.actions[0].navigate)).to.deep.equal({ status: 302, location: 'https://shop.example/scores?utm_source=push#live' });
    for (const bad of ['?button=1', '?button=9', '?button=-1', '?button=x', '?button=', '?button=0&button=0']) {
      expect((await redirect(`${declarative.navigate}${bad}`)).status, bad).to.equal(404);
    }
    // Both clicks were the same subscriber's: one click, and no impression (no worker reported one).
    const analytics = await eventually(async () => {
      const a = (await get(id)).analytics;
      return a.clicks === 1 ? a : undefined;
    }, 20_000, 200);
    expect(analytics).to.include({ clicks: 1, impressions: 0 });
  });

  it('when each A/B variant has a link of its own, then the redirect of a subscriber goes to the link of the variant it was sent, not the campaign\'s', async () => {
    const id = await create(
      validCampaign({
        status: 'published', topics: ['dwp'], link: 'https://shop.example/campaign',
        abTest: { variants: [{ title: 'Variant A', link: 'https://shop.example/a' }, { title: 'Variant B', link: 'https://shop.example/b' }], testPercent: 100, winnerMetric: 'ctr', windowMinutes: 60 },
      }),
    );
    const got = await eventually(async () => (messagesOf(id).length >= browsers.length ? messagesOf(id) : undefined), 60_000, 200);
    for (const b of browsers) {
      const payload = JSON.parse(got.find((m) => m.subscriptionId === b.id)!.payload);
      // Either format: the worker's carries the token, the declarative one names its redirect.
      const title: string = payload.title ?? payload.notification.title;
      const token: string = payload.token ?? payload.notification.data.token;
      const expected = ({ 'Variant A': 'https://shop.example/a', 'Variant B': 'https://shop.example/b' } as Record<string, string>)[title];
      expect((await redirect(`${publicUrl}/public/v1/r/${token}`)).location, `${b.id} sent ${title}`).to.equal(expected);
    }
  });

  it('when VAPID_SUBJECT is one Apple refuses (the default mailto:push@localhost), then the delivery service warns at start and Apple\'s push service refuses every push: 403, counted unauthorized', async () => {
    expect(stack.logs.some((l) => l.includes('VAPID_SUBJECT will be refused by Safari') && l.includes('localhost is not a public domain name')), 'the start-up warning').to.equal(true);
    const safari = apple.createSubscription(site.vapidPublicKey);
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint: safari.endpoint, keys: safari.keys }, topics: ['safari'], declarative: true },
    });
    expect(res.status, res.text).to.equal(201);
    const id = await create(validCampaign({ status: 'published', topics: ['safari'] }));
    const c = await eventually(async () => {
      const got = await get(id);
      return got.delivery?.failed === 1 ? got : undefined;
    }, 60_000, 250);
    expect(c.delivery.failedBy).to.deep.include({ unauthorized: 1 });
    expect(apple.received()).to.deep.equal([]);
    expect(apple.stats().rejected.byReason).to.deep.equal({ BadJwtToken: 1 });
  });
});
