// Every console route × every role (docs/console.md, "Members and roles"), read from the router's
// own table so a new route is walked without being listed: a viewer, an editor, an owner and a
// member of another site call each route of site A with site A's ids, and the whole database is
// compared before and after each call. A viewer changes nothing and reads what any member reads;
// an editor manages no keys, members or invites; another site's member gets 404 for everything.
// Then members and invites through the API: an owner's invite accepted, role changes and
// removals applied at the member's next call, and the last owner kept.
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import type { ConsoleRoute } from '../src/console/route.js';
import { ConsoleBrowser, consoleUsers, pathOf, PASSWORD, routeTable, tokenOf } from './support/console.js';
import { automationBody, SAMPLES, sample } from './support/console-samples.js';
import { silentLogger, validCreateBody } from './support/stack.js';

const PUBLIC_URL = 'https://push.example.net';
const SITE_NOT_FOUND = { message: 'Site not found' };
const OWNERS_ONLY = { message: "Only the site's owners can do this" };
const VIEWERS_READ_ONLY = { message: 'Viewers cannot change anything' };
const LAST_OWNER = { message: 'A site must keep at least one owner' };

type Role = 'viewer' | 'editor' | 'owner' | 'another site';

/** Routes that get through for an owner and still store nothing (docs/console.md says why for each). */
const STORE_NOTHING = new Set(['sendTestNotification']);

/**
 * Tables that are no site's state: sessions (a call moves its last-seen time), logins, the
 * delivery service's own bookkeeping, written by its timers whatever anyone calls, and the audit
 * log, which records refused calls too (on purpose: gateway/test/console-audit.test.ts).
 */
const NOT_STATE = new Set(['campaign.sessions', 'campaign.login_failures', 'campaign.login_addresses', 'delivery.instances', 'delivery.maintenance_done', 'delivery.audit_log']);
const WHO: Record<Role, string> = { viewer: 'a viewer', editor: 'an editor', owner: 'an owner', 'another site': "another site's member" };

