// A campaign's own buttons in Firefox, clicked as on a desktop. Firefox's own notification
// window (firefox.test.ts: no desktop notification service) draws no buttons; on a Linux desktop
// Firefox hands its notifications, buttons included, to the desktop's notification server through
// libnotify (`alerts.useSystemBackend`). Here that server is the stand-in of the Chromium suite
// (support/notification-daemon.ts, on a private D-Bus session bus): it records what Firefox asks it
// to show and clicks a button as a user would, and Firefox dispatches a trusted
// notificationclick with that button's action. Firefox decrypts our pushes itself, from its push
// service (support/firefox-push-server.ts), as in firefox.test.ts.
//
// Checked: a campaign with a callToAction and a button of its own (`actions`), sent at urgency
// low, reaches Firefox's push service with that Urgency and is shown on the desktop with both
// buttons; a click on its own button opens that button's link with the UTM parameters, closes the
// notification and counts the campaign's click once.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { FIREFOX, launchFirefox, type Firefox } from './support/firefox.js';
import { startFirefoxPushServer, type FirefoxPushServer } from './support/firefox-push-server.js';
import { DBUS_DAEMON, startNotificationDaemon, type NotificationDaemon } from './support/notification-daemon.js';
import { startSite, type TestSite } from './support/site.js';
import { ALL, siteWithPermissions, type SiteInfo } from '../e2e/support/fixtures.js';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';

const WAIT_MS = 20_000;

describe('browser: Firefox on a desktop (libnotify), the buttons of a notification', function () {
  this.timeout(240_000);
  let desktop: NotificationDaemon;
  let push: FirefoxPushServer;
  let stack: Stack;
  let site: SiteInfo;
  let siteServer: TestSite | undefined;
  let firefox: Firefox | undefined;
  let page: Page;
  const browserLog: string[] = [];

  const origin = () => siteServer!.origin;
  const campaign = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const listed = (tag: string): Promise<number> =>
    page.evaluate(async (t: string) => {
      const reg = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
      return reg ? (await reg.getNotifications({ tag: t })).length : 0;
    }, tag);

  before(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: run npm run browsers (Debian's firefox-esr package)`);
    if (!existsSync(DBUS_DAEMON)) throw new Error(`${DBUS_DAEMON} is missing: run npm run browsers (Debian's dbus-daemon package)`);
    desktop = await startNotificationDaemon();
    push = await startFirefoxPushServer();
    stack = await startStack('browser_firefox_desktop');
    site = await siteWithPermissions(stack, ALL, 'firefox desktop site');
    siteServer = await startSite(stack.services.gatewayUrl, site.publicId);
    // Firefox shows its notifications on the desktop (libnotify, npm run browsers installs it).
    firefox = await launchFirefox(push.url, desktop.env, { 'alerts.useSystemBackend': true });
    page = await firefox.browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('console', (m) => browserLog.push(`[page ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => browserLog.push(`[page error] ${String(e)}`));
  });

  after(async () => {
    await firefox?.close().catch(() => {});
    await siteServer?.close();
    await stack?.stop();
    await push?.close();
    await desktop?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(browserLog.slice(-30).join('\n'));
      console.log(JSON.stringify({ desktop: desktop.notifications(), calls: desktop.calls(), forwarded: push.forwarded() }));
      console.log(stack.logs.slice(-30).join('\n'));
    }
  });

  it("a campaign's own button, drawn by the desktop, opens its own link with the UTM parameters and counts the campaign's click once", async () => {
    await page.goto(origin() + '/');
    await page.waitForFunction(() => ['default', 'error'].includes((globalThis as any).webpush?.state ?? ''), { timeout: WAIT_MS });
    await page.click('#webpush-button');
    await firefox!.allowNotifications(WAIT_MS);
    await page.waitForFunction(() => (globalThis as any).webpush?.state === 'subscribed', { timeout: WAIT_MS });

    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: {
        title: 'Two buttons',
        body: 'Watch, or see the scores',
        link: origin() + '/landing',
        topics: ['sports'],
        status: 'published',
        scheduleMode: 'now',
        callToAction: 'Watch',
        actions: [{ title: 'Scores', link: origin() + '/landing?from=scores' }],
        utmSource: 'push',
        urgency: 'low',
      },
    });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    expect((await eventually(async () => push.forwarded().find((f) => f.ack !== undefined), 60_000, 100)).urgency, "the campaign's Urgency").to.equal('low');

    const shown = await eventually(async () => desktop.notifications().find((n) => n.summary === 'Two buttons' && !n.closed), WAIT_MS, 50);
    // Firefox suffixes each action's key with "-moz"; the body is "default".
    expect(shown.actions).to.deep.equal([
      { key: 'default', label: 'Activate' },
      { key: 'open-moz', label: 'Watch' },
      { key: 'link-0-moz', label: 'Scores' },
    ]);
    await eventually(async () => ((await campaign(id)).analytics?.impressions === 1 ? true : undefined), 30_000, 250);

    const scoresUrl = origin() + '/landing?from=scores&utm_source=push';
    const opened = firefox!.browser.waitForTarget((t) => t.url() === scoresUrl, { timeout: WAIT_MS });
    desktop.click(shown.id, 'link-0-moz');
    const tab = await (await opened).page();
    expect(await tab?.title()).to.equal('Test page');
    await eventually(async () => ((await listed(id)) === 0 ? true : undefined), WAIT_MS, 100);
    const counted = await eventually(async () => {
      const c = await campaign(id);
      return c.analytics?.clicks === 1 ? c : undefined;
    }, 30_000, 250);
    expect(counted.analytics).to.include({ impressions: 1, clicks: 1 });
  });
});
