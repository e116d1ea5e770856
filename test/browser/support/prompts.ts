// What the opt-in prompt suites share, in Chromium (optin-prompt.test.ts) and in Firefox
// (firefox-prompt.test.ts): a site's prompts set as its editor sets them in the console, and two
// scripts run in the page — what has the focus, and axe-core on what the plugin put there.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { Pool } from '@webpush/shared/db.js';
import { createAccounts } from '../../../services/campaign/src/accounts/accounts.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The site's editor sets its prompts in the console (PATCH …/prompts). */
export async function setPrompts(gatewayUrl: string, pool: Pool, siteId: string, prompts: unknown): Promise<void> {
  const email = 'editor@prompt.example';
  const password = 'the editor knows this one';
  await createAccounts(pool).ensureMember({ site: siteId, email, password, role: 'editor' });
  const login = await fetch(`${gatewayUrl}/console/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(login.status).to.equal(200);
  const cookie = /console_session=[^;,]+/.exec(login.headers.get('set-cookie') ?? '')![0];
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const set = await fetch(`${gatewayUrl}/console/api/sites/${siteId}/prompts`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': csrfToken },
    body: JSON.stringify(prompts),
  });
  expect(set.status, await set.clone().text()).to.equal(200);
}

/** In the page: what the focused element is (its text, or its checkbox's value) and whether it is inside the prompt. */
export function focusedInPage(): { text: string; inPrompt: boolean } {
  const el = (globalThis as any).document.activeElement;
  const text = el.type === 'checkbox' ? `checkbox ${el.value}` : el.tagName === 'BUTTON' ? el.textContent : el.tagName;
  return { text, inPrompt: !!el.closest('[role=dialog]') };
}

/** The scripts that load axe-core into the page, then run it on these selectors: every violation, of any impact. */
export function axeScripts(selectors: string[]): [load: string, run: string] {
  return [
    `${AXE_SOURCE}\n;0`,
    `axe.run({ include: ${JSON.stringify(selectors.map((s) => [s]))} }, { resultTypes: ['violations'] }).then((r) => r.violations
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  ];
}
