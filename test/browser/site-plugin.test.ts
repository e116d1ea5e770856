// The site plugin in a real browser: Debian's headless Chromium driven by playwright-core loads
// a page on localhost with the two-line install, subscribes from a click, and shows a campaign
// the real stack sent; the impression and the click reach the campaign's analytics, the click
// opens the campaign link (or focuses the tab already on it), and a subscription the browser
// replaces is handed over so the next campaign reaches the new endpoint only; the site's own
// user id, signed by its server, links the subscription to that person and logout unlinks it.
//
// Chromium's own push path (its GCM client at a local FCM, decrypting itself) is
// chromium-push.test.ts. Here the push service is stood in for, to steer what that path cannot:
// - Left to itself, Chromium's GCM client checks in at Google, which a test does not reach, and
//   pushManager.subscribe() waits on it. The browser's push service (the outside world) is
//   replaced by the push simulator: an init script makes
//   PushManager.subscribe/getSubscription answer the simulator's subscription for the VAPID key
//   the snippet passes. The real stack then encrypts and sends the campaign to the simulator,
//   which decrypts it like a browser; that plaintext is what the delivery service built.
// - Push messages reach the service worker through the DevTools protocol
//   (ServiceWorker.deliverPushMessage), where a real browser would get them from its push service.
// - Nobody sits at a desktop: Chromium on Linux hands notifications to the desktop's
//   notification server over D-Bus and takes the user's click from it. A stand-in server on a
//   private session bus (support/notification-daemon.ts) receives what Chromium shows and
//   clicks it; Chromium then dispatches a real, trusted notificationclick, which may open or
//   focus a window as after a user's click. (A NotificationEvent dispatched from script may not:
//   "Not allowed to open a window".) No DevTools command clicks a notification.
// - The browser never replaces a subscription on its own during a test: pushsubscriptionchange
//   is dispatched inside the worker with the simulator's subscriptions as old and new
//   subscription, as the browser's push service would supply them.
// - Should a just-shown notification still be missing from getNotifications(), the push is
//   delivered again (bounded), as a push service may redeliver.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { createTrackingTokens, deriveTrackingKey } from '../../services/delivery/src/tracking/tracking-token.js';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { buildPushPayload, declarativePushPayloads, DEFAULT_NOTIFICATION_OPTIONS } from '@webpush/contracts/campaign-content.js';
import { clickUrls } from '../../services/delivery/src/tracking/click-url.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { DBUS_DAEMON, startNotificationDaemon, type DesktopNotification, type NotificationDaemon } from './support/notification-daemon.js';
import { fakePushService } from './support/fake-push-service.js';
import { everyOption, readShownOptions } from './support/notification-options.js';
import { startSite, type TestSite } from './support/site.js';
import { ALL, siteWithPermissions, type SiteInfo } from '../e2e/support/fixtures.js';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const WAIT_MS = 20_000;

interface ShownNotification {
  title: string;
  body: string;
  icon: string;
  image: string;
  tag: string;
  actions: { action: string; title: string }[];
  data: { id: string; url: string; token: string };
}

/** What the worker asked of clients.openWindow and WindowClient.focus, and what Chromium answered. */
interface WindowCall {
  call: 'openWindow' | 'focus';
  url: string;
  outcome: string;
  result?: string | null;
  focused?: boolean;
}

/** A simulator subscription as the browser's PushSubscription would carry it. */
type SimSubscription = { id: string; endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * A spy on the worker's clients.openWindow and WindowClient.focus: the real methods run, and
 * each call is recorded with Chromium's answer. Evaluates to the calls recorded so far (then
 * cleared), or null while one is unanswered. Plain JavaScript text, like fakePushService.
 */
const WINDOW_CALL_SPY = `(function () {
  var scope = self;
  if (!scope.__windowCalls) {
    scope.__windowCalls = [];
    var spy = function (proto, name, urlOf) {
      var real = proto[name];
      proto[name] = function () {
        var entry = { call: name, url: urlOf(this, arguments), outcome: 'pending' };
        scope.__windowCalls.push(entry);
        return real.apply(this, arguments).then(
          function (client) {
            entry.outcome = 'resolved';
            entry.result = client ? client.url : null;
            if (client && name === 'focus') entry.focused = client.focused;
            return client;
          },
          function (err) {
            entry.outcome = err.name + ': ' + err.message;
            throw err;
          }
        );
      };
    };
    spy(Clients.prototype, 'openWindow', function (_self, args) { return String(args[0]); });
    spy(WindowClient.prototype, 'focus', function (client) { return client.url; });
  }
  if (scope.__windowCalls.some(function (c) { return c.outcome === 'pending'; })) return null;
  return scope.__windowCalls.splice(0);
})()`;

