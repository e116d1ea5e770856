// The site plugin's opt-in prompt in a real Firefox (issue 39: "checked from outside in a real
// Firefox and Chromium"; optin-prompt.test.ts is the Chromium side), with nothing standing in for
// the browser: Debian's headless Firefox ESR (support/firefox.ts) over WebDriver BiDi, subscribing
// at its own push service (support/firefox-push-server.ts), the visitor's "Allow" clicked in
// Firefox's own permission doorhanger. The site's editor sets a slide-down through the console API,
// shown from the first page view.
//
// Checked: the prompt appears, axe-core finds no violation of any impact in it, the focus is in it;
// then by keyboard only (a topic unchecked, Tab to the accept button, Enter) Firefox's own
// permission prompt comes up from that key press, the snippet subscribes at Firefox's push service,
// the subscriber keeps the chosen topic and not the other, and the funnel counts the slide-down
// shown, accepted and subscribed. On a second site, Escape is "not now": the next page shows none.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { FIREFOX, launchFirefox, type Firefox } from './support/firefox.js';
import { startFirefoxPushServer, type FirefoxPushServer } from './support/firefox-push-server.js';
import { axeScripts, focusedInPage, setPrompts as setPromptsOf } from './support/prompts.js';
import { startSite, type TestSite } from './support/site.js';
import { ALL, siteWithPermissions, type SiteInfo } from '../e2e/support/fixtures.js';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';

const WAIT_MS = 20_000;
const PROMPTS = {
  kind: 'slidedown',
  title: 'Breaking news, as it happens',
  body: 'Two or three notifications a day. Turn them off any time.',
  acceptLabel: 'Yes, notify me',
  notNowLabel: 'Not now',
  trigger: { pageViews: 1, delaySeconds: 0 },
  snoozeDays: 7,
  topics: [
    { name: 'breaking', label: 'Breaking news' },
    { name: 'weather', label: 'Weather' },
  ],
};