describe('gateway: every console route × every role', function () {
  this.timeout(300_000);
  let sim: PushSimulator;
  let stack: InProcessStack;
  let users: ReturnType<typeof consoleUsers>;
  let siteA: TestSite;
  const as = {} as Record<Role, { email: string; browser: ConsoleBrowser }>;
  let fingerprintSql = '';
  let n = 0;

  before(async () => {
    sim = await startPushSimulator();
    stack = await startInProcess('gateway_console_roles', {
      // The webhooks' URLs on 127.0.0.1 (port 9, where nothing answers; the endpoints are disabled anyway).
      delivery: { log: silentLogger, env: { PUSH_EXTRA_CA_FILE: sim.caCertFile, PUSH_TEST_HOSTS: '127.0.0.1', WEBHOOK_TEST_HOSTS: '127.0.0.1' } },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1', AUTH_CACHE_TTL_MS: '0', PUBLIC_URL } },
    });
    users = consoleUsers(stack.pool, stack.gateway!.url);
    siteA = await stack.newSite({ subscribers: [{ count: 3, topics: ['news'], countries: ['br'] }] });
    const siteB = await stack.newSite({ subscribers: [{ count: 1, topics: ['news'], countries: ['pt'] }] });
    as.owner = await users.newUser(siteA.siteId, 'owner');
    as.editor = await users.newUser(siteA.siteId, 'editor');
    as.viewer = await users.newUser(siteA.siteId, 'viewer');
    as['another site'] = await users.newUser(siteB.siteId, 'owner');
    const vapidA = (await stack.operators.delivery.registerSite({ siteId: siteA.siteId, publicId: siteA.publicId })).vapidPublicKey;
    SAMPLES.sendTestNotification.body = { subscription: sim.createSubscription(vapidA) };

    // Every table of both services, each as one digest of its rows in order: a new table (another
    // feature's) is in it without being named here.
    const { rows } = await stack.pool.query(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
        WHERE table_schema IN ('campaign', 'delivery') AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY 1`,
    );
    const tables = (rows as { name: string }[]).map((r) => r.name).filter((t) => !NOT_STATE.has(t));
    expect(tables).to.include.members(['campaign.campaigns', 'campaign.api_keys', 'campaign.site_members', 'campaign.one_time_links', 'delivery.subscribers']);
    fingerprintSql = `SELECT ${tables.map((t) => `(SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM ${t} r) AS "${t}"`).join(', ')}`;
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  const fingerprint = async (): Promise<Record<string, string>> => (await stack.pool.query(fingerprintSql)).rows[0];
  const base = () => `/console/api/sites/${siteA.siteId}`;
  const idOf = async (email: string) => ((await as.owner.browser.call('GET', `${base()}/members`)).body as { id: string; email: string }[]).find((m) => m.email === email)!.id;

  /**
   * A webhook endpoint, disabled: nothing is sent to it, so no attempt in the background changes a
   * row while a call is checked. The site's others are deleted first (a site has at most 10).
   */
  async function freshWebhook(): Promise<string> {
    const owner = as.owner.browser;
    for (const w of (await owner.call('GET', `${base()}/webhooks`)).body as { id: string }[]) await owner.call('DELETE', `${base()}/webhooks/${w.id}`);
    const created = await owner.call('POST', `${base()}/webhooks`, { body: { url: 'https://127.0.0.1:9/roles', events: ['campaign.completed'] } });
    const id = (created.body as { id: string }).id;
    expect((await owner.call('PATCH', `${base()}/webhooks/${id}`, { body: { enabled: false } })).status).to.equal(200);
    return id;
  }

  /** A template of site A for an automation's step. */
  const freshTemplate = async () =>
    ((await as.owner.browser.call('POST', `${base()}/templates`, { body: { ...(sample('createTemplate').body as object), name: `For a step ${++n}` } })).body as { id: string }).id;

  /** Fresh objects of site A for the route's path parameters, made by its owner: each call may use its own up. */
  async function paramsFor(route: ConsoleRoute): Promise<Record<string, string>> {
    const params: Record<string, string> = { siteId: siteA.siteId };
    for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) {
      if (name === 'siteId') continue;
      const owner = as.owner.browser;
      if (name === 'campaignId') params.campaignId = ((await owner.call('POST', `${base()}/campaigns`, { body: validCreateBody({ topics: ['news'] }) })).body as { id: string }).id;
      else if (name === 'keyId') params.keyId = ((await owner.call('POST', `${base()}/keys`, { body: { label: 'Roles' } })).body as { key: { id: string } }).key.id;
      else if (name === 'memberId') params.memberId = await idOf((await users.newUser(siteA.siteId, 'viewer')).email);
      else if (name === 'inviteId') params.inviteId = ((await owner.call('POST', `${base()}/invites`, { body: { email: `pending${++n}@example.com`, role: 'editor' } })).body as { invite: { id: string } }).invite.id;
      else if (name === 'webhookId') params.webhookId = await freshWebhook();
      else if (name === 'automationId') params.automationId = ((await owner.call('POST', `${base()}/automations`, { body: automationBody(await freshTemplate()) })).body as { id: string }).id;
      else if (name === 'templateId') params.templateId = ((await owner.call('POST', `${base()}/templates`, { body: { ...(sample('createTemplate').body as object), name: `Roles ${++n}` } })).body as { id: string }).id;
      // A person of site A, made through /v2 as a customer's server makes one (each delete uses one up).
      else if (name === 'externalId') {
        params.externalId = `person ${++n}/é`;
        const made = await fetch(`${stack.gateway!.url}/v2/users/${encodeURIComponent(params.externalId)}`, { method: 'PATCH', headers: { Authorization: siteA.key, 'Content-Type': 'application/json' }, body: JSON.stringify({ tags: { n } }) });
        expect(made.status).to.equal(200);
      } else if (name === 'eventId') params.eventId = ((await owner.call('POST', `${base()}/webhooks/${params.webhookId}/ping`)).body as { eventId: string }).eventId;
      else expect.fail(`{${name}} of ${route.path}: say in paramsFor (gateway/test/console-roles.test.ts) how a fresh one is made`);
    }
    return params;
  }

  /** The body of one call: topic maintenance gets topics of its own, seeded now (each call uses its topics up). */
  async function bodyFor(route: ConsoleRoute): Promise<unknown> {
    const body = sample(route.operation).body;
    // An automation's step names a template of site A.
    if (route.operation === 'createAutomation') return automationBody(await freshTemplate());
    // A template's name is unique in its site: each create gets one of its own.
    if (route.operation === 'createTemplate') return { ...(body as object), name: `Matrix ${++n}` };
    // Each change of the opt-in prompts a new one, so the editor's and then the owner's are both seen.
    if (route.operation === 'updateOptInPrompts') return { ...(body as object), snoozeDays: ++n };
    if (!route.path.includes('/topics/')) return body;
    const suffix = `-${++n}`;
    const renamed = JSON.parse(JSON.stringify(body), (key, value) => (typeof value === 'string' && value.startsWith('spare-') ? value + suffix : value));
    const topics = [renamed.from, renamed.name].flat().filter((t): t is string => typeof t === 'string');
    await stack.operators.delivery.seedSubscribers({ siteId: siteA.siteId, count: 1, topics, countries: ['br'], topicsPerSubscriber: topics.length });
    return renamed;
  }

  /** What the role gets from the route: the refusal, or the sample's status when it gets through. */
  function expected(route: ConsoleRoute, role: Role): { status: number; body?: unknown } {
    if (role === 'another site') return { status: 404, body: SITE_NOT_FOUND };
    if (route.access === 'owner' && role !== 'owner') return { status: 403, body: OWNERS_ONLY };
    if (route.access === 'editor' && role === 'viewer') return { status: 403, body: VIEWERS_READ_ONLY };
    return { status: sample(route.operation).status ?? 200 };
  }

  const siteRoutes = () => routeTable().filter((r) => r.path.includes('{siteId}'));

  it('when the route table is read, then every site route that is not a GET and reads nothing is an editor\'s or an owner\'s, and keys, members and invites are owners\' only', () => {
    const routes = siteRoutes();
    expect(routes.length).to.be.greaterThan(25);
    for (const r of routes.filter((r) => /\/(keys|members|invites)(\/|$)/.test(r.path))) expect(r.access, `${r.method} ${r.path}`).to.equal('owner');
    // POSTs a viewer may make read only: a list's filters, the composer's estimate and best-time plan, the campaign results export's filters and a template's preview values travel in a body.
    const reads = new Set(['listCampaigns', 'estimateAudience', 'planCampaignPreview', 'exportCampaigns', 'renderTemplate']);
    for (const r of routes.filter((r) => r.access === 'member' && r.method !== 'GET')) expect(reads.has(r.operation), `${r.method} ${r.path} is open to viewers`).to.equal(true);
  });

  for (const role of ['viewer', 'editor', 'another site', 'owner'] as const) {
    it(`when ${WHO[role]} calls every route of the site, then each answers as the role allows${role === 'owner' ? '' : ', and what is refused changes nothing'}`, async () => {
      const routes = siteRoutes();
      for (const route of routes) {
        const params = await paramsFor(route);
        const body = await bodyFor(route);
        const before = await fingerprint();
        const reply = await as[role].browser.call(route.method, pathOf(route, params), { body });
        const after = await fingerprint();
        const want = expected(route, role);
        const where = `${role}: ${route.method} ${route.path} → ${reply.status} ${JSON.stringify(reply.body)}`;
        expect(reply.status, where).to.equal(want.status);
        if (want.body) expect(reply.body, where).to.deep.equal(want.body);
        const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
        if (role === 'viewer' || want.status >= 400 || route.access === 'member') expect(changed, `${where}: nothing may change`).to.deep.equal([]);
        // The other half: a change the role may make is seen, so "nothing changed" above means something.
        else if (route.method !== 'GET' && !STORE_NOTHING.has(route.operation)) expect(changed, `${where}: its change is not seen`).to.not.deep.equal([]);
      }
    });
  }

  it("when a viewer logs in, then the session and the site name their role, and a viewer's reads answer as an owner's", async () => {
    const session = await as.viewer.browser.call('GET', '/console/api/session');
    expect((session.body as { sites: unknown[] }).sites).to.deep.equal([{ id: siteA.siteId, name: 'site 1', role: 'viewer' }]);
    const site = await as.viewer.browser.call('GET', base());
    expect((site.body as { role: string }).role).to.equal('viewer');
    for (const path of ['/topics', '/countries', '/audience/browsers']) {
      const [mine, owners] = await Promise.all([as.viewer.browser.call('GET', base() + path), as.owner.browser.call('GET', base() + path)]);
      expect(mine.body, path).to.deep.equal(owners.body);
    }
  });

  it("when an owner invites through the console, then the link (under PUBLIC_URL) names the site and the inviter to anyone holding it, and makes a member of the role", async () => {
    const email = `invited${++n}@example.com`;
    const created = await as.owner.browser.call('POST', `${base()}/invites`, { body: { email, role: 'viewer' } });
    expect(created.status).to.equal(200);
    const { invite, link } = created.body as { invite: Record<string, unknown>; link: string };
    expect(link).to.match(/^https:\/\/push\.example\.net\/console\/#\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(invite).to.deep.include({ email, role: 'viewer', invitedBy: as.owner.email });
    expect(Object.keys(invite).sort()).to.deep.equal(['createdAt', 'email', 'expiresAt', 'id', 'invitedBy', 'role']);
    const listed = (await as.owner.browser.call('GET', `${base()}/invites`)).body as { id: string }[];
    expect(listed.map((i) => i.id)).to.include(invite.id);

    const stranger = new ConsoleBrowser(stack.gateway!.url, '203.0.113.7');
    const preview = await stranger.call('POST', '/console/api/invites/lookup', { body: { token: tokenOf(link) } });
    expect([preview.status, preview.body]).to.deep.equal([200, { kind: 'invite', site: { name: 'site 1' }, invitedBy: as.owner.email }]);
    const unknown = await stranger.call('POST', '/console/api/invites/lookup', { body: { token: 'A'.repeat(43) } });
    expect([unknown.status, unknown.body]).to.deep.equal([404, { message: 'This link is invalid, used or expired' }]);
    const reset = await users.accounts.resetLink({ email: as.viewer.email, baseUrl: PUBLIC_URL });
    expect((await stranger.call('POST', '/console/api/invites/lookup', { body: { token: tokenOf(reset.link) } })).body).to.deep.equal({ kind: 'reset' });

    const accepted = await stranger.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(link), password: PASSWORD } });
    expect((accepted.body as { sites: unknown[] }).sites).to.deep.equal([{ id: siteA.siteId, name: 'site 1', role: 'viewer' }]);
    expect(((await as.owner.browser.call('GET', `${base()}/invites`)).body as { id: string }[]).map((i) => i.id)).to.not.include(invite.id);
    const again = await as.owner.browser.call('POST', `${base()}/invites`, { body: { email: email.toUpperCase(), role: 'editor' } });
    expect([again.status, again.body]).to.deep.equal([409, { message: `${email} is already a member of the site; change their role instead` }]);
  });

  it("when an owner changes a member's role or removes them, then it applies at the member's next call; the last owner is kept", async () => {
    const member = await users.newUser(siteA.siteId, 'editor');
    const id = await idOf(member.email);
    const create = () => member.browser.call('POST', `${base()}/campaigns`, { body: validCreateBody({ topics: ['news'] }) });
    expect((await create()).status).to.equal(200);

    const demoted = await as.owner.browser.call('PATCH', `${base()}/members/${id}`, { body: { role: 'viewer' } });
    expect([demoted.status, { ...(demoted.body as object), since: '' }]).to.deep.equal([200, { id, email: member.email, role: 'viewer', since: '' }]);
    expect(await create().then((r) => [r.status, r.body])).to.deep.equal([403, VIEWERS_READ_ONLY]);

    const removed = await as.owner.browser.call('DELETE', `${base()}/members/${id}`);
    expect([removed.status, removed.body]).to.deep.equal([200, { removed: true }]);
    expect(await member.browser.call('GET', base()).then((r) => [r.status, r.body])).to.deep.equal([404, SITE_NOT_FOUND]);
    // The session itself goes on (the user may be a member of other sites): it lists no site now.
    expect(((await member.browser.call('GET', '/console/api/session')).body as { sites: unknown[] }).sites).to.deep.equal([]);

    const ownerId = await idOf(as.owner.email);
    expect(await as.owner.browser.call('PATCH', `${base()}/members/${ownerId}`, { body: { role: 'editor' } }).then((r) => [r.status, r.body])).to.deep.equal([409, LAST_OWNER]);
    expect(await as.owner.browser.call('DELETE', `${base()}/members/${ownerId}`).then((r) => [r.status, r.body])).to.deep.equal([409, LAST_OWNER]);
    const bad = await as.owner.browser.call('PATCH', `${base()}/members/${ownerId}`, { body: { role: 'admin' } });
    expect([bad.status, bad.body]).to.deep.equal([400, { message: 'role must be owner, editor or viewer' }]);
    const notString = await as.owner.browser.call('PATCH', `${base()}/members/${ownerId}`, { body: { role: 1 } });
    expect([notString.status, notString.body]).to.deep.equal([400, { message: 'role must be a string' }]);
  });
});
