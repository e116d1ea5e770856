// Component tests of the console's opt-in prompts (docs/console.md, "Opt-in prompts") through the
// gateway, against the real delivery service and Postgres: read by any member, changed by owners
// and editors (viewers, anyone without the CSRF token and members of other sites refused, nothing
// written), a refused change 400 with every message and nothing written, and the change served
// to the site plugin in the site's public configuration; each change in the site's audit log.
import { expect } from 'chai';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import type { RunningGateway } from '../src/app.js';
import { consoleUsers, type ConsoleBrowser } from './support/console.js';
import { silentLogger } from './support/stack.js';

const NO_PROMPT = {
  kind: 'none',
  title: 'Get notifications',
  body: '',
  acceptLabel: 'Allow',
  notNowLabel: 'Not now',
  trigger: { pageViews: 1, delaySeconds: 0 },
  snoozeDays: 7,
  bell: { enabled: false, position: 'bottom-right' },
  topics: [],
};

describe('gateway: the console opt-in prompts', function () {
  this.timeout(120_000);
  let stack: InProcessStack;
  let gateway: RunningGateway;
  let users: ReturnType<typeof consoleUsers>;
  let site: TestSite;
  let owner: { email: string; browser: ConsoleBrowser };
  let editor: { email: string; browser: ConsoleBrowser };
  let viewer: { email: string; browser: ConsoleBrowser };
  let promptsPath: string;

  before(async () => {
    stack = await startInProcess('gateway_console_prompts', {
      delivery: { log: silentLogger },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1' } },
    });
    gateway = stack.gateway!;
    users = consoleUsers(stack.pool, gateway.url);
    site = await stack.newSite();
    owner = await users.newUser(site.siteId);
    editor = await users.newUser(site.siteId, 'editor');
    viewer = await users.newUser(site.siteId, 'viewer');
    promptsPath = `/console/api/sites/${site.siteId}/prompts`;
  });
  after(async () => {
    await stack?.stop();
  });

  const stored = async () => (await stack.pool.query('SELECT optin_prompts FROM delivery.sites WHERE site_id = $1', [site.siteId])).rows[0].optin_prompts;
  const publicConfig = async () => (await (await fetch(`${gateway.url}/public/v1/sites/${site.publicId}/config`)).json()) as Record<string, unknown>;

  it('when a new site is read, then no prompt and no bell; any member reads them, viewers too', async () => {
    for (const b of [owner.browser, editor.browser, viewer.browser]) {
      const reply = await b.call('GET', promptsPath);
      expect([reply.status, reply.body]).to.deep.equal([200, NO_PROMPT]);
    }
    expect(await publicConfig()).to.not.have.property('prompts');
  });

  it('when an editor changes them, then the answer, a read and the public configuration show them, and the audit log records it', async () => {
    const change = { kind: 'modal', title: 'Stay informed', trigger: { pageViews: 3 }, bell: { enabled: true }, topics: [{ name: 'News', label: 'Latest news' }] };
    const expected = { ...NO_PROMPT, kind: 'modal', title: 'Stay informed', trigger: { pageViews: 3, delaySeconds: 0 }, bell: { enabled: true, position: 'bottom-right' }, topics: [{ name: 'news', label: 'Latest news' }] };
    const reply = await editor.browser.call('PATCH', promptsPath, { body: change });
    expect([reply.status, reply.body]).to.deep.equal([200, expected]);
    expect((await owner.browser.call('GET', promptsPath)).body).to.deep.equal(expected);
    expect((await publicConfig()).prompts).to.deep.equal(expected);
    const log = await owner.browser.call('GET', `/console/api/sites/${site.siteId}/audit`);
    const entries = (log.body as { items: { action: string; status: number }[] }).items;
    expect(entries.find((e) => e.action === 'updateOptInPrompts')).to.include({ status: 200 });
  });

  it('when a change is refused, then 400 names every refused field, and nothing is written', async () => {
    const before = await stored();
    const reply = await owner.browser.call('PATCH', promptsPath, { body: { kind: 'popup', snoozeDays: 0, bell: { position: 'top' }, extra: true } });
    expect([reply.status, reply.body]).to.deep.equal([
      400,
      { message: 'extra is not a field of the opt-in prompts, kind must be one of: none, slidedown, modal, snoozeDays must be a whole number from 1 to 365, bell.position must be one of: bottom-right, bottom-left' },
    ]);
    const notObject = await owner.browser.call('PATCH', promptsPath, { body: '[1]' });
    expect(notObject.status).to.equal(400);
    expect(await stored()).to.deep.equal(before);
  });

  it('when a viewer changes them, or anyone without the CSRF token, or a member of another site, then 403 or 404 and nothing changes', async () => {
    const before = await stored();
    const body = { kind: 'slidedown' };
    expect(await viewer.browser.call('PATCH', promptsPath, { body })).to.include({ status: 403 });
    expect(await owner.browser.call('PATCH', promptsPath, { body, csrf: false })).to.include({ status: 403 });
    const other = await stack.newSite();
    const stranger = await users.newUser(other.siteId);
    for (const [method, b] of [['GET', undefined], ['PATCH', body]] as const) {
      const reply = await stranger.browser.call(method, promptsPath, { body: b });
      expect([reply.status, reply.body]).to.deep.equal([404, { message: 'Site not found' }]);
    }
    expect(await stored()).to.deep.equal(before);
  });
});