/** JavaScript text for the worker: a PushSubscription-like object for a simulator subscription. */
function pushSubscriptionJs(sub: { endpoint: string; keys: unknown }, options = '{ userVisibleOnly: true, applicationServerKey: null }'): string {
  const json = JSON.stringify({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys });
  return `{ endpoint: ${JSON.stringify(sub.endpoint)}, expirationTime: null,
    options: ${options},
    toJSON: function () { return ${json}; } }`;
}

/**
 * Dispatches pushsubscriptionchange in the worker with these subscriptions, as the browser
 * would supply them (newSubscription null: the browser dropped the old one without a successor).
 */
function subscriptionChange(oldSub: { endpoint: string; keys: unknown }, newSub: { endpoint: string; keys: unknown } | null): string {
  return `(function () {
  var event = new ExtendableEvent('pushsubscriptionchange');
  Object.defineProperty(event, 'oldSubscription', { value: ${pushSubscriptionJs(oldSub)} });
  Object.defineProperty(event, 'newSubscription', { value: ${newSub ? pushSubscriptionJs(newSub) : 'null'} });
  self.dispatchEvent(event);
})()`;
}

/** The browser's push service inside the worker: subscribe() answers this simulator subscription and records its options. */
function workerPushService(sub: { endpoint: string; keys: unknown }): string {
  return `(function () {
  self.__subscribeCalls = [];
  PushManager.prototype.subscribe = function (options) {
    var key = new Uint8Array(options.applicationServerKey);
    var text = '';
    for (var i = 0; i < key.length; i++) text += String.fromCharCode(key[i]);
    self.__subscribeCalls.push({
      userVisibleOnly: options.userVisibleOnly,
      applicationServerKey: btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')
    });
    return Promise.resolve(${pushSubscriptionJs(sub, 'options')});
  };
})()`;
}

