// The site plugin in Firefox, end to end with nothing standing in for the browser: Debian's
// headless Firefox ESR (support/firefox.ts) subscribes through its own push service (a local
// server speaking Mozilla autopush's WebSocket protocol, support/firefox-push-server.ts), the real
// stack encrypts each campaign for that subscription, the push server forwards it STILL
// ENCRYPTED, and Firefox decrypts it, runs the site's worker and shows the notification in its own
// window. The permission prompt and the notification are clicked as a user would (a native mouse
// event into Firefox's own windows). The only fake is the push service itself, and it never
// decrypts: it holds no subscription keys.
//
// Checked: the subscribe click and Firefox's "Allow"; a campaign decrypted and shown (title, body,
// icon, tag, the button; Firefox has no large image); the impression and a real click reaching
// analytics and the click opening the campaign link; a tampered push refused by Firefox (ack 101)
// and counted nowhere; `pushsubscriptionchange` as Firefox fires it (old subscription only) keeping
// the subscriber's topics; unsubscribing, with the preflight Firefox sends for the DELETE.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { freePort } from '@webpush/shared/ports.js';
import { FIREFOX, launchFirefox, type Firefox } from './support/firefox.js';
import { startFirefoxPushServer, type FirefoxPushServer, type ForwardedPush } from './support/firefox-push-server.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { startSite, type TestSite } from './support/site.js';
import { everyOption, readShownOptions } from './support/notification-options.js';
import { ALL, siteWithPermissions, type SiteInfo } from '../e2e/support/fixtures.js';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';

const WAIT_MS = 20_000;

interface ListedNotification {
  title: string;
  body: string;
  icon: string;
  image: string | null;
  tag: string;
  actions: { action: string; title: string }[];
  url: string;
}

