// The site plugin in Chromium, end to end with nothing standing in for the browser: Debian's
// headless Chromium subscribes through its own GCM client, pointed by command-line switches at a
// local FCM (support/chromium-push-server.ts: checkin, registration and the MCS connection), the
// real stack encrypts each campaign for that subscription and POSTs it to the endpoint Chromium
// built (https://fcm.googleapis.com/… or, on Debian's non-stable channel, https://jmt17.google.com/…;
// the delivery service is routed to the local FCM for those names: PUSH_TEST_ROUTES), the push
// service forwards it STILL ENCRYPTED over MCS, and Chromium decrypts it, runs the site's worker
// and shows the notification on the stand-in desktop (support/notification-daemon.ts), from
// which the user's click comes. The only fake is the push service, and it never decrypts.
//
// Checked: the subscribe click registers at the push service with the site VAPID key; a
// campaign decrypted and shown (title, body, icon, image, tag, the button) and its impression
// counted; a click on the desktop's notification opens the campaign link and is counted; a
// tampered push refused by Chromium, shown nowhere and counted nowhere while the intact campaign
// after it is; every notification option and Urgency: high; unsubscribing deletes the
// registration at the push service.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { startChromiumPushServer, type ChromiumPushServer, type ForwardedPush } from './support/chromium-push-server.js';
import { DBUS_DAEMON, startNotificationDaemon, type DesktopNotification, type NotificationDaemon } from './support/notification-daemon.js';
import { everyOption, readShownOptions } from './support/notification-options.js';
import { startSite, type TestSite } from './support/site.js';
import { ALL, siteWithPermissions, type SiteInfo } from '../e2e/support/fixtures.js';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const WAIT_MS = 20_000;
/** Where Chromium builds its endpoints (push_messaging_constants.cc), by channel. */
const CHROMIUM_ENDPOINT = /^https:\/\/(fcm\.googleapis\.com|jmt17\.google\.com)(\/fcm\/send\/[^/]+)$/;