describe('browser: the site plugin in headless Chromium', function () {
  this.timeout(240_000);
  let sim: PushSimulator;
  let desktop: NotificationDaemon | undefined;
  let stack: Stack;
  let site: SiteInfo;
  let pool: Pool;
  let siteServer: TestSite | undefined;
  let userDataDir: string | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let cdp: CDPSession;
  let registrationId = '';
  let pushSub: SimSubscription;
  const browserLog: string[] = [];
  let campaignId = '';
  let campaignPayload = '';
  let landingUrl = '';
  let optionsCampaignId = '';
  let scoresUrl = '';
  /** The site's identity secret, as its server holds it (from the operators' CLI). */
  let identitySecret = '';

  const origin = () => siteServer!.origin;
  const state = () => page.evaluate(() => (globalThis as any).webpush?.state ?? 'absent');
  const waitForState = async (wanted: string[]) => {
    await page.waitForFunction((w) => w.includes((globalThis as any).webpush?.state ?? ''), wanted, { timeout: WAIT_MS });
    return state();
  };
  const topics = async () => (await stack.api.request('GET', '/v2/topics', { key: site.apiKey })).body as { name: string; users: number }[];
  const campaign = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const notifications = (tag: string): Promise<ShownNotification[]> =>
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
        data: n.data,
      }));
    }, tag);
  const shownOptions = (tag: string) => page.evaluate(readShownOptions, tag);
  const desktopShows = () => desktop!.calls().filter((c) => c === 'Notify').length;
  /**
   * Delivers a push through the DevTools protocol and waits for its notification. The browser's
   * list (getNotifications) is read only once the desktop was asked to show it: Chromium drops
   * from its store the notifications its display does not hold yet, so a read racing the display
   * could lose a notification the worker showed. Should it still be missing, the push is
   * delivered again (bounded), as a push service may redeliver (same tag: it replaces, never stacks).
   */
  const deliverAndShow = async (data: string, tag: string): Promise<ShownNotification> => {
    for (let attempt = 1; attempt <= 4; attempt++) {
      const before = desktopShows();
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: origin() + '/', registrationId, data });
      const displayed = await eventually(async () => (desktopShows() > before ? true : undefined), WAIT_MS, 50).catch(() => false);
      const shown = displayed ? await eventually(async () => (await notifications(tag))[0], 5_000, 100).catch(() => undefined) : undefined;
      if (shown) return shown;
      console.log(`      (headless Chromium did not ${displayed ? 'list' : 'display'} notification ${tag} after delivery ${attempt}; delivering again)`);
    }
    throw new Error(`notification ${tag} never listed after 4 deliveries`);
  };
  const serviceWorker = async (): Promise<Worker> =>
    eventually(async () => context!.serviceWorkers().find((w) => new URL(w.url()).pathname === '/webpush-sw.js'), WAIT_MS, 100);
  /** The notification as the desktop shows it (the latest one with this title, still open). */
  const onDesktop = (title: string): Promise<DesktopNotification> =>
    eventually(async () => desktop!.notifications().filter((n) => n.summary === title && !n.closed).at(-1), WAIT_MS, 50);
  /**
   * Records the worker's calls of clients.openWindow and WindowClient.focus and Chromium's
   * answers (a spy: the real methods run). Returns the calls recorded so far and clears them,
   * or null while Chromium has not answered one of them yet.
   */
  const windowCalls = async (): Promise<WindowCall[] | null> => (await serviceWorker()).evaluate(WINDOW_CALL_SPY);
  /** Waits for the worker's next window calls, answered. */
  const answeredWindowCalls = (): Promise<WindowCall[]> =>
    eventually(async () => {
      const calls = await windowCalls();
      return calls && calls.length > 0 ? calls : undefined;
    }, WAIT_MS, 50);
  /** Dispatches pushsubscriptionchange in the worker, with these subscriptions as the browser would supply them. */
  const changeSubscription = async (oldSub: SimSubscription, newSub: SimSubscription | null) =>
    (await serviceWorker()).evaluate(subscriptionChange(oldSub, newSub));
  const subscriberRow = async (endpoint: string) =>
    (await pool.query('SELECT topics, active FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0] as { topics: string[]; active: boolean } | undefined;
  /** Sends a campaign to the topic through the API and returns its id once `to` received it. */
  const sendCampaign = async (title: string, topic: string, to: SimSubscription): Promise<string> => {
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: { title, body: 'After the change', link: origin() + '/landing', topics: [topic], status: 'published', scheduleMode: 'now' },
    });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    await eventually(async () => sim.received(to.id).find((m) => JSON.parse(m.payload).id === id), 60_000, 200);
    return id;
  };
  const receivedCampaign = (sub: SimSubscription, id: string) => sim.received(sub.id).some((m) => JSON.parse(m.payload).id === id);

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run npm run browsers (Debian's chromium package)`);
    if (!existsSync(DBUS_DAEMON)) throw new Error(`${DBUS_DAEMON} is missing: run npm run browsers (Debian's dbus-daemon package)`);
    desktop = await startNotificationDaemon();
    sim = await startPushSimulator();
    stack = await startStack('browser_plugin', { PUSH_EXTRA_CA_FILE: sim.caCertFile });
    pool = createPool(stack.databaseUrl, { max: 2 });
    site = await siteWithPermissions(stack, ALL, 'browser site');
    pushSub = sim.createSubscription(site.vapidPublicKey);
    // The site's server signs its user ids as docs/people.md says: hex HMAC-SHA256 under the secret.
    siteServer = await startSite(stack.services.gatewayUrl, site.publicId, { sign: (id) => createHmac('sha256', identitySecret).update(id).digest('hex') });

    userDataDir = await mkdtemp(path.join(os.tmpdir(), 'webpush-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
      timeout: 60_000,
      // Chromium shows notifications through the stand-in desktop's notification server.
      env: { ...process.env, ...desktop.env },
    });
    context.setDefaultTimeout(WAIT_MS);
    await context.addInitScript({ content: fakePushService({ endpoint: pushSub.endpoint, keys: pushSub.keys }) });
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
    await sim?.close();
    await desktop?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(browserLog.slice(-30).join('\n'));
      console.log(stack.logs.slice(-30).join('\n'));
    }
  });

  it('the snippet registers the service worker and, on a click, subscribes with the site VAPID key and registers the page topics', async () => {
    await page.goto(origin() + '/');
    expect(await waitForState(['default', 'error'])).to.equal('default');
    const scriptUrl: string = await page.evaluate(async () => {
      const reg = await (globalThis as any).navigator.serviceWorker.ready;
      return reg.active?.scriptURL ?? '';
    });
    const registered = new URL(scriptUrl);
    expect(registered.origin + registered.pathname).to.equal(origin() + '/webpush-sw.js');
    expect(registered.searchParams.get('site')).to.equal(site.publicId);
    expect(registered.searchParams.get('api')).to.equal(`${stack.services.gatewayUrl}/public/v1/`);
    expect(await page.isVisible('#webpush-button')).to.equal(true);

    // The visitor's answer to the permission prompt: granted. The prompt itself only comes from
    // the click (a real user gesture), which the snippet turns into requestPermission().
    await context!.grantPermissions(['notifications'], { origin: origin() });
    await page.click('#webpush-button');
    const after = await waitForState(['subscribed', 'error']);
    expect(after, browserLog.join('\n')).to.equal('subscribed');
    expect(await page.isVisible('#webpush-button')).to.equal(false);

    const calls = JSON.parse((await page.evaluate(() => (globalThis as any).localStorage.getItem('fake-push:calls'))) ?? '[]');
    expect(calls).to.deep.equal([{ userVisibleOnly: true, applicationServerKey: site.vapidPublicKey }]);
    const asked = JSON.parse((await page.evaluate(() => (globalThis as any).localStorage.getItem('fake-push:permission-requests'))) ?? '[]');
    expect(asked, 'permission is asked once, from the click').to.deep.equal([{ userActivation: true }]);
    expect(await topics()).to.have.deep.members([
      { name: 'football', users: 1 },
      { name: 'local news', users: 1 },
      { name: 'sports', users: 1 },
    ]);
    const { rows } = await pool.query('SELECT language, time_zone, country, active FROM delivery.subscribers WHERE endpoint = $1', [pushSub.endpoint]);
    expect(rows).to.deep.equal([{ language: 'pt-BR', time_zone: 'America/Sao_Paulo', country: 'country__desconhecido', active: true }]);
  });

  it("when the subscriber reads another page, then that page's topics join theirs (page view)", async () => {
    await page.goto(origin() + '/politics');
    expect(await waitForState(['subscribed', 'error'])).to.equal('subscribed');
    expect(await page.isVisible('#webpush-button')).to.equal(false);
    const listed = await eventually(async () => {
      const all = await topics();
      return all.some((x) => x.name === 'politics') ? all : undefined;
    }, WAIT_MS, 200);
    expect(listed).to.deep.include({ name: 'politics', users: 1 });
    expect(listed).to.deep.include({ name: 'sports', users: 1 });
    const asked = JSON.parse((await page.evaluate(() => (globalThis as any).localStorage.getItem('fake-push:permission-requests'))) ?? '[]');
    expect(asked, 'no permission request without a gesture').to.have.length(1);
  });

  it("when a page of the site's logged-in user calls webpush('identify') with the id its server signed, then the subscription belongs to that person; a forged signature is refused; logout unlinks it", async () => {
    const shown = await stack.cli('sites', 'identity-secret', site.id);
    expect(shown.created).to.equal(true);
    identitySecret = shown.secret;
    const personOf = async () =>
      (
        await pool.query(
          `SELECT p.external_id FROM delivery.subscribers s JOIN delivery.person_subscriptions l ON l.subscriber_id = s.id JOIN delivery.people p ON p.id = l.person_id WHERE s.endpoint = $1`,
          [pushSub.endpoint],
        )
      ).rows.map((r) => r.external_id as string);
    const announced = () =>
      eventually(async () => {
        const seen = (await page.evaluate(() => (globalThis as any).__identity)) as unknown[];
        return seen.length > 0 ? seen : undefined;
      }, WAIT_MS, 100);

    await page.goto(origin() + '/account?user=' + encodeURIComponent('user-123'));
    expect(await announced()).to.deep.equal([{ externalId: 'user-123', identified: true }]);
    expect(await personOf()).to.deep.equal(['user-123']);
    expect(await state()).to.equal('subscribed');

    await page.goto(origin() + '/account?user=mallory&signature=' + createHmac('sha256', identitySecret).update('user-123').digest('hex'));
    expect(await announced()).to.deep.equal([{ externalId: 'mallory', error: 'signature does not match externalId' }]);
    expect(await personOf(), 'a forged id links nothing').to.deep.equal(['user-123']);

    await page.goto(origin() + '/account?user=' + encodeURIComponent('Ana María'));
    expect(await announced()).to.deep.equal([{ externalId: 'Ana María', identified: true }]);
    expect(await personOf(), 'identified again as another user: it moves').to.deep.equal(['Ana María']);

    await page.goto(origin() + '/logout');
    await eventually(async () => ((await personOf()).length === 0 ? true : undefined), WAIT_MS, 100);
    expect(await state()).to.equal('subscribed');
  });

  it('a campaign sent by the real stack is shown with its title, body, icon, image and button, tagged with its id, and the impression reaches analytics', async () => {
    const link = origin() + '/landing';
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: {
        title: 'Final tonight',
        body: 'Kick-off at 8 pm, live on the site',
        link,
        topics: ['sports'],
        status: 'published',
        scheduleMode: 'now',
        icon: 'https://127.0.0.1:9/icon-192.png',
        image: 'https://127.0.0.1:9/stadium.jpg',
        callToAction: 'Watch live',
        utmSource: 'push',
        utmCampaign: 'final',
      },
    });
    expect(created.status, created.text).to.equal(200);
    campaignId = created.body.id;
    landingUrl = `${link}?utm_source=push&utm_campaign=final`;

    // What the delivery service sent to this browser's push service, decrypted.
    const message = await eventually(async () => sim.received(pushSub.id).find((m) => JSON.parse(m.payload).id === campaignId), 60_000, 200);
    const payload = JSON.parse(message.payload);
    campaignPayload = message.payload;
    const subscriberId = (await pool.query('SELECT id::text AS id FROM delivery.subscribers WHERE endpoint = $1', [pushSub.endpoint])).rows[0].id;
    const tokens = createTrackingTokens(deriveTrackingKey(Buffer.from(stack.vapidEncryptionKey, 'base64')));
    expect(tokens.verify(payload.token)).to.deep.equal({ campaignId, subscriberId });
    // Its time is the moment the delivery service sent it.
    expect(payload.timestamp).to.be.within(message.receivedAt - 60_000, message.receivedAt);
    expect(message.payload).to.equal(
      buildPushPayload(campaignId, {
        title: 'Final tonight',
        body: 'Kick-off at 8 pm, live on the site',
        link,
        utmSource: 'push',
        utmMedium: '',
        utmCampaign: 'final',
        icon: 'https://127.0.0.1:9/icon-192.png',
        image: 'https://127.0.0.1:9/stadium.jpg',
        callToAction: 'Watch live',
      }, payload.token, payload.timestamp),
    );

    cdp = await context!.newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
        const mine = event.registrations.find((r) => !r.isDeleted && r.scopeURL === origin() + '/');
        if (mine) resolve(mine.registrationId);
      });
    });
    cdp.on('ServiceWorker.workerErrorReported', (e) => browserLog.push('[sw error] ' + JSON.stringify(e)));
    await cdp.send('ServiceWorker.enable');
    let timer: NodeJS.Timeout | undefined;
    try {
      registrationId = await Promise.race([
        registration,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no service worker registration reported')), WAIT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    expect(await notifications(campaignId)).to.deep.equal([]);
    const shown = await deliverAndShow(message.payload, campaignId);
    expect(shown).to.deep.equal({
      title: 'Final tonight',
      body: 'Kick-off at 8 pm, live on the site',
      icon: 'https://127.0.0.1:9/icon-192.png',
      image: 'https://127.0.0.1:9/stadium.jpg',
      tag: campaignId,
      actions: [{ action: 'open', title: 'Watch live' }],
      data: { id: campaignId, url: landingUrl, token: payload.token },
    });
    // What the desktop was asked to show: the title, the body under the site's name, the
    // button, and the body itself clickable ("default").
    const desk = await onDesktop('Final tonight');
    expect(desk.body).to.equal(`${new URL(origin()).host}\n\nKick-off at 8 pm, live on the site`);
    expect(desk.actions.filter((a) => a.key !== 'settings')).to.deep.equal([
      { key: '0', label: 'Watch live' },
      { key: 'default', label: 'Activate' },
    ]);

    const counted = await eventually(async () => {
      const c = await campaign(campaignId);
      return c.analytics?.impressions === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 0 });
  });

  it('when the button is clicked and no tab is on the campaign link, then a new tab opens on the link with its UTM parameters, the notification closes and the click reaches analytics', async () => {
    expect(campaignId, 'needs the campaign of the previous test').to.not.equal('');
    expect(context!.pages().map((p) => p.url())).to.not.include(landingUrl);
    expect(await windowCalls()).to.deep.equal([]); // installs the spy
    const desk = await onDesktop('Final tonight');
    const opened = context!.waitForEvent('page', { timeout: WAIT_MS });
    desktop!.click(desk.id, '0'); // the "Watch live" button
    const landing = await opened;
    await landing.waitForURL(landingUrl, { timeout: WAIT_MS });
    expect(landing.url()).to.equal(landingUrl);
    expect(await landing.title()).to.equal('Test page');
    expect(await answeredWindowCalls()).to.deep.equal([{ call: 'openWindow', url: landingUrl, outcome: 'resolved', result: landingUrl }]);
    await eventually(async () => ((await notifications(campaignId)).length === 0 ? true : undefined), WAIT_MS, 100);
    expect(desktop!.notifications().find((n) => n.id === desk.id)?.closed).to.equal(true);

    const counted = await eventually(async () => {
      const c = await campaign(campaignId);
      return c.analytics?.clicks === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 1, ctr: 100 });
  });

  it('when a tab is already on the campaign link, then a click on the notification focuses that tab and opens none', async () => {
    expect(landingUrl, 'needs the tab opened by the previous test').to.not.equal('');
    const tabs = context!.pages().map((p) => p.url());
    expect(tabs).to.include(landingUrl);
    // The same campaign again (a push service may redeliver): shown again, clicked on its body.
    await deliverAndShow(campaignPayload, campaignId);
    const desk = await onDesktop('Final tonight');
    const newPages: string[] = [];
    const onPage = (p: Page) => newPages.push(p.url());
    context!.on('page', onPage);
    try {
      desktop!.click(desk.id, 'default');
      // Chromium granted the focus (a refused one rejects with InvalidAccessError) to the tab on the link.
      expect(await answeredWindowCalls()).to.deep.equal([{ call: 'focus', url: landingUrl, outcome: 'resolved', result: landingUrl, focused: true }]);
      await eventually(async () => ((await notifications(campaignId)).length === 0 ? true : undefined), WAIT_MS, 100);
    } finally {
      context!.off('page', onPage);
    }
    expect(newPages).to.deep.equal([]);
    expect(context!.pages().map((p) => p.url())).to.deep.equal(tabs);
  });

  it('when a campaign has no button text and no image, then the notification has no action button and no image', async () => {
    expect(campaignId, 'needs the campaign of an earlier test').to.not.equal('');
    const subscriberId = (await pool.query('SELECT id::text AS id FROM delivery.subscribers WHERE endpoint = $1', [pushSub.endpoint])).rows[0].id;
    const tokens = createTrackingTokens(deriveTrackingKey(Buffer.from(stack.vapidEncryptionKey, 'base64')));
    const data = buildPushPayload(campaignId, {
      title: 'Plain',
      body: 'No button here',
      link: origin() + '/landing',
      utmSource: '',
      utmMedium: '',
      utmCampaign: '',
      icon: null,
      image: null,
      callToAction: '',
    }, tokens.sign({ campaignId, subscriberId }), Date.now());
    const shown = await deliverAndShow(data, campaignId);
    expect(shown).to.include({ title: 'Plain', body: 'No button here', icon: '', image: '', tag: campaignId });
    expect(shown.actions).to.deep.equal([]);
    expect(shown.data.url).to.equal(origin() + '/landing');
  });

  it('a Declarative Web Push message, which Chromium does not show itself, is shown by the worker from its notification (buttons, options) with the tracking redirect as its link', async () => {
    expect(campaignId, 'needs the campaign of an earlier test').to.not.equal('');
    const subscriberId = (await pool.query('SELECT id::text AS id FROM delivery.subscribers WHERE endpoint = $1', [pushSub.endpoint])).rows[0].id;
    const token = createTrackingTokens(deriveTrackingKey(Buffer.from(stack.vapidEncryptionKey, 'base64'))).sign({ campaignId, subscriberId });
    const redirect = `${stack.services.gatewayUrl}/public/v1/r/${token}`;
    const content = {
      title: 'Declared', body: 'Shown by the worker', link: origin() + '/landing', utmSource: '', utmMedium: '', utmCampaign: '',
      icon: null, image: null, callToAction: 'Watch',
      options: { ...DEFAULT_NOTIFICATION_OPTIONS, actions: [{ title: 'Scores', link: origin() + '/landing?from=scores' }], requireInteraction: true, lang: 'pt-BR' },
    };
    const data = declarativePushPayloads(campaignId, content, Date.now(), clickUrls(stack.services.gatewayUrl))(token);
    expect(JSON.parse(data)).to.include({ web_push: 8030, mutable: true });
    const shown = await deliverAndShow(data, campaignId);
    expect(shown).to.include({ title: 'Declared', body: 'Shown by the worker', tag: campaignId });
    expect(shown.actions).to.deep.equal([{ action: 'open', title: 'Watch' }, { action: 'link-0', title: 'Scores' }]);
    expect(shown.data).to.deep.include({ id: campaignId, token, url: redirect, links: { 'link-0': `${redirect}?button=0` } });
    expect((await shownOptions(campaignId))[0]).to.deep.include({ requireInteraction: true, lang: 'pt-BR' });
  });

  it('a campaign with every notification option and urgency high is pushed with Urgency: high and shown with each option Chromium has: two buttons, badge, requireInteraction, renotify, vibrate, timestamp, dir, lang', async () => {
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: {
        title: 'Every option',
        body: 'Two buttons and more',
        link: origin() + '/landing',
        topics: ['sports'],
        status: 'published',
        scheduleMode: 'now',
        ...everyOption(origin()),
      },
    });
    expect(created.status, created.text).to.equal(200);
    optionsCampaignId = created.body.id;
    const message = await eventually(async () => sim.received(pushSub.id).find((m) => JSON.parse(m.payload).id === optionsCampaignId), 60_000, 200);
    expect(message.headers.urgency, 'the Urgency header of the campaign').to.equal('high');
    scoresUrl = origin() + '/landing?from=scores&utm_source=push';
    expect(JSON.parse(message.payload)).to.deep.include({
      action: 'Watch',
      actions: [{ title: 'Scores', url: scoresUrl }],
      badge: 'https://127.0.0.1:9/badge.png',
      requireInteraction: true,
      renotify: true,
      vibrate: [200, 100, 200],
      timestamp: Date.parse('2026-12-05T10:00:00Z'),
      dir: 'rtl',
      lang: 'pt-BR',
    });

    await deliverAndShow(message.payload, optionsCampaignId);
    expect((await shownOptions(optionsCampaignId))[0]).to.deep.equal({
      actions: [{ action: 'open', title: 'Watch' }, { action: 'link-0', title: 'Scores' }],
      badge: 'https://127.0.0.1:9/badge.png',
      requireInteraction: true,
      renotify: true,
      silent: false,
      vibrate: [200, 100, 200],
      timestamp: Date.parse('2026-12-05T10:00:00Z'),
      dir: 'rtl',
      lang: 'pt-BR',
      links: { 'link-0': scoresUrl },
    });
    const desk = await onDesktop('Every option');
    expect(desk.actions.filter((a) => a.key !== 'settings')).to.deep.equal([
      { key: '0', label: 'Watch' },
      { key: '1', label: 'Scores' },
      { key: 'default', label: 'Activate' },
    ]);
    await eventually(async () => ((await campaign(optionsCampaignId)).analytics?.impressions === 1 ? true : undefined), 30_000, 250);
  });

  it("when the campaign's own button is clicked, then a tab opens on that button's link with the UTM parameters, and the click reaches analytics once", async () => {
    expect(optionsCampaignId, 'needs the campaign of the previous test').to.not.equal('');
    await windowCalls(); // clears what earlier tests left
    const desk = await onDesktop('Every option');
    const opened = context!.waitForEvent('page', { timeout: WAIT_MS });
    desktop!.click(desk.id, '1'); // "Scores"
    const tab = await opened;
    await tab.waitForURL(scoresUrl, { timeout: WAIT_MS });
    expect(await answeredWindowCalls()).to.deep.equal([{ call: 'openWindow', url: scoresUrl, outcome: 'resolved', result: scoresUrl }]);
    await eventually(async () => ((await notifications(optionsCampaignId)).length === 0 ? true : undefined), WAIT_MS, 100);
    const counted = await eventually(async () => {
      const c = await campaign(optionsCampaignId);
      return c.analytics?.clicks === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 1 });
    await tab.close();
  });

  it('a silent campaign with two buttons of its own (no callToAction) is shown silent, with both buttons and the moment it was sent as its time', async () => {
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: {
        title: 'Silent one',
        body: 'No sound, two links',
        link: origin() + '/landing',
        topics: ['sports'],
        status: 'published',
        scheduleMode: 'now',
        silent: true,
        actions: [{ title: 'First', link: origin() + '/landing?b=1' }, { title: 'Second', link: origin() + '/landing?b=2' }],
      },
    });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    const message = await eventually(async () => sim.received(pushSub.id).find((m) => JSON.parse(m.payload).id === id), 60_000, 200);
    expect(message.headers.urgency, 'a campaign without urgency: normal').to.equal('normal');
    const sentAt = JSON.parse(message.payload).timestamp as number;
    expect(sentAt).to.be.within(message.receivedAt - 60_000, message.receivedAt);
    await deliverAndShow(message.payload, id);
    expect((await shownOptions(id))[0]).to.deep.equal({
      actions: [{ action: 'link-0', title: 'First' }, { action: 'link-1', title: 'Second' }],
      badge: '',
      requireInteraction: false,
      renotify: false,
      silent: true,
      vibrate: [],
      timestamp: sentAt,
      dir: 'auto',
      lang: '',
      links: { 'link-0': origin() + '/landing?b=1', 'link-1': origin() + '/landing?b=2' },
    });
    expect((await onDesktop('Silent one')).actions.filter((a) => a.key !== 'settings').map((a) => a.label)).to.deep.equal(['First', 'Second', 'Activate']);
  });

  it('when the browser replaces the subscription (pushsubscriptionchange with the new one), then the worker registers it with the old topics, and the next campaign reaches the new endpoint only', async () => {
    const before = await subscriberRow(pushSub.endpoint);
    expect(before?.active).to.equal(true);
    expect(before?.topics).to.include.members(['politics', 'sports']);
    const replacement = sim.createSubscription(site.vapidPublicKey);
    await changeSubscription(pushSub, replacement);

    const after = await eventually(async () => {
      const [next, old] = [await subscriberRow(replacement.endpoint), await subscriberRow(pushSub.endpoint)];
      return next?.active && old && !old.active ? { next, old } : undefined;
    }, WAIT_MS, 100);
    expect(after.next.topics, 'topics kept').to.deep.equal(before!.topics);
    const { rows } = await pool.query('SELECT language, time_zone FROM delivery.subscribers WHERE endpoint = $1', [replacement.endpoint]);
    expect(rows).to.deep.equal([{ language: 'pt-BR', time_zone: 'America/Sao_Paulo' }]);

    // "politics" came from a page view of the old subscription: still this subscriber's topic.
    const id = await sendCampaign('After the change', 'politics', replacement);
    expect((await campaign(id)).totalUsers, 'one recipient: the new endpoint').to.equal(1);
    expect(receivedCampaign(pushSub, id), 'the old endpoint gets nothing').to.equal(false);
    pushSub = replacement;
  });

  it('when the browser drops the subscription without a new one, then the worker subscribes again with the site VAPID key and hands the topics over', async () => {
    const old = pushSub;
    const before = await subscriberRow(old.endpoint);
    expect(before?.active).to.equal(true);
    const third = sim.createSubscription(site.vapidPublicKey);
    // The browser's push service, in the worker: subscribe() answers the simulator's subscription.
    await (await serviceWorker()).evaluate(workerPushService(third));
    await changeSubscription(old, null);

    const after = await eventually(async () => {
      const [next, prev] = [await subscriberRow(third.endpoint), await subscriberRow(old.endpoint)];
      return next?.active && prev && !prev.active ? { next, prev } : undefined;
    }, WAIT_MS, 100);
    expect(await (await serviceWorker()).evaluate(() => (globalThis as any).__subscribeCalls)).to.deep.equal([
      { userVisibleOnly: true, applicationServerKey: site.vapidPublicKey },
    ]);
    expect(after.next.topics, 'topics kept').to.deep.equal(before!.topics);

    const id = await sendCampaign('After the second change', 'sports', third);
    expect((await campaign(id)).totalUsers).to.equal(1);
    expect(receivedCampaign(old, id)).to.equal(false);
    pushSub = third;
  });

  it('when a shown campaign is corrected and then recalled, then the correction replaces it in place (the same desktop notification, the same tag) and the recall closes it', async () => {
    const id = await sendCampaign('Match moved', 'sports', pushSub);
    const first = sim.received(pushSub.id).find((m) => JSON.parse(m.payload).id === id)!;
    await deliverAndShow(first.payload, id);
    const before = await onDesktop('Match moved');
    // 409 until the campaign's counters say it has finished sending, then the revision.
    const revise = (action: 'update' | 'recall', body: Record<string, unknown>) =>
      eventually(async () => {
        const res = await stack.api.request('POST', `/v2/campaign/${id}/${action}`, { key: site.apiKey, body });
        return res.status === 409 ? undefined : res;
      }, 30_000, 250);
    const revisionOf = (match: (p: Record<string, unknown>) => boolean) =>
      eventually(async () => sim.received(pushSub.id).find((m) => { const p = JSON.parse(m.payload); return p.id === id && match(p); }), 60_000, 200);

    expect((await revise('update', { title: 'Match moved to 9 pm' })).status).to.equal(200);
    const correction = await revisionOf((p) => p.revision === 1);
    const shown = await deliverAndShow(correction.payload, id);
    expect(shown).to.deep.include({ title: 'Match moved to 9 pm', body: 'After the change', tag: id });
    expect(await notifications(id)).to.have.length(1);
    const after = await onDesktop('Match moved to 9 pm');
    expect(after.id, 'the desktop replaced its notification in place').to.equal(before.id);

    expect((await revise('recall', {})).status).to.equal(200);
    const recall = await revisionOf((p) => p.recall === true);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: origin() + '/', registrationId, data: recall.payload });
    await eventually(async () => ((await notifications(id)).length === 0 ? true : undefined), WAIT_MS, 100);
    await eventually(async () => (desktop!.notifications().find((n) => n.id === after.id)?.closed ? true : undefined), WAIT_MS, 50);
    // What Chromium did about a push that showed nothing, with a tab of the site visible (docs/site-plugin.md, "Update and recall").
    const generic = desktop!.notifications().filter((n) => !n.closed && /background/i.test(n.summary + n.body));
    console.log(`      recall: Chromium ${generic.length ? `showed its own notification: ${JSON.stringify(generic[0].summary)}` : 'showed nothing of its own'}`);
  });

  it('when Chromium denies the notification permission a click asked for, then the snippet says denied and the opt-in funnel counts it for the site button, beside the subscription the first click made', async () => {
    // Another origin of the same site server, whose permission is still undecided when the page loads.
    const other = origin().replace('localhost', '127.0.0.1');
    const session = await context!.newCDPSession(page);
    await session.send('Browser.setPermission', { permission: { name: 'notifications' }, setting: 'prompt', origin: other });
    await page.goto(other + '/');
    expect(await waitForState(['default', 'error'])).to.equal('default');
    // The visitor's answer, before the click asks: Chromium answers requestPermission() with it.
    await session.send('Browser.setPermission', { permission: { name: 'notifications' }, setting: 'denied', origin: other });
    await page.click('#webpush-button');
    expect(await waitForState(['denied', 'error'])).to.equal('denied');
    const funnel = await eventually(async () => {
      const res = await stack.api.request('GET', '/v2/optin/funnel', { key: site.apiKey });
      expect(res.status, res.text).to.equal(200);
      return res.body.totals.denied === 1 ? res.body : undefined;
    }, WAIT_MS, 200);
    expect(funnel.prompts).to.deep.equal([{ promptId: 'site', shown: 0, accepted: 0, dismissed: 0, denied: 1, subscribed: 1, unsubscribed: 0, acceptRate: null, subscribeRate: null }]);
    await session.detach();
  });
});
