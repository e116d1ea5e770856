// The site plugin's opt-in prompt in a real browser (docs/site-plugin.md, "Opt-in prompts"):
// Debian's headless Chromium, driven by playwright-core, against the real stack. The site's
// editor sets the prompts through the console API (a slide-down from the second page view, one
// second after the page loads, with two topics to choose, and the bell); a visitor's pages on
// localhost with the two-line install then load webpush-prompt.js instead of the default button.
// Checked: no prompt on the first page view, the prompt on the second (axe-core: no violation of
// any impact in the prompt and the bell; focus moved into it), Escape snoozes it (stored, and no
// prompt on the next page) and gives the focus back, no permission asked before the visitor says
// yes; then, by keyboard only, a topic unchecked and the accept button pressed: permission asked
// from that key press, the visitor subscribed with the topic kept and not the other, the bell
// saying notifications are on. A second site's modal: over a backdrop, Tab kept inside it both
// ways, "not now" by keyboard.
//
// Stood in for, as in site-plugin.test.ts: the browser's push service (support/fake-push-service.ts
// answers PushManager.subscribe with a push-simulator subscription), and the visitor's answer to
// the browser's own permission prompt (granted beforehand; the request itself is the snippet's,
// recorded with its user activation).
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { fakePushService } from './support/fake-push-service.js';
import { axeScripts, focusedInPage, setPrompts as setPromptsOf } from './support/prompts.js';
import { startSite, type TestSite } from './support/site.js';
import { ALL, siteWithPermissions, type SiteInfo } from '../e2e/support/fixtures.js';
import { eventually, startStack, type Stack } from '../e2e/support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const WAIT_MS = 20_000;
const PROMPTS = {
  kind: 'slidedown',
  title: 'Breaking news, as it happens',
  body: 'Two or three notifications a day. Turn them off any time.',
  acceptLabel: 'Yes, notify me',
  notNowLabel: 'Not now',
  trigger: { pageViews: 2, delaySeconds: 1 },
  snoozeDays: 7,
  bell: { enabled: true, position: 'bottom-left' },
  topics: [
    { name: 'breaking', label: 'Breaking news' },
    { name: 'weather', label: 'Weather' },
  ],
};