describe('browser: the opt-in prompt in headless Firefox, by keyboard, through its own permission prompt and push service', function () {
  this.timeout(240_000);
  let push: FirefoxPushServer;
  let stack: Stack;
  let site: SiteInfo;
  /** A second site with the same prompt, for "not now". */
  let other: SiteInfo;
  let pool: Pool;
  let siteServer: TestSite | undefined;
  let firefox: Firefox | undefined;
  let page: Page;
  const browserLog: string[] = [];

  const setPrompts = (siteId: string, prompts: unknown) => setPromptsOf(stack.services.gatewayUrl, pool, siteId, prompts);
  const state = () => page.evaluate(() => (globalThis as any).webpush?.state ?? 'absent');
  const waitForState = async (wanted: string[]) => {
    await page.waitForFunction((w: string[]) => w.includes((globalThis as any).webpush?.state ?? ''), { timeout: WAIT_MS }, wanted);
    return state();
  };
  const dialogs = () => page.$$eval('[role=dialog]', (els) => els.length);
  const stored = async (key: string) => JSON.parse((await page.evaluate((k: string) => (globalThis as any).localStorage.getItem(k), key)) ?? 'null');
  const focused = () => page.evaluate(focusedInPage);
  /** axe-core on what the plugin put on the page: every violation, of any impact. */
  const axe = async () => {
    const [load, run] = axeScripts(['.wp-dialog']);
    await page.evaluate(load);
    return page.evaluate(run);
  };

  before(async () => {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: run npm run browsers (Debian's firefox-esr package)`);
    push = await startFirefoxPushServer();
    stack = await startStack('browser_firefox_prompt', { CONSOLE_SECURE_COOKIE: 'false' });
    pool = createPool(stack.databaseUrl, { max: 2 });
    site = await siteWithPermissions(stack, ALL, 'firefox prompt site');
    other = await siteWithPermissions(stack, ALL, 'firefox not-now site');
    await setPrompts(site.id, PROMPTS);
    await setPrompts(other.id, PROMPTS);
    siteServer = await startSite(stack.services.gatewayUrl, site.publicId);
    firefox = await launchFirefox(push.url);
    page = await firefox.browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('console', (m) => browserLog.push(`[page ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => browserLog.push(`[page error] ${String(e)}`));
  });

  after(async () => {
    await firefox?.close().catch(() => {});
    await siteServer?.close();
    await pool?.end();
    await stack?.stop();
    await push?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(browserLog.slice(-30).join('\n'));
      console.log(stack.logs.slice(-30).join('\n'));
    }
  });

  it('on the first page view the slide-down appears, axe-core finds no violation in it, and the focus is in it; no permission asked yet', async () => {
    await page.goto(siteServer!.origin + '/');
    await page.waitForSelector('[role=dialog]', { visible: true });
    expect(await page.$eval('#wp-title', (e) => e.textContent)).to.equal(PROMPTS.title);
    expect(await focused()).to.deep.equal({ text: 'checkbox breaking', inPrompt: true });
    expect(await axe()).to.deep.equal([]);
    expect(await page.evaluate(() => (globalThis as any).Notification.permission)).to.equal('default');
    expect(await state()).to.equal('default');
  });

  it("by keyboard only: a topic unchecked, Tab to the accept button, Enter → Firefox's own permission prompt, allowed → subscribed at Firefox's push service with the chosen topic; the funnel counts shown, accepted, subscribed", async () => {
    await page.keyboard.press('Tab');
    expect(await focused()).to.deep.equal({ text: 'checkbox weather', inPrompt: true });
    await page.keyboard.press(' '); // the space bar (puppeteer names it by its character)
    await page.keyboard.press('Tab');
    expect(await focused()).to.deep.equal({ text: PROMPTS.notNowLabel, inPrompt: true });
    await page.keyboard.press('Tab');
    expect(await focused()).to.deep.equal({ text: PROMPTS.acceptLabel, inPrompt: true });
    await page.keyboard.press('Enter');
    // Firefox asks only from a user's gesture: the doorhanger shows because the key press was one.
    await firefox!.allowNotifications(WAIT_MS);

    expect(await waitForState(['subscribed', 'error']), browserLog.join('\n')).to.equal('subscribed');
    expect(await page.evaluate(() => (globalThis as any).Notification.permission)).to.equal('granted');
    expect(await dialogs()).to.equal(0);
    const endpoint = await page.evaluate(async () => {
      const reg = await (globalThis as any).navigator.serviceWorker.ready;
      return ((await reg.pushManager.getSubscription())?.endpoint as string | undefined) ?? '';
    });
    expect(push.subscriptions()).to.deep.equal([{ endpoint, applicationServerKey: site.vapidPublicKey }]);
    const row = await eventually(async () => (await pool.query('SELECT topics FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0], WAIT_MS, 100);
    expect(row.topics).to.include.members(['breaking', 'sports']).and.not.include('weather');
    const funnel = await eventually(async () => {
      const { rows } = await pool.query<{ event: string; count: string }>("SELECT event, sum(count) AS count FROM delivery.optin_funnel WHERE site_id = $1 AND prompt_id = 'slidedown' GROUP BY event", [site.id]);
      const counts = Object.fromEntries(rows.map((r) => [r.event, Number(r.count)]));
      return counts.subscribed ? counts : undefined;
    }, WAIT_MS, 100);
    expect(funnel).to.deep.equal({ shown: 1, accepted: 1, subscribed: 1 });
  });

  it('on a second site, Escape is "not now": the prompt goes, the focus comes back, it is snoozed and the next page shows none', async () => {
    const otherServer = await startSite(stack.services.gatewayUrl, other.publicId);
    try {
      await page.goto(otherServer.origin + '/');
      await page.waitForSelector('[role=dialog]', { visible: true });
      expect(await focused()).to.deep.equal({ text: 'checkbox breaking', inPrompt: true });
      await page.keyboard.press('Escape');
      expect(await dialogs()).to.equal(0);
      expect(await focused()).to.deep.equal({ text: 'BODY', inPrompt: false });
      const snoozedUntil = (await stored(`webpush-prompt:${other.publicId}`)).snoozedUntil as number;
      expect(snoozedUntil - Date.now()).to.be.within(7 * 86_400_000 - 60_000, 7 * 86_400_000);

      await page.goto(otherServer.origin + '/landing');
      expect(await waitForState(['default', 'error'])).to.equal('default');
      await new Promise((r) => setTimeout(r, 1_000)); // past the trigger (no delay) and the prompt script's load
      expect(await dialogs()).to.equal(0);
      expect(await page.evaluate(() => (globalThis as any).Notification.permission)).to.equal('default');
    } finally {
      await otherServer.close();
    }
  });
});
