// Development aid: walks the console's screens in headless Chromium against the fixture API,
// runs axe-core on each and writes a screenshot of each (desktop and 360 px wide) to a folder.
//   npx tsx console/test/walkthrough.ts [out-dir]     (after npm run build)
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { FIXTURE_USER } from './fixture-api.js';
import { serveFixture } from './serve-fixture.js';

const out = path.resolve(process.argv[2] ?? '.artifacts/console-walkthrough');
mkdirSync(out, { recursive: true });
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axe(page: Page, name: string): Promise<string[]> {
  await page.evaluate(`${axeSource}\n;0`);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3) })))`)) as {
    id: string;
    impact: string;
    nodes: string[];
  }[];
  return result.map((v) => `${name}: ${v.impact} ${v.id} ${v.nodes.join(' | ')}`);
}

const server = await serveFixture(0, { impressionDelayMs: 8000 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const problems: string[] = [];
try {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 360, height: 780 }],
  ] as const) {
    const context = await browser.newContext({ viewport, timezoneId: 'America/Sao_Paulo', locale: 'en-GB' });
    const page = await context.newPage();
    page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`[${label} console ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`[${label} page error] ${e.message}`));
    const shot = async (name: string) => {
      await page.waitForTimeout(300);
      problems.push(...(await axe(page, `${label}/${name}`)));
      const overflow = (await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")) as number;
      if (overflow > 0) problems.push(`${label}/${name}: the page is ${overflow} px wider than the window`);
      await page.screenshot({ path: path.join(out, `${label}-${name}.png`), fullPage: true });
    };
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await shot('login');
    await page.getByLabel('Email').fill(FIXTURE_USER.email);
    await page.getByLabel('Password').fill(FIXTURE_USER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Your sites' }).waitFor();
    await shot('sites');
    await page.getByRole('link', { name: 'Demo site' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.locator('table.campaigns').waitFor();
    await shot('campaigns');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByLabel('Label for a new key').fill('newsroom server');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('it is shown only once').waitFor();
    await shot('settings');
    await page.getByRole('link', { name: 'Audience' }).click();
    await page.getByRole('heading', { name: 'Audience' }).waitFor();
    await page.locator('.chart-canvas canvas').first().waitFor();
    await shot('audience');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByLabel('URL', { exact: true }).fill('http://crm.example.com/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('.field-invalid').first().waitFor();
    await shot('webhooks-errors');
    await page.getByLabel('URL', { exact: true }).fill('https://hooks.example.net/push');
    await page.getByRole('checkbox', { name: /^campaign\.failed/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('it is shown only once').waitFor();
    await shot('webhooks');
    await page.getByRole('link', { name: 'https://crm.example.com/hooks/push' }).click();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.locator('tr', { hasText: 'webhook.ping' }).locator('.badge', { hasText: 'Delivered' }).waitFor({ timeout: 10_000 });
    await shot('webhook');
    await page.getByRole('link', { name: 'New campaign' }).first().click();
    await page.getByRole('heading', { name: 'New campaign' }).waitFor();
    await page.getByLabel('Title').fill('Final tonight');
    await page.getByLabel('Text', { exact: true }).fill('Kick-off at 8 pm, live on the site');
    await page.getByLabel('Link').fill('https://news.example/final');
    await page.getByLabel('Button text (optional)').fill('Watch live');
    await page.getByRole('checkbox', { name: /^sports/ }).check();
    await page.getByRole('checkbox', { name: /^news/ }).check();
    await page.getByTestId('estimate').waitFor();
    await shot('composer');
    await page.getByLabel('Title').fill('No');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.locator('#composer-errors').waitFor();
    await shot('composer-errors');
    await page.getByLabel('Title').fill('Final tonight');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Final tonight' }).waitFor();
    await shot('draft');
    await page.getByRole('link', { name: 'Edit draft' }).click();
    await page.getByRole('heading', { name: 'Edit draft' }).waitFor();
    await page.getByTestId('estimate').waitFor();
    await shot('composer-edit-draft');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Final tonight' }).waitFor();
    await page.getByRole('link', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { name: 'Duplicate a campaign' }).waitFor();
    await page.getByTestId('estimate').waitFor();
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('heading', { name: 'Final tonight' }).waitFor();
    await page.locator('.chart-canvas canvas').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(6000);
    await shot('campaign');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('You are logged out.').waitFor();
    await shot('logged-out');
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(problems.length ? problems.join('\n') : 'no axe violations, no console errors, no horizontal scrolling');
console.log(`screenshots in ${out}`);