describe('browser: the site plugin in headless Chromium, which decrypts our pushes itself', function () {
  this.timeout(240_000);
  let push: ChromiumPushServer;
  let desktop: NotificationDaemon;
  let stack: Stack;
  let site: SiteInfo;
  let pool: Pool;
  let siteServer: TestSite | undefined;
  let userDataDir: string | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  const browserLog: string[] = [];
  let endpoint = '';
  let token = '';
  let campaignId = '';
  let landingUrl = '';

  const origin = () => siteServer!.origin;
  const state = () => page.evaluate(() => (globalThis as any).webpush?.state ?? 'absent');
  const waitForState = async (wanted: string[], timeoutMs = WAIT_MS) => {
    await page.waitForFunction((w) => w.includes((globalThis as any).webpush?.state ?? ''), wanted, { timeout: timeoutMs });
    return state();
  };
  const topics = async () => (await stack.api.request('GET', '/v2/topics', { key: site.apiKey })).body as { name: string; users: number }[];
  const campaign = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const impressions = async (id: string) => (await campaign(id)).analytics?.impressions as number;
  const subscriberRow = async (e: string) =>
    (await pool.query('SELECT topics, active FROM delivery.subscribers WHERE endpoint = $1', [e])).rows[0] as { topics: string[]; active: boolean } | undefined;
  const pageEndpoint = () =>
    page.evaluate(async () => {
      const reg = await (globalThis as any).navigator.serviceWorker.ready;
      return ((await reg.pushManager.getSubscription())?.endpoint as string | undefined) ?? null;
    });
  /** The notifications the worker showed, as Chromium lists them to the page. */
  const listed = (tag: string) =>
    page.evaluate(async (t) => {
      const reg = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
      const shown: any[] = reg ? await reg.getNotifications({ tag: t }) : [];
      return shown.map((n) => ({
        title: n.title,
        body: n.body,
        icon: n.icon,
        image: n.image,
        tag: n.tag,
        actions: (n.actions ?? []).map((a: any) => ({ action: a.action, title: a.title })),
        url: n.data?.url,
      }));
    }, tag);
  /** The notification as the desktop was asked to show it (the latest one with this title, still open). */
  const onDesktop = (title: string): Promise<DesktopNotification> =>
    eventually(async () => desktop.notifications().filter((n) => n.summary === title && !n.closed).at(-1), WAIT_MS, 50);
  const create = async (title: string, topic: string, extra: Record<string, unknown> = {}): Promise<string> => {
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: { title, body: 'From the real stack', link: origin() + '/landing', topics: [topic], status: 'published', scheduleMode: 'now', ...extra },
    });
    expect(created.status, created.text).to.equal(200);
    return created.body.id as string;
  };
  /** The next push the push service took for our subscription and wrote to Chromium's MCS connection. */
  const forwarded = (after: number): Promise<ForwardedPush> =>
    eventually(async () => push.forwarded().slice(after).find((f) => f.token === token && f.sent), 60_000, 100);

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run npm run browsers (Debian's chromium package)`);
    if (!existsSync(DBUS_DAEMON)) throw new Error(`${DBUS_DAEMON} is missing: run npm run browsers (Debian's dbus-daemon package)`);
    desktop = await startNotificationDaemon();
    push = await startChromiumPushServer();
    stack = await startStack('browser_chromium_push', {
      PUSH_EXTRA_CA_FILE: push.caCertFile,
      // No PUSH_SERVICE_HOSTS: the default lists jmt17.google.com, FCM for Chromium builds off
      // the stable channel (Debian's among them).
      PUSH_TEST_ROUTES: push.deliveryRoutes,
    });
    pool = createPool(stack.databaseUrl, { max: 2 });
    site = await siteWithPermissions(stack, ALL, 'chromium push site');
    siteServer = await startSite(stack.services.gatewayUrl, site.publicId);

    userDataDir = await mkdtemp(path.join(os.tmpdir(), 'webpush-chromium-push-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...push.chromiumArgs],
      timeout: 60_000,
      // Chromium shows notifications through the stand-in desktop's notification server.
      env: { ...process.env, ...desktop.env },
    });
    context.setDefaultTimeout(WAIT_MS);
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => browserLog.push(`[page ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => browserLog.push(`[page error] ${e.message}`));
  });

  after(async () => {
    await context?.close().catch(() => {});
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
    await siteServer?.close();
    await pool?.end();
    await stack?.stop();
    await push?.close();
    await desktop?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(browserLog.slice(-30).join('\n'));
      console.log(JSON.stringify({ checkins: push.checkins(), connected: push.connected(), subscriptions: push.subscriptions(), forwarded: push.forwarded(), refused: push.refused() }));
      console.log(stack.logs.slice(-30).join('\n'));
    }
  });

  it("on a click, the snippet subscribes at Chromium's own push service with the site VAPID key and registers the page topics", async () => {
    await page.goto(origin() + '/');
    expect(await waitForState(['default', 'error'])).to.equal('default');
    // The visitor's answer to the permission prompt: granted (the prompt comes from the click).
    await context!.grantPermissions(['notifications'], { origin: origin() });
    await page.click('#webpush-button');
    // The first subscription starts Chromium's GCM client: check-in, registration, MCS login.
    expect(await waitForState(['subscribed', 'error'], 60_000), browserLog.join('\n')).to.equal('subscribed');

    endpoint = (await pageEndpoint()) ?? '';
    const built = CHROMIUM_ENDPOINT.exec(endpoint);
    expect(built, `an endpoint Chromium builds: ${endpoint}`).to.not.equal(null);
    // Chromium checked in, registered an Instance ID token with the site key as sender, and
    // built the endpoint from that token.
    expect(push.checkins()).to.be.greaterThan(0);
    const subscriptions = push.subscriptions();
    expect(subscriptions.map((s) => ({ endpointPath: s.endpointPath, applicationServerKey: s.applicationServerKey, live: s.live }))).to.deep.equal([
      { endpointPath: built![2], applicationServerKey: site.vapidPublicKey, live: true },
    ]);
    expect(subscriptions[0].appId, "Chromium's app id for the worker's registration").to.match(new RegExp(`^wp:${origin().replace(/[.]/g, '\\.')}/#`));
    token = built![2].slice('/fcm/send/'.length);
    expect(await topics()).to.have.deep.members([
      { name: 'football', users: 1 },
      { name: 'local news', users: 1 },
      { name: 'sports', users: 1 },
    ]);
    expect(await subscriberRow(endpoint)).to.deep.include({ active: true });
  });

  it('a campaign sent through /v2 reaches the push service encrypted, is decrypted by Chromium and shown (title, body, icon, image, tag, the button), and the impression reaches analytics', async () => {
    expect(token, 'needs the subscription of the previous test').to.not.equal('');
    const before = push.forwarded().length;
    campaignId = await create('Final tonight', 'sports', {
      body: 'Kick-off at 8 pm, live on the site',
      icon: 'https://127.0.0.1:9/icon-192.png',
      image: 'https://127.0.0.1:9/stadium.jpg',
      callToAction: 'Watch live',
      utmSource: 'push',
      utmCampaign: 'final',
    });
    landingUrl = `${origin()}/landing?utm_source=push&utm_campaign=final`;
    // The push service verified the VAPID JWT against the subscription's key and forwarded it.
    expect(await forwarded(before)).to.include({ tampered: false, urgency: 'normal' });
    expect(push.refused()).to.deep.equal([]);

    // The desktop is asked to show it with its button (Chromium puts the origin above the body).
    const desk = await onDesktop('Final tonight');
    expect(desk.body).to.match(/\nKick-off at 8 pm, live on the site$/);
    expect(desk.actions.map((a) => a.label)).to.include('Watch live');
    const shown = await eventually(async () => (await listed(campaignId))[0], WAIT_MS, 100);
    expect(shown).to.deep.equal({
      title: 'Final tonight',
      body: 'Kick-off at 8 pm, live on the site',
      icon: 'https://127.0.0.1:9/icon-192.png',
      image: 'https://127.0.0.1:9/stadium.jpg',
      tag: campaignId,
      actions: [{ action: 'open', title: 'Watch live' }],
      url: landingUrl,
    });
    const counted = await eventually(async () => {
      const c = await campaign(campaignId);
      return c.analytics?.impressions === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 0 });
  });

  it("when the user clicks the notification's button on the desktop, then a tab opens on the campaign link with its UTM parameters and the click reaches analytics", async () => {
    expect(campaignId, 'needs the campaign of the previous test').to.not.equal('');
    const desk = await onDesktop('Final tonight');
    const opened = context!.waitForEvent('page', { timeout: WAIT_MS });
    desktop.click(desk.id, '0'); // the "Watch live" button
    const landing = await opened;
    await landing.waitForURL(landingUrl, { timeout: WAIT_MS });
    expect(await landing.title()).to.equal('Test page');
    await eventually(async () => ((await listed(campaignId)).length === 0 ? true : undefined), WAIT_MS, 100);
    const counted = await eventually(async () => {
      const c = await campaign(campaignId);
      return c.analytics?.clicks === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 1, ctr: 100 });
    await landing.close();
  });

  it('when one byte of a push is flipped on its way, then Chromium refuses it: nothing is shown and nothing is counted, while the intact campaign after it is', async () => {
    const before = push.forwarded().length;
    push.tamperNext();
    const tampered = await create('Tampered', 'sports');
    expect(await forwarded(before)).to.include({ tampered: true });

    // MCS delivers in order: once the intact campaign after it is shown and counted, Chromium has
    // had the tampered one.
    const intact = await create('Intact', 'sports');
    expect(await forwarded(before + 1)).to.include({ tampered: false });
    await onDesktop('Intact');
    await eventually(async () => ((await impressions(intact)) === 1 ? true : undefined), 30_000, 250);
    expect(await listed(tampered)).to.deep.equal([]);
    expect(desktop.notifications().map((n) => n.summary)).to.not.include('Tampered');
    // Chromium shows no "site updated in the background" stand-in either: the message never
    // reached the worker.
    expect(desktop.notifications().map((n) => n.summary)).to.deep.equal(['Final tonight', 'Intact']);
    expect((await campaign(tampered)).analytics).to.include({ impressions: 0, clicks: 0 });
  });

  it('a campaign with every notification option and urgency high reaches the push service with Urgency: high, is decrypted by Chromium and shown with every option and both buttons', async () => {
    const before = push.forwarded().length;
    const id = await create('Every option', 'sports', everyOption(origin()));
    expect(await forwarded(before)).to.include({ tampered: false, urgency: 'high' });
    const desk = await onDesktop('Every option');
    expect(desk.actions.filter((a) => a.key !== 'settings')).to.deep.equal([
      { key: '0', label: 'Watch' },
      { key: '1', label: 'Scores' },
      { key: 'default', label: 'Activate' },
    ]);
    // The same options as with the stand-in push service (site-plugin.test.ts), here after
    // Chromium's own decryption.
    const shown = await eventually(async () => (await page.evaluate(readShownOptions, id))[0], WAIT_MS, 100);
    expect(shown).to.deep.equal({
      actions: [{ action: 'open', title: 'Watch' }, { action: 'link-0', title: 'Scores' }],
      badge: 'https://127.0.0.1:9/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: false,
      vibrate: [200, 100, 200],
      timestamp: Date.parse('2026-12-05T10:00:00Z'),
      dir: 'rtl',
      lang: 'pt-BR',
      links: { 'link-0': origin() + '/landing?from=scores&utm_source=push' },
    });
    await eventually(async () => ((await impressions(id)) === 1 ? true : undefined), 30_000, 250);
  });

  it("when the visitor unsubscribes, then Chromium deletes its registration at the push service and the server deactivates the subscriber", async () => {
    expect(await page.evaluate(() => (globalThis as any).webpush.unsubscribe())).to.equal('default');
    expect(await pageEndpoint()).to.equal(null);
    await eventually(async () => (push.subscriptions().every((s) => !s.live) ? true : undefined), WAIT_MS, 100);
    expect(await subscriberRow(endpoint)).to.deep.include({ active: false });
    expect((await topics()).filter((t) => t.users > 0)).to.deep.equal([]);
  });
});