describe('browser: the opt-in prompt in headless Chromium', function () {
  this.timeout(240_000);
  let sim: PushSimulator;
  let stack: Stack;
  let site: SiteInfo;
  /** A second site, whose prompt is a modal. */
  let other: SiteInfo;
  let pool: Pool;
  let siteServer: TestSite | undefined;
  let userDataDir: string | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let endpoint = '';
  const browserLog: string[] = [];

  const origin = () => siteServer!.origin;
  const setPrompts = (siteId: string, prompts: unknown) => setPromptsOf(stack.services.gatewayUrl, pool, siteId, prompts);
  const state = () => page.evaluate(() => (globalThis as any).webpush?.state ?? 'absent');
  const waitForState = async (wanted: string[]) => {
    await page.waitForFunction((w) => w.includes((globalThis as any).webpush?.state ?? ''), wanted, { timeout: WAIT_MS });
    return state();
  };
  const stored = async (key: string) => JSON.parse((await page.evaluate((k) => (globalThis as any).localStorage.getItem(k), key)) ?? 'null');
  const permissionRequests = () => stored('fake-push:permission-requests');
  const focused = () => page.evaluate(focusedInPage);
  /** axe-core on what the plugin put on the page: every violation, of any impact. */
  const axe = async () => {
    const [load, run] = axeScripts(['.wp-dialog', '.wp-bell']);
    await page.evaluate(load);
    return page.evaluate(run);
  };

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run npm run browsers (Debian's chromium package)`);
    sim = await startPushSimulator();
    stack = await startStack('browser_prompt', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', CONSOLE_SECURE_COOKIE: 'false' });
    pool = createPool(stack.databaseUrl, { max: 2 });
    site = await siteWithPermissions(stack, ALL, 'prompt site');
    const pushSub = sim.createSubscription(site.vapidPublicKey);
    endpoint = pushSub.endpoint;
    siteServer = await startSite(stack.services.gatewayUrl, site.publicId);

    await setPrompts(site.id, PROMPTS);
    other = await siteWithPermissions(stack, ALL, 'modal site');
    await setPrompts(other.id, { kind: 'modal', title: 'One question', acceptLabel: 'Allow', notNowLabel: 'Later', snoozeDays: 2 });

    userDataDir = await mkdtemp(path.join(os.tmpdir(), 'webpush-prompt-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      timeout: 60_000,
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
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(browserLog.slice(-30).join('\n'));
      console.log(stack.logs.slice(-30).join('\n'));
    }
  });

  it('no prompt on the first page view (the bell instead of the default button); on the second the prompt, accessible, with the focus in it', async () => {
    await page.goto(origin() + '/');
    expect(await waitForState(['default', 'error'])).to.equal('default');
    await page.waitForSelector('.wp-bell', { state: 'visible' });
    expect(await page.getAttribute('.wp-bell', 'aria-label')).to.equal('Get notifications');
    await page.waitForTimeout(2_000); // past the trigger's delay
    expect(await page.locator('[role=dialog]').count()).to.equal(0);
    expect(await page.locator('#webpush-button').count(), 'no default button').to.equal(0);
    expect((await stored(`webpush-prompt:${site.publicId}`)).views).to.equal(1);

    await page.goto(origin() + '/politics');
    const dialog = page.locator('[role=dialog]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.getAttribute('aria-labelledby')).to.equal('wp-title');
    expect(await page.textContent('#wp-title')).to.equal(PROMPTS.title);
    expect(await page.textContent('#wp-body')).to.equal(PROMPTS.body);
    expect(await focused()).to.deep.equal({ text: 'checkbox breaking', inPrompt: true });
    expect(await axe()).to.deep.equal([]);
    expect(await permissionRequests(), 'no permission asked before the visitor says yes').to.equal(null);
    // It slides in, unless the visitor asked for less motion.
    const animation = () => page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.querySelector('[role=dialog]')).animationName);
    expect(await animation()).to.equal('wp-in');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animation()).to.equal('none');
    await page.emulateMedia({ reducedMotion: null });
  });

  it('Escape is "not now": the prompt goes, the focus comes back, and the next page shows none for the snooze days', async () => {
    await page.keyboard.press('Escape');
    expect(await page.locator('[role=dialog]').count()).to.equal(0);
    expect(await focused()).to.deep.equal({ text: 'BODY', inPrompt: false });
    const snoozedUntil = (await stored(`webpush-prompt:${site.publicId}`)).snoozedUntil as number;
    expect(snoozedUntil - Date.now()).to.be.within(7 * 86_400_000 - 60_000, 7 * 86_400_000);

    await page.goto(origin() + '/landing');
    expect(await waitForState(['default', 'error'])).to.equal('default');
    await page.waitForTimeout(2_000);
    expect(await page.locator('[role=dialog]').count()).to.equal(0);
    expect(await permissionRequests()).to.equal(null);
  });

  it('by keyboard only: a topic unchecked, the accept button pressed → permission asked from that key press → subscribed with the chosen topic; the bell says so', async () => {
    // The snooze over (as after seven days).
    await page.evaluate((key) => {
      const ls = (globalThis as any).localStorage;
      ls.setItem(key, JSON.stringify({ ...JSON.parse(ls.getItem(key)), snoozedUntil: 0 }));
    }, `webpush-prompt:${site.publicId}`);
    await page.goto(origin() + '/politics');
    await page.locator('[role=dialog]').waitFor({ state: 'visible' });
    // The visitor's answer to the browser's prompt that the key press below brings up. (Granted
    // before the page loads, the snippet would subscribe a visitor who already allowed at once.)
    await context!.grantPermissions(['notifications'], { origin: origin() });
    await page.keyboard.press('Tab');
    expect(await focused()).to.deep.equal({ text: 'checkbox weather', inPrompt: true });
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await focused()).to.deep.equal({ text: PROMPTS.notNowLabel, inPrompt: true });
    await page.keyboard.press('Tab');
    expect(await focused()).to.deep.equal({ text: PROMPTS.acceptLabel, inPrompt: true });
    await page.keyboard.press('Enter');

    expect(await waitForState(['subscribed', 'error']), browserLog.join('\n')).to.equal('subscribed');
    expect(await page.locator('[role=dialog]').count()).to.equal(0);
    expect(await permissionRequests(), 'asked once, from the key press').to.deep.equal([{ userActivation: true }]);
    const row = await eventually(async () => (await pool.query('SELECT topics FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0], WAIT_MS, 100);
    expect(row.topics).to.include.members(['breaking', 'politics']).and.not.include('weather');
    // The funnel counted it all under the slide-down: shown twice (the page before, dismissed by
    // Escape, and this one), accepted, and the subscription its accept led to.
    const funnel = await eventually(async () => {
      const { rows } = await pool.query<{ event: string; count: string }>("SELECT event, sum(count) AS count FROM delivery.optin_funnel WHERE site_id = $1 AND prompt_id = 'slidedown' GROUP BY event", [site.id]);
      const counts = Object.fromEntries(rows.map((r) => [r.event, Number(r.count)]));
      return counts.subscribed ? counts : undefined;
    }, WAIT_MS, 100);
    expect(funnel).to.deep.equal({ shown: 2, dismissed: 1, accepted: 1, subscribed: 1 });
    await page.waitForSelector('.wp-bell[data-state=subscribed]');
    expect(await page.getAttribute('.wp-bell', 'aria-label')).to.equal('Notifications are on');
    expect(await axe()).to.deep.equal([]);
  });

  it('the bell, by keyboard: a dialog saying notifications are on, closed by Escape with the focus back on the bell', async () => {
    await page.focus('.wp-bell');
    await page.keyboard.press('Enter');
    await page.locator('[role=dialog]').waitFor({ state: 'visible' });
    expect(await page.textContent('#wp-title')).to.equal('Notifications are on');
    expect(await axe()).to.deep.equal([]);
    await page.keyboard.press('Escape');
    expect(await page.locator('[role=dialog]').count()).to.equal(0);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.className)).to.equal('wp-bell');
  });

  it("a modal (another site's): over a backdrop, Tab kept inside it both ways, \"not now\" by keyboard snoozes it", async () => {
    const otherServer = await startSite(stack.services.gatewayUrl, other.publicId);
    try {
      await page.goto(otherServer.origin + '/');
      const dialog = page.locator('[role=dialog]');
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getAttribute('aria-modal')).to.equal('true');
      expect(await page.locator('.wp-backdrop').count()).to.equal(1);
      expect(await page.locator('.wp-bell').count(), 'no bell on this site').to.equal(0);
      expect(await focused()).to.deep.equal({ text: 'Later', inPrompt: true });
      expect(await axe()).to.deep.equal([]);
      await page.keyboard.press('Tab');
      expect(await focused()).to.deep.equal({ text: 'Allow', inPrompt: true });
      await page.keyboard.press('Tab');
      expect(await focused(), 'Tab from the last control goes back to the first').to.deep.equal({ text: 'Later', inPrompt: true });
      await page.keyboard.press('Shift+Tab');
      expect(await focused(), 'Shift+Tab from the first goes to the last').to.deep.equal({ text: 'Allow', inPrompt: true });
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      expect(await page.locator('[role=dialog], .wp-backdrop').count()).to.equal(0);
      const snoozedUntil = (await stored(`webpush-prompt:${other.publicId}`)).snoozedUntil as number;
      expect(snoozedUntil - Date.now()).to.be.within(2 * 86_400_000 - 60_000, 2 * 86_400_000);
      expect(await permissionRequests()).to.equal(null);
    } finally {
      await otherServer.close();
    }
  });
});