describe('browser: the site plugin in headless Firefox, which decrypts our pushes itself', function () {
  this.timeout(240_000);
  let push: FirefoxPushServer;
  let stack: Stack;
  let proxy: RecordingProxy;
  let site: SiteInfo;
  let pool: Pool;
  let siteServer: TestSite | undefined;
  let firefox: Firefox | undefined;
  let page: Page;
  const browserLog: string[] = [];
  let endpoint = '';
  let campaignId = '';
  let landingUrl = '';

  const origin = () => siteServer!.origin;
  const state = () => page.evaluate(() => (globalThis as any).webpush?.state ?? 'absent');
  const waitForState = async (wanted: string[]) => {
    await page.waitForFunction((w: string[]) => w.includes((globalThis as any).webpush?.state ?? ''), { timeout: WAIT_MS }, wanted);
    return state();
  };
  const topics = async () => (await stack.api.request('GET', '/v2/topics', { key: site.apiKey })).body as { name: string; users: number }[];
  const campaign = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const subscriberRow = async (e: string) =>
    (await pool.query('SELECT topics, active FROM delivery.subscribers WHERE endpoint = $1', [e])).rows[0] as { topics: string[]; active: boolean } | undefined;
  const pageEndpoint = () =>
    page.evaluate(async () => {
      const reg = await (globalThis as any).navigator.serviceWorker.ready;
      return ((await reg.pushManager.getSubscription())?.endpoint as string | undefined) ?? null;
    });
  /** The notifications the worker shows, as Firefox lists them to the page. */
  const listed = (tag: string): Promise<ListedNotification[]> =>
    page.evaluate(async (t: string) => {
      const reg = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
      const shown: any[] = reg ? await reg.getNotifications({ tag: t }) : [];
      return shown.map((n) => ({
        title: n.title,
        body: n.body,
        icon: n.icon,
        image: n.image ?? null,
        tag: n.tag,
        actions: (n.actions ?? []).map((a: any) => ({ action: a.action, title: a.title })),
        url: n.data?.url,
      }));
    }, tag);
  const create = async (title: string, topic: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: { title, body: 'From the real stack', link: origin() + '/landing', topics: [topic], status: 'published', scheduleMode: 'now', ...extra },
    });
    expect(created.status, created.text).to.equal(200);
    return created.body.id as string;
  };
  /** The push forwarded to this endpoint's channel once Firefox has acked it. */
  const acked = (to: string, after: number): Promise<ForwardedPush> =>
    eventually(async () => push.forwarded().slice(after).find((f) => to.endsWith(`/${f.channelID}`) && f.ack !== undefined), 60_000, 100);
  const impressions = async (id: string) => (await campaign(id)).analytics?.impressions as number;

  before(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: run npm run browsers (Debian's firefox-esr package)`);
    push = await startFirefoxPushServer();
    // PUBLIC_URL: a Declarative Web Push message names the click redirect under it.
    const gatewayPort = await freePort();
    stack = await startStack('browser_firefox', { PUBLIC_URL: `http://127.0.0.1:${gatewayPort}` }, { gateway: gatewayPort });
    pool = createPool(stack.databaseUrl, { max: 2 });
    site = await siteWithPermissions(stack, ALL, 'firefox site');
    proxy = await startRecordingProxy(stack.services.gatewayUrl);
    siteServer = await startSite(proxy.url, site.publicId);
    firefox = await launchFirefox(push.url);
    page = await firefox.browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('console', (m) => browserLog.push(`[page ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => browserLog.push(`[page error] ${String(e)}`));
  });

  after(async () => {
    await firefox?.close().catch(() => {});
    await siteServer?.close();
    await proxy?.close();
    await pool?.end();
    await stack?.stop();
    await push?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(browserLog.slice(-30).join('\n'));
      console.log(JSON.stringify({ forwarded: push.forwarded(), refused: push.refused() }));
      console.log(stack.logs.slice(-30).join('\n'));
    }
  });

  it("on a click and Firefox's own \"Allow\", the snippet subscribes at Firefox's push service with the site VAPID key and registers the page topics", async () => {
    await page.goto(origin() + '/');
    expect(await waitForState(['default', 'error'])).to.equal('default');
    expect(await page.evaluate(() => (globalThis as any).Notification.permission)).to.equal('default');
    await page.click('#webpush-button');
    // The snippet asked from the click; Firefox shows its permission prompt, and the user allows.
    await firefox!.allowNotifications(WAIT_MS);
    expect(await waitForState(['subscribed', 'error']), browserLog.join('\n')).to.equal('subscribed');
    expect(await page.evaluate(() => (globalThis as any).Notification.permission)).to.equal('granted');

    endpoint = (await pageEndpoint()) ?? '';
    expect(push.subscriptions()).to.deep.equal([{ endpoint, applicationServerKey: site.vapidPublicKey }]);
    expect(await topics()).to.have.deep.members([
      { name: 'football', users: 1 },
      { name: 'local news', users: 1 },
      { name: 'sports', users: 1 },
    ]);
    expect(await subscriberRow(endpoint)).to.deep.include({ active: true });
  });

  it('a campaign sent through /v2 is decrypted by Firefox and shown (title, body, icon, tag, the button; no large image), and the impression reaches analytics', async () => {
    expect(endpoint, 'needs the subscription of the previous test').to.not.equal('');
    const link = origin() + '/landing';
    const before = push.forwarded().length;
    campaignId = await create('Final tonight', 'sports', {
      body: 'Kick-off at 8 pm, live on the site',
      icon: 'https://127.0.0.1:9/icon-192.png',
      image: 'https://127.0.0.1:9/stadium.jpg',
      callToAction: 'Watch live',
      utmSource: 'push',
      utmCampaign: 'final',
    });
    landingUrl = `${link}?utm_source=push&utm_campaign=final`;
    const delivered = await acked(endpoint, before);
    expect(delivered, 'Firefox decrypted and delivered it (ack 100)').to.include({ ack: 100, tampered: false });

    const shown = await eventually(async () => (await listed(campaignId))[0], WAIT_MS, 100);
    expect(shown).to.deep.equal({
      title: 'Final tonight',
      body: 'Kick-off at 8 pm, live on the site',
      icon: 'https://127.0.0.1:9/icon-192.png',
      // Firefox's Notification has no `image`: the large image is ignored.
      image: null,
      tag: campaignId,
      actions: [{ action: 'open', title: 'Watch live' }],
      url: landingUrl,
    });
    expect(await page.evaluate(() => (globalThis as any).Notification.maxActions), 'Firefox keeps up to two buttons').to.equal(2);
    expect(await eventually(async () => ((await firefox!.shownNotifications()).includes('Final tonight') ? true : undefined), WAIT_MS, 100)).to.equal(true);
    const counted = await eventually(async () => {
      const c = await campaign(campaignId);
      return c.analytics?.impressions === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 0 });
  });

  it("when the user clicks the notification in Firefox's window, then a tab opens on the campaign link with its UTM parameters, the notification closes and the click reaches analytics", async () => {
    expect(campaignId, 'needs the campaign of the previous test').to.not.equal('');
    const opened = firefox!.browser.waitForTarget((t) => t.url() === landingUrl, { timeout: WAIT_MS });
    await firefox!.clickNotification('Final tonight', WAIT_MS);
    const landing = await (await opened).page();
    expect(await landing?.title()).to.equal('Test page');
    await eventually(async () => ((await listed(campaignId)).length === 0 ? true : undefined), WAIT_MS, 100);
    const counted = await eventually(async () => {
      const c = await campaign(campaignId);
      return c.analytics?.clicks === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 1, ctr: 100 });
    await landing?.close();
  });

  it('a Declarative Web Push message, which this Firefox does not show itself, reaches the worker as an ordinary push and is shown from its notification; a click counts through the redirect', async () => {
    expect(endpoint, 'needs the subscription of the first test').to.not.equal('');
    // Firefox ESR 153 exposes no window.pushManager, so the snippet said it shows no declarative
    // pushes (docs/site-plugin.md, "Safari and Declarative Web Push"): the row is flagged here,
    // as Safari's would be, to send Firefox the declarative format.
    expect(await page.evaluate(() => 'pushManager' in globalThis)).to.equal(false);
    expect((await pool.query('SELECT declarative FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0].declarative).to.equal(false);
    await pool.query('UPDATE delivery.subscribers SET declarative = true WHERE endpoint = $1', [endpoint]);
    try {
      const before = push.forwarded().length;
      const id = await create('Declared tonight', 'sports', { callToAction: 'Watch', actions: [{ title: 'Scores', link: origin() + '/landing?from=scores' }], utmSource: 'push' });
      expect(await acked(endpoint, before), 'Firefox decrypted and delivered it (ack 100)').to.include({ ack: 100, tampered: false });
      const shown = await eventually(async () => (await listed(id))[0], WAIT_MS, 100);
      expect(shown).to.deep.include({ title: 'Declared tonight', body: 'From the real stack', tag: id, actions: [{ action: 'open', title: 'Watch' }, { action: 'link-0', title: 'Scores' }] });
      expect(shown.url, 'the worker opens the click redirect the message names').to.match(new RegExp(`^${stack.services.gatewayUrl}/public/v1/r/[A-Za-z0-9_-]{54}$`));
      await eventually(async () => ((await campaign(id)).analytics?.impressions === 1 ? true : undefined), 30_000, 250);
      const landing = `${origin()}/landing?utm_source=push`;
      const opened = firefox!.browser.waitForTarget((t) => t.url() === landing, { timeout: WAIT_MS });
      await firefox!.clickNotification('Declared tonight', WAIT_MS);
      await (await (await opened).page())?.close();
      const counted = await eventually(async () => {
        const c = await campaign(id);
        return c.analytics?.clicks === 1 ? c : undefined;
      }, 30_000, 250);
      expect(counted.analytics).to.include({ impressions: 1, clicks: 1 });
    } finally {
      await pool.query('UPDATE delivery.subscribers SET declarative = false WHERE endpoint = $1', [endpoint]);
    }
  });

  it('when one byte of a push is flipped on its way, then Firefox refuses it (ack 101): nothing is shown and nothing is counted', async () => {
    const before = push.forwarded().length;
    push.tamperNext();
    const tampered = await create('Tampered', 'sports');
    const refused = await acked(endpoint, before);
    expect(refused).to.include({ tampered: true, ack: 101 });

    // An intact campaign after it is shown and counted; the tampered one still is not.
    const intact = await create('Intact', 'sports');
    expect(await acked(endpoint, before + 1)).to.include({ tampered: false, ack: 100 });
    await eventually(async () => ((await impressions(intact)) === 1 ? true : undefined), 30_000, 250);
    expect(await listed(tampered)).to.deep.equal([]);
    expect(await firefox!.shownNotifications()).to.not.include('Tampered');
    expect((await campaign(tampered)).analytics).to.include({ impressions: 0, clicks: 0 });
  });

  it('a campaign with notification options and urgency high is pushed with Urgency: high, decrypted by Firefox and shown with each option its Notification has (both buttons, requireInteraction, silent, dir, lang)', async () => {
    const before = push.forwarded().length;
    const id = await create('Every option', 'sports', everyOption(origin()));
    expect(await acked(endpoint, before)).to.include({ ack: 100, tampered: false, urgency: 'high' });
    const shown = await eventually(async () => (await page.evaluate(readShownOptions, id))[0], WAIT_MS, 100);
    // What Firefox 153 ESR's Notification has (docs/site-plugin.md, "Browser support"): both
    // buttons, requireInteraction, silent, dir and lang; no badge, renotify, vibrate or timestamp.
    expect(shown).to.deep.equal({
      actions: [{ action: 'open', title: 'Watch' }, { action: 'link-0', title: 'Scores' }],
      badge: 'absent',
      requireInteraction: true,
      renotify: 'absent',
      silent: false,
      vibrate: 'absent',
      timestamp: 'absent',
      dir: 'rtl',
      lang: 'pt-BR',
      links: { 'link-0': origin() + '/landing?from=scores&utm_source=push' },
    });
    // Its own notification window (no desktop notification service here) draws no buttons: the
    // notification is clicked on its body, which opens the campaign link (the test above).
    expect(await firefox!.notificationButtons('Every option', WAIT_MS)).to.deep.equal([]);
    await eventually(async () => ((await impressions(id)) === 1 ? true : undefined), 30_000, 250);
  });

  it('when Firefox replaces the subscription (pushsubscriptionchange with the old subscription only), then the worker subscribes again, keeps the topics, and the next campaign reaches the new endpoint only', async () => {
    const old = endpoint;
    const before = await subscriberRow(old);
    expect(before?.active).to.equal(true);
    // The push server greets Firefox's reconnection with a new UAID: Firefox drops every
    // subscription and tells the worker, as when autopush has lost a client's record.
    await push.rotateUaid(WAIT_MS);
    const renewed = await eventually(async () => {
      const now = push.subscriptions();
      return now.length === 1 && now[0].endpoint !== old ? now[0] : undefined;
    }, WAIT_MS, 100);
    expect(renewed.applicationServerKey, 'subscribed again with the site key').to.equal(site.vapidPublicKey);
    const after = await eventually(async () => {
      const [next, prev] = [await subscriberRow(renewed.endpoint), await subscriberRow(old)];
      return next?.active && prev && !prev.active ? next : undefined;
    }, WAIT_MS, 100);
    expect(after.topics, 'topics kept').to.deep.equal(before!.topics);
    endpoint = renewed.endpoint;
    expect(await pageEndpoint()).to.equal(endpoint);

    const sent = push.forwarded().length;
    const id = await create('After the change', 'football');
    expect(await acked(endpoint, sent)).to.include({ ack: 100 });
    expect((await campaign(id)).totalUsers, 'one recipient: the new endpoint').to.equal(1);
    expect(push.refused().filter((r) => old.endsWith(`/${r.channelID}`)), 'nothing sent to the old endpoint').to.deep.equal([]);
    await eventually(async () => ((await impressions(id)) === 1 ? true : undefined), 30_000, 250);
  });

  it("when the visitor unsubscribes, then Firefox's push service drops the subscription, the server deactivates it (after the DELETE's CORS preflight) and the audience is empty", async () => {
    const sitePath = `/public/v1/sites/${encodeURIComponent(site.publicId)}/subscriptions`;
    const seen = proxy.requests().length;
    expect(await page.evaluate(() => (globalThis as any).webpush.unsubscribe())).to.equal('default');
    expect(await pageEndpoint()).to.equal(null);
    expect(push.subscriptions()).to.deep.equal([]);
    expect(push.unregistered().map((channel) => `${push.origin}/wpush/${channel}`)).to.include(endpoint);
    expect(await subscriberRow(endpoint)).to.deep.include({ active: false });
    // DELETE is not a CORS-safelisted method: Firefox asks first.
    expect(proxy.requests().slice(seen).filter((r) => r.path === sitePath)).to.deep.equal([
      { method: 'OPTIONS', path: sitePath, requestMethod: 'DELETE' },
      { method: 'DELETE', path: sitePath },
    ]);
    expect((await topics()).filter((t) => t.users > 0)).to.deep.equal([]);
  });
});
