// Component tests of the console API (docs/console.md) through the gateway, against the real
// campaign and delivery services and Postgres: logging in and out, the session cookie, rotation,
// CSRF on every state change, throttling that answers alike for every email, invites and
// resets, roles, the site's plan, and the isolation matrix — every route of the table, so a new
// route cannot be forgotten.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { eventually } from '../../test/e2e/support/harness.js';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import type { RunningGateway } from '../src/app.js';
import { ConsoleBrowser, consoleUsers, pathOf, PASSWORD, routeTable, SESSION_COOKIE_VALUE, tokenOf, type ConsoleReply } from './support/console.js';
import { automationBody, NOT_FOUND_BY_PARAM, SAMPLES, sample } from './support/console-samples.js';
import { silentLogger, validCreateBody } from './support/stack.js';

const PUBLIC_URL = 'https://push.example.net';
const MSG = {
  notLoggedIn: { message: 'Not logged in' },
  csrf: { message: 'Invalid CSRF token' },
  siteNotFound: { message: 'Site not found' },
  ownersOnly: { message: "Only the site's owners can do this" },
  wrongLogin: { message: 'Wrong email or password' },
  throttled: { message: 'Too many login attempts; try again later' },
  linkInvalid: { message: 'This link is invalid, used or expired' },
};

/** Every /v2 webhook call (docs/webhooks.md) as [method, the path after `webhooks`, a body it takes]. */
const webhookCalls = (webhookId: string, eventId: string): [string, string, unknown][] => [
  ['GET', '', undefined],
  ['POST', '', { url: 'https://127.0.0.1:9/plan', events: ['campaign.completed'] }],
  ['GET', `/${webhookId}`, undefined],
  ['PATCH', `/${webhookId}`, { enabled: false }],
  ['DELETE', `/${webhookId}`, undefined],
  ['POST', `/${webhookId}/rotate-secret`, {}],
  ['GET', `/${webhookId}/deliveries`, undefined],
  ['POST', `/${webhookId}/deliveries/${eventId}/redeliver`, undefined],
  ['POST', `/${webhookId}/ping`, undefined],
];

interface Delivery {
  eventId: string;
  type: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
}

describe('gateway: the console API', function () {
  this.timeout(120_000);
  let sim: PushSimulator;
  let stack: InProcessStack;
  let gateway: RunningGateway;
  let users: ReturnType<typeof consoleUsers>;
  let siteA: TestSite;
  let siteB: TestSite;
  let campaignB: string;
  let keyB: { id: string; apiKey: string };
  /** Site B's objects, named under another site's path in the tests (a webhook endpoint and an event of it: a ping). */
  let theirs: { campaignId: string; keyId: string; memberId: string; inviteId: string; webhookId: string; eventId: string; templateId: string; automationId: string; externalId: string };
  let ownerA: { email: string; browser: ConsoleBrowser };
  let ownerB: { email: string; browser: ConsoleBrowser };
  let address = 0;
  /** A browser at an address of its own (each test's throttle counts apart). */
  const browser = () => new ConsoleBrowser(gateway.url, `198.51.100.${++address}`);

  before(async () => {
    sim = await startPushSimulator();
    stack = await startInProcess('gateway_console', {
      // The test notifications go to the push simulator, on loopback.
      // … and the webhooks to 127.0.0.1 (port 9, where nothing answers).
      delivery: { log: silentLogger, env: { PUSH_EXTRA_CA_FILE: sim.caCertFile, PUSH_TEST_HOSTS: '127.0.0.1', WEBHOOK_TEST_HOSTS: '127.0.0.1' } },
      campaign: { log: silentLogger },
      gateway: {
        log: silentLogger,
        // The test's client plays the trusted proxy, telling each browser's address.
        env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1', AUTH_CACHE_TTL_MS: '0', PUBLIC_URL },
      },
    });
    gateway = stack.gateway!;
    users = consoleUsers(stack.pool, gateway.url);
    siteA = await stack.newSite({ subscribers: [{ count: 3, topics: ['news'], countries: ['br'] }] });
    siteB = await stack.newSite({ subscribers: [{ count: 2, topics: ['secret-b'], countries: ['pt'] }] });
    ownerA = await users.newUser(siteA.siteId);
    ownerB = await users.newUser(siteB.siteId);
    const created = await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/campaigns`, { body: validCreateBody({ topics: ['secret-b'] }) });
    campaignB = (created.body as { id: string }).id;
    const key = await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/keys`, { body: { label: 'B' } });
    keyB = { id: (key.body as { key: { id: string } }).key.id, apiKey: (key.body as { apiKey: string }).apiKey };
    const memberB = ((await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/members`)).body as { id: string }[])[0].id;
    const inviteB = await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/invites`, { body: { email: 'pending.b@example.com', role: 'editor' } });
    const hook = await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/webhooks`, { body: { url: 'https://127.0.0.1:9/b', events: ['subscriber.created'] } });
    const webhookB = (hook.body as { id: string }).id;
    const eventB = ((await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/webhooks/${webhookB}/ping`)).body as { eventId: string }).eventId;
    const templateB = ((await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/templates`, { body: { ...(SAMPLES.createTemplate.body as object), name: 'Template B' } })).body as { id: string }).id;
    // A person only site B knows (made through /v2, as a customer's server makes one).
    const personB = await fetch(`${gateway.url}/v2/users/only-b`, { method: 'PATCH', headers: { Authorization: keyB.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ tags: { plan: 'b' } }) });
    expect(personB.status).to.equal(200);
    const automationB = ((await ownerB.browser.call('POST', `/console/api/sites/${siteB.siteId}/automations`, { body: automationBody(templateB) })).body as { id: string }).id;
    theirs = { campaignId: campaignB, keyId: keyB.id, memberId: memberB, inviteId: (inviteB.body as { invite: { id: string } }).invite.id, webhookId: webhookB, eventId: eventB, templateId: templateB, automationId: automationB, externalId: 'only-b' };
    const vapidA = (await stack.operators.delivery.registerSite({ siteId: siteA.siteId, publicId: siteA.publicId })).vapidPublicKey;
    SAMPLES.sendTestNotification.body = { subscription: sim.createSubscription(vapidA) };
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  describe('logging in and out', () => {
    it('when a user logs in, then the answer names them, their sites and a CSRF token, and sets the session cookie as docs/console.md says', async () => {
      const b = browser();
      const reply = await b.login(ownerA.email.toUpperCase());
      expect(reply.body).to.deep.equal({
        user: { email: ownerA.email },
        csrfToken: b.csrfToken,
        sites: [{ id: siteA.siteId, name: 'site 1', role: 'owner' }],
      });
      expect(b.csrfToken).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(reply.cookies).to.have.length(1);
      expect(reply.cookies[0]).to.match(SESSION_COOKIE_VALUE);
      const attributes = reply.cookies[0].split('; ').slice(1).sort();
      expect(attributes).to.deep.equal(['HttpOnly', 'Max-Age=604800', 'Path=/console', 'SameSite=Strict']);
      expect(reply.headers.get('cache-control')).to.equal('no-store');
      const session = await b.call('GET', '/console/api/session');
      expect([session.status, session.body]).to.deep.equal([200, reply.body]);
    });

    it('when any console API answer is given (200, 401, 400, 404, 405, 415), then it carries X-Content-Type-Options: nosniff', async () => {
      const b = browser();
      const replies = [
        await b.call('POST', '/console/api/login', { body: { email: ownerA.email, password: PASSWORD } }),
        await browser().call('GET', '/console/api/session'),
        await b.call('POST', '/console/api/login', { body: '{not json' }),
        await b.call('GET', '/console/api/no-such-thing'),
        await b.call('DELETE', '/console/api/session'),
        await b.call('POST', '/console/api/login', { body: '{}', headers: { 'Content-Type': 'text/plain' } }),
      ];
      expect(replies.map((r) => r.status)).to.deep.equal([200, 401, 400, 404, 405, 415]);
      for (const r of replies) expect(r.headers.get('x-content-type-options'), String(r.status)).to.equal('nosniff');
    });

    it('when the gateway is reached over TLS (CONSOLE_SECURE_COOKIE unset), then the cookie is Secure too', async () => {
      const secure = await stack.startGateway({ log: silentLogger, env: { TRUSTED_PROXIES: '127.0.0.1' } });
      const b = new ConsoleBrowser(secure.url, '198.51.100.250');
      const reply = await b.login(ownerA.email);
      expect(reply.cookies[0].split('; ').slice(1).sort()).to.deep.equal(['HttpOnly', 'Max-Age=604800', 'Path=/console', 'SameSite=Strict', 'Secure']);
      const out = await b.call('POST', '/console/api/logout');
      expect(out.cookies).to.deep.equal(['console_session=; Max-Age=0; Path=/console; HttpOnly; SameSite=Strict; Secure']);
    });

    it('when a user logs out, then the session really ends: the old cookie gets 401 and is cleared', async () => {
      const b = browser();
      await b.login(ownerA.email);
      const cookie = b.cookie;
      const out = await b.call('POST', '/console/api/logout');
      expect([out.status, out.body]).to.deep.equal([200, { loggedOut: true }]);
      expect(out.cookies).to.deep.equal(['console_session=; Max-Age=0; Path=/console; HttpOnly; SameSite=Strict']);
      b.cookie = cookie; // a browser (or a thief) that kept it
      const after = await b.call('GET', '/console/api/session');
      expect([after.status, after.body]).to.deep.equal([401, MSG.notLoggedIn]);
      expect(after.cookies).to.deep.equal(['console_session=; Max-Age=0; Path=/console; HttpOnly; SameSite=Strict']);
      expect((await b.call('GET', `/console/api/sites/${siteA.siteId}`)).status).to.equal(401);
    });

    it('when a user logs in again, then a new session id is issued and the one they came with ends (rotation)', async () => {
      const b = browser();
      await b.login(ownerA.email);
      const first = { cookie: b.cookie, csrf: b.csrfToken };
      await b.login(ownerA.email);
      expect(b.cookie).to.not.equal(first.cookie);
      expect(b.csrfToken).to.not.equal(first.csrf);
      const old = new ConsoleBrowser(gateway.url, b.address);
      old.cookie = first.cookie;
      expect((await old.call('GET', '/console/api/session')).status).to.equal(401);
      expect((await b.call('GET', '/console/api/session')).status).to.equal(200);
    });

    it('when no, a malformed or an unknown session cookie comes, then every route but the public ones answers 401 Not logged in', async () => {
      const cases: [string, string][] = [
        ['none', ''],
        ['malformed', 'not-a-session-id'],
        ['unknown', 'A'.repeat(43)],
      ];
      for (const [name, cookie] of cases) {
        const b = browser();
        b.cookie = cookie;
        for (const route of routeTable().filter((r) => r.access !== 'public')) {
          const reply = await b.call(route.method, pathOf(route, { siteId: siteA.siteId, ...theirs }), { body: sample(route.operation).body, csrf: 'anything' });
          expect([reply.status, reply.body], `${name}: ${route.method} ${route.path}`).to.deep.equal([401, MSG.notLoggedIn]);
        }
      }
    });

    it('when the email is no account or the password is wrong, then the answer is the same, and takes about as long', async () => {
      const b = browser();
      const time = async (email: string) => {
        const started = process.hrtime.bigint();
        const reply = await b.call('POST', '/console/api/login', { body: { email, password: 'not the password' } });
        return { reply: [reply.status, reply.body, reply.cookies], ms: Number(process.hrtime.bigint() - started) / 1e6 };
      };
      const known = [await time(ownerA.email), await time(ownerA.email)];
      const unknown = [await time('nobody@example.com'), await time('nobody@example.com')];
      for (const t of [...known, ...unknown]) expect(t.reply).to.deep.equal([401, MSG.wrongLogin, []]);
      // Both verify one scrypt hash (a dummy one for the unknown email): neither is a quick "no".
      const median = (ts: { ms: number }[]) => Math.min(...ts.map((t) => t.ms));
      expect(median(unknown)).to.be.greaterThan(median(known) * 0.4);
    });
  });

  describe('throttling', () => {
    // Each test counts from none, and leaves none for the others (they log in as the same users).
    const forget = () => stack.pool.query('DELETE FROM campaign.login_failures');
    beforeEach(forget);
    afterEach(forget);

    it('when 5 wrong passwords for an owner come from one address, then that address waits growing delays with Retry-After (account or not), and the owner logs in from another', async () => {
      const answers: unknown[] = [];
      for (const email of [ownerA.email, 'no-such-user@example.com']) {
        const attacker = browser();
        const waits: number[] = [];
        for (let i = 0; i < 5; i++) {
          const wrong = await attacker.call('POST', '/console/api/login', { body: { email, password: 'wrong password' } });
          if (wrong.status === 429) {
            waits.push(Number(wrong.headers.get('retry-after')));
            // The wait runs out (as the clock would make it): every failure of the address a minute older.
            await stack.pool.query("UPDATE campaign.login_failures SET failed_at = failed_at - interval '1 minute' WHERE address = $1", [attacker.address]);
            i--;
            continue;
          }
          expect([wrong.status, wrong.body]).to.deep.equal([401, MSG.wrongLogin]);
        }
        const held = await attacker.call('POST', '/console/api/login', { body: { email, password: PASSWORD } });
        expect([held.status, held.body, held.cookies]).to.deep.equal([429, MSG.throttled, []]);
        waits.push(Number(held.headers.get('retry-after')));
        // Free tries, then 2, 4, 8 s: the delay grows with each failure of the pair.
        expect(waits).to.have.length(3);
        expect(waits[0]).to.be.within(1, 2);
        expect(waits[1]).to.be.within(3, 4);
        expect(waits[2]).to.be.within(7, 8);
        answers.push([held.status, held.body]);
      }
      expect(answers[0]).to.deep.equal(answers[1]);
      expect((await browser().login(ownerA.email)).status).to.equal(200);
    });

    it('when one client address (a NAT) has failed 30 times, then it gets 429 for an account that never logged in from it, but one that did gets in, as the gateway decides the address (TRUSTED_PROXIES)', async () => {
      const nat = browser();
      await nat.login(ownerB.email);
      for (let i = 0; i < 30; i++) {
        const wrong = await nat.call('POST', '/console/api/login', { body: { email: `guess${i}@example.com`, password: 'wrong password' } });
        expect(wrong.status).to.equal(401);
      }
      const held = await nat.call('POST', '/console/api/login', { body: { email: ownerA.email, password: PASSWORD } });
      expect([held.status, held.body]).to.deep.equal([429, MSG.throttled]);
      expect(Number(held.headers.get('retry-after'))).to.be.greaterThan(0);
      // An address a client makes up to the left of the proxy's is not believed.
      const spoofed = await nat.call('POST', '/console/api/login', { body: { email: ownerA.email, password: PASSWORD }, headers: { 'X-Forwarded-For': `10.9.9.9, ${nat.address}` } });
      expect(spoofed.status).to.equal(429);
      expect((await nat.login(ownerB.email)).status).to.equal(200);
      expect((await browser().login(ownerA.email)).status).to.equal(200);
    });
  });

  describe('CSRF', () => {
    it('when a state-changing call comes without the session\'s token, with a wrong one or another session\'s, then it is refused with 403 and does nothing', async () => {
      const other = browser();
      await other.login(ownerB.email);
      const b = browser();
      await b.login(ownerA.email);
      const keysBefore = (await b.call('GET', `/console/api/sites/${siteA.siteId}/keys`)).body;
      const changing = routeTable().filter((r) => r.access !== 'public' && r.method !== 'GET');
      expect(changing.length).to.be.greaterThan(5);
      for (const route of changing) {
        const path = pathOf(route, { siteId: siteA.siteId, campaignId: randomUUID(), keyId: randomUUID(), memberId: randomUUID(), inviteId: randomUUID(), webhookId: randomUUID(), eventId: randomUUID(), templateId: randomUUID(), automationId: randomUUID(), externalId: 'someone' });
        for (const csrf of [false, 'wrong', other.csrfToken, b.csrfToken.slice(1), b.csrfToken.toUpperCase()] as const) {
          const reply = await b.call(route.method, path, { body: sample(route.operation).body, csrf });
          expect([reply.status, reply.body], `${route.method} ${route.path} with ${String(csrf)}`).to.deep.equal([403, MSG.csrf]);
        }
      }
      expect((await b.call('GET', `/console/api/sites/${siteA.siteId}/keys`)).body).to.deep.equal(keysBefore);
      expect((await b.call('GET', '/console/api/session')).status).to.equal(200); // logout refused too
    });
  });

  describe('invites and password resets', () => {
    it('when an invite is accepted, then the new user is logged in; the link works once; a reset link sets a new password once', async () => {
      const email = `invited.${Date.now()}@example.com`;
      const invite = await users.accounts.invite({ site: siteA.siteId, email, role: 'editor', baseUrl: PUBLIC_URL });
      expect(invite.link.startsWith(`${PUBLIC_URL}/console/#/invite/`)).to.equal(true);
      const b = browser();
      const short = await b.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(invite.link), password: 'short' } });
      expect([short.status, short.body]).to.deep.equal([400, { message: 'Password must be 10 to 200 characters' }]);
      const accepted = await b.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(invite.link), password: PASSWORD } });
      expect(accepted.status).to.equal(200);
      expect(accepted.body).to.deep.equal({ user: { email }, csrfToken: b.csrfToken, sites: [{ id: siteA.siteId, name: 'site 1', role: 'editor' }] });
      expect(accepted.cookies[0]).to.match(SESSION_COOKIE_VALUE);
      const again = await browser().call('POST', '/console/api/invites/accept', { body: { token: tokenOf(invite.link), password: PASSWORD } });
      expect([again.status, again.body, again.cookies]).to.deep.equal([404, MSG.linkInvalid, []]);

      const reset = await users.accounts.resetLink({ email, baseUrl: PUBLIC_URL });
      const r = browser();
      const done = await r.call('POST', '/console/api/invites/accept', { body: { token: tokenOf(reset.link), password: 'another long password' } });
      expect(done.status).to.equal(200);
      expect((await b.call('GET', '/console/api/session')).status).to.equal(401); // the reset ended every session
      expect((await browser().call('POST', '/console/api/login', { body: { email, password: PASSWORD } })).status).to.equal(401);
      expect((await browser().login(email, 'another long password')).status).to.equal(200);
      const reused = await browser().call('POST', '/console/api/invites/accept', { body: { token: tokenOf(reset.link), password: 'yet another password' } });
      expect([reused.status, reused.body]).to.deep.equal([404, MSG.linkInvalid]);
    });

    it('when an invite has expired, then it is refused', async () => {
      const invite = await users.accounts.invite({ site: siteA.siteId, email: `late.${Date.now()}@example.com`, role: 'owner', baseUrl: PUBLIC_URL });
      await stack.pool.query("UPDATE campaign.one_time_links SET expires_at = now() - interval '1 second'");
      const reply = await browser().call('POST', '/console/api/invites/accept', { body: { token: tokenOf(invite.link), password: PASSWORD } });
      expect([reply.status, reply.body]).to.deep.equal([404, MSG.linkInvalid]);
    });
  });

  describe('plans', () => {
    it("when the site's plan lacks a permission, then the console answers as /v2 does", async () => {
      const site = await stack.newSite({ permissions: [], subscribers: [{ count: 1, topics: ['news'], countries: ['br'] }] });
      const owner = await users.newUser(site.siteId);
      const base = `/console/api/sites/${site.siteId}`;
      const id = randomUUID();
      const create = { message: 'This plan does not have permission to create campaigns with API' };
      const reports = { message: 'This plan does not have permission to access campaign reports via API' };
      // [method, console path, the same call on /v2 (null: none), body, status, answer]
      const expectations: [string, string, string | null, unknown, number, unknown][] = [
        ['POST', `${base}/campaigns`, '/v2/campaign/create', validCreateBody(), 403, create],
        ['POST', `${base}/campaigns/estimate`, null, { topics: ['news'] }, 403, create],
        ['PATCH', `${base}/campaigns/${id}`, null, validCreateBody(), 403, create],
        ['POST', `${base}/campaigns/list`, '/v2/campaigns', {}, 403, reports],
        ['GET', `${base}/campaigns/${id}`, `/v2/campaign/${id}`, undefined, 403, reports],
        ['DELETE', `${base}/campaigns/${id}`, `/v2/campaign/${id}`, undefined, 403, { message: 'This plan does not have permission to delete campaigns via API' }],
        ['GET', `${base}/topics`, '/v2/topics', undefined, 200, []],
        ['GET', `${base}/countries`, '/v2/countries', undefined, 200, []],
        ['GET', `${base}/campaigns/${id}/series`, null, undefined, 403, reports],
        ['POST', `${base}/campaigns/${id}/winner`, `/v2/campaign/${id}/winner`, { variant: 0 }, 403, create],
        ['POST', `${base}/campaigns/${id}/update`, `/v2/campaign/${id}/update`, { title: 'Corrected title' }, 403, create],
        ['POST', `${base}/campaigns/${id}/recall`, `/v2/campaign/${id}/recall`, {}, 403, create],
        ['GET', `${base}/audience/daily`, null, undefined, 200, []],
        ['GET', `${base}/audience/browsers`, null, undefined, 200, []],
        ['GET', `${base}/optin/funnel`, '/v2/optin/funnel', undefined, 403, { message: 'This plan does not have permission to access opt-in reports via API' }],
        ['POST', `${base}/topics/rename`, null, { from: 'news', to: 'headlines' }, 403, { message: 'This plan does not have permission to maintain topics' }],
        ['POST', `${base}/topics/merge`, null, { from: ['news'], to: 'headlines' }, 403, { message: 'This plan does not have permission to maintain topics' }],
        ['POST', `${base}/topics/delete`, null, { name: 'news' }, 403, { message: 'This plan does not have permission to maintain topics' }],
        ['GET', `${base}/subscribers/export`, '/v2/subscribers/export', undefined, 403, { message: 'This plan does not have permission to export subscribers via API' }],
        ['POST', `${base}/campaigns/export`, '/v2/campaigns/export', {}, 403, reports],
        ...(['', '/sends', '/export'] as const).map((rest): [string, string, string | null, unknown, number, unknown] => [
          'GET', `${base}/people/ann${rest}`, rest === '/sends' ? null : `/v2/users/ann${rest}`, undefined, 403, { message: 'This plan does not have permission to manage users via API' },
        ]),
        ['DELETE', `${base}/people/ann`, '/v2/users/ann', undefined, 403, { message: 'This plan does not have permission to manage users via API' }],
        ...(
          [
            ['GET', '', undefined],
            ['POST', '', automationBody(id)],
            ['GET', `/${id}`, undefined],
            ['PATCH', `/${id}`, { status: 'paused' }],
            ['DELETE', `/${id}`, undefined],
          ] as const
        ).map(([method, rest, body]): [string, string, string | null, unknown, number, unknown] => [
          method,
          `${base}/automations${rest}`,
          `/v2/automations${rest}`,
          body,
          403,
          { message: 'This plan does not have permission to manage automations via API' },
        ]),
        ...webhookCalls(id, randomUUID()).map(([method, rest, body]): [string, string, string | null, unknown, number, unknown] => [
          method,
          `${base}/webhooks${rest}`,
          `/v2/webhooks${rest}`,
          body,
          403,
          { message: 'This plan does not have permission to manage webhooks via API' },
        ]),
      ];
      for (const [method, path, v2Path, body, status, answer] of expectations) {
        const reply = await owner.browser.call(method, path, { body });
        expect([reply.status, reply.body], `${method} ${path}`).to.deep.equal([status, answer]);
        if (!v2Path) continue;
        const v2 = await fetch(gateway.url + v2Path, { method, headers: { Authorization: site.key, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        expect([v2.status, await v2.json()], `/v2 for ${method} ${path}`).to.deep.equal([status, answer]);
      }
      // The settings page shows the plan and what it allows.
      const info = await owner.browser.call('GET', base);
      expect((info.body as { plan: unknown }).plan).to.deep.equal({ name: 'plan_3', permissions: [] });
    });
  });

  describe('a site, its keys and its campaigns', () => {
    it("when a member reads the site, then it carries its role, plan, VAPID public key, public id and the plugin's two lines", async () => {
      const reply = await ownerA.browser.call('GET', `/console/api/sites/${siteA.siteId}`);
      const vapid = await stack.operators.delivery.registerSite({ siteId: siteA.siteId, publicId: siteA.publicId });
      expect([reply.status, reply.body]).to.deep.equal([
        200,
        {
          id: siteA.siteId,
          name: 'site 1',
          role: 'owner',
          plan: { name: 'plan_1', permissions: ['create', 'reports', 'delete', 'audience'] },
          vapidPublicKey: vapid.vapidPublicKey,
          publicId: siteA.publicId,
          snippet: {
            page: `<script src="${PUBLIC_URL}/public/v1/webpush.js" data-site="${siteA.publicId}" async></script>`,
            serviceWorker: `importScripts('${PUBLIC_URL}/public/v1/webpush-sw.js');`,
          },
        },
      ]);
    });

    it('when an owner creates, lists, rotates and revokes keys, then /v2 follows at once', async () => {
      const base = `/console/api/sites/${siteA.siteId}/keys`;
      const created = await ownerA.browser.call('POST', base, { body: { label: 'Shop backend' } });
      expect(created.status).to.equal(200);
      const { key, apiKey } = created.body as { key: { id: string; prefix: string }; apiKey: string };
      expect(created.body).to.deep.equal({ key: { ...key, label: 'Shop backend', prefix: apiKey.slice(0, 12), lastUsedAt: null, revokedAt: null }, apiKey });
      const v2 = (k: string) => fetch(`${gateway.url}/v2/topics`, { headers: { Authorization: k } }).then((r) => r.status);
      expect(await v2(apiKey)).to.equal(200);
      const listed = (await ownerA.browser.call('GET', base)).body as { id: string; lastUsedAt: string | null }[];
      expect(listed.find((k) => k.id === key.id)!.lastUsedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(JSON.stringify(listed)).to.not.include(apiKey);

      const rotated = await ownerA.browser.call('POST', `${base}/${key.id}/rotate`);
      const next = rotated.body as { key: { id: string; label: string }; apiKey: string; revoked: { id: string; revokedAt: string } };
      expect([rotated.status, next.key.label, next.revoked.id]).to.deep.equal([200, 'Shop backend', key.id]);
      expect([await v2(apiKey), await v2(next.apiKey)]).to.deep.equal([403, 200]);
      const again = await ownerA.browser.call('POST', `${base}/${key.id}/rotate`);
      expect([again.status, again.body]).to.deep.equal([409, { message: 'The key is already revoked' }]);

      const revoked = await ownerA.browser.call('POST', `${base}/${next.key.id}/revoke`);
      expect((revoked.body as { key: { revokedAt: string } }).key.revokedAt).to.be.a('string');
      expect(await v2(next.apiKey)).to.equal(403);
    });

    it("when a member reads the audience, then the days, browsers, topic changes and a campaign's series come from the delivery service, checked at the edge", async () => {
      const site = await stack.newSite({ subscribers: [{ count: 4, topics: ['alpha', 'beta'], countries: ['br'], topicsPerSubscriber: 2 }] });
      const owner = await users.newUser(site.siteId);
      const base = `/console/api/sites/${site.siteId}`;
      const daily = await owner.browser.call('GET', `${base}/audience/daily`);
      expect(daily.status).to.equal(200);
      const days = daily.body as { day: string; new: number; expired: number; active: number }[];
      expect(days).to.have.length(30);
      expect(Object.keys(days[0])).to.deep.equal(['day', 'new', 'expired', 'active']);
      expect(days[29]).to.deep.include({ day: new Date().toISOString().slice(0, 10), new: 4, active: 4 });
      expect(((await owner.browser.call('GET', `${base}/audience/daily?days=7`)).body as unknown[]).length).to.equal(7);
      for (const bad of ['0', '366', 'abc', '1.5', '-1', '', '7&days=8']) {
        const reply = await owner.browser.call('GET', `${base}/audience/daily?days=${bad}`);
        expect([reply.status, reply.body], `days=${bad}`).to.deep.equal([400, { message: 'days must be an integer from 1 to 365' }]);
      }
      const browsers = await owner.browser.call('GET', `${base}/audience/browsers`);
      expect(browsers.status).to.equal(200);
      expect((browsers.body as { users: number }[]).reduce((n, b) => n + b.users, 0)).to.equal(4);

      const renamed = await owner.browser.call('POST', `${base}/topics/rename`, { body: { from: 'alpha', to: 'gamma' } });
      expect([renamed.status, renamed.body]).to.deep.equal([200, { subscribers: 4 }]);
      const merged = await owner.browser.call('POST', `${base}/topics/merge`, { body: { from: ['beta', 'gamma'], to: 'all' } });
      expect([merged.status, merged.body]).to.deep.equal([200, { subscribers: 4 }]);
      expect((await owner.browser.call('GET', `${base}/topics`)).body).to.deep.equal([{ name: 'all', users: 4 }]);
      const removed = await owner.browser.call('POST', `${base}/topics/delete`, { body: { name: 'all' } });
      expect([removed.status, removed.body]).to.deep.equal([200, { subscribers: 4 }]);
      for (const [path, body, message] of [
        ['rename', { from: 5, to: 'x' }, 'from must be a string'],
        ['rename', { from: 'x\u0000', to: 'y' }, 'from must not contain NUL characters or unpaired surrogates'],
        ['merge', { from: 'beta', to: 'x' }, 'from must be a list of strings'],
        ['merge', { from: ['a', 1], to: 'x' }, 'from must be a list of strings'],
        ['delete', {}, 'name must be a string'],
      ] as const) {
        const reply = await owner.browser.call('POST', `${base}/topics/${path}`, { body });
        expect([reply.status, reply.body], `${path} ${JSON.stringify(body)}`).to.deep.equal([400, { message }]);
      }

      const created = await owner.browser.call('POST', `${base}/campaigns`, { body: validCreateBody({ topics: ['alpha'] }) });
      const series = await owner.browser.call('GET', `${base}/campaigns/${(created.body as { id: string }).id}/series`);
      expect([series.status, series.body]).to.deep.equal([200, { resolution: 'minute', points: [], startedAt: null }]);
      const none = await owner.browser.call('GET', `${base}/campaigns/${randomUUID()}/series`);
      expect([none.status, none.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
    });

    it("when an editor sends a test notification, then one push with the site's key and the console link reaches the browser; refusals are 4xx with the plugin's messages, a push service's 502 with its status, and 429 past 10 a minute", async () => {
      const site = await stack.newSite({ permissions: [] });
      const vapid = (await stack.operators.delivery.registerSite({ siteId: site.siteId, publicId: site.publicId })).vapidPublicKey;
      const editor = await users.newUser(site.siteId, 'editor');
      const path = `/console/api/sites/${site.siteId}/test-notification`;
      const send = (body: unknown) => editor.browser.call('POST', path, { body }).then((r) => [r.status, r.body, r.headers.get('retry-after')]);
      const sub = sim.createSubscription(vapid);
      const siteName = ((await editor.browser.call('GET', '/console/api/session')).body as { sites: { id: string; name: string }[] }).sites.find((x) => x.id === site.siteId)!.name;
      expect(siteName).to.match(/^site \d+$/);

      // No plan permission is needed: it tests the site's keys and the user's browser.
      expect(await send({ subscription: sub })).to.deep.equal([200, { sent: true }, null]);
      const [received] = sim.received(sub.id);
      expect(JSON.parse(received.payload)).to.deep.equal({
        v: 1,
        id: 'test-notification',
        title: 'Test notification',
        body: `Notifications from ${siteName} reach this browser.`,
        url: `${PUBLIC_URL}/console/#/sites/${site.siteId}/settings`,
        icon: null,
        image: null,
      });
      // 60 s; a retry (the push service slow to answer on a loaded machine) sends what is left of it.
      expect(received.headers.ttl).to.be.within(50, 60);

      const plugin = 'subscription.endpoint must be an https URL of a push service, subscription.keys.p256dh must be a base64url P-256 public key, subscription.keys.auth must be 16 bytes in base64url';
      for (const body of [{}, { subscription: 'x' }, { subscription: { endpoint: 5, keys: [] } }, { subscription: { endpoint: '', keys: { p256dh: null, auth: {} } } }]) {
        expect(await send(body), JSON.stringify(body)).to.deep.equal([400, { message: plugin }, null]);
      }
      expect(await send({ subscription: { ...sub, endpoint: 'https://evil.example/push' } })).to.deep.equal([400, { message: 'subscription.endpoint must be an https URL of a push service' }, null]);
      const gone = sim.createSubscription(vapid);
      sim.expireSubscription(gone.id);
      expect(await send({ subscription: gone })).to.deep.equal([502, { message: 'The push service refused the test notification: 410 subscription gone' }, null]);
      // Another site's subscription: its push service refuses this site's key.
      expect(await send(SAMPLES.sendTestNotification.body)).to.deep.equal([502, { message: 'The push service refused the test notification: 403 forbidden (VAPID key mismatch)' }, null]);
      // 10 a minute per site: three sent so far (the refused input does not count).
      for (let i = 0; i < 7; i++) expect((await send({ subscription: sub }))[0], `send ${i + 4}`).to.equal(200);
      const [status, body, retryAfter] = await send({ subscription: sub });
      expect([status, body]).to.deep.equal([429, { message: 'Too many test notifications for this site; try again in a minute' }]);
      expect(Number(retryAfter)).to.be.within(1, 60);
      expect(sim.received(sub.id)).to.have.length(8);
    });

    it('when an owner lists the members, then each comes with their role', async () => {
      const reply = await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/members`);
      expect(reply.status).to.equal(200);
      expect((reply.body as object[]).map((m) => ({ ...m, since: '' }))).to.deep.equal([{ id: theirs.memberId, email: ownerB.email, role: 'owner', since: '' }]);
      expect((reply.body as { since: string }[])[0].since).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it('when a campaign is created, listed, read and deleted in the console, then bodies, messages and answers are /v2\'s', async () => {
      const base = `/console/api/sites/${siteA.siteId}`;
      const bad = { title: 'x', body: 'y', topics: [], status: 'nope', scheduleMode: 'never' };
      const consoleBad = await ownerA.browser.call('POST', `${base}/campaigns`, { body: bad });
      const v2Bad = await fetch(`${gateway.url}/v2/campaign/create`, { method: 'POST', headers: { Authorization: siteA.key, 'Content-Type': 'application/json' }, body: JSON.stringify(bad) });
      expect([consoleBad.status, consoleBad.body]).to.deep.equal([v2Bad.status, await v2Bad.json()]);
      expect(consoleBad.status).to.equal(400);

      const created = await ownerA.browser.call('POST', `${base}/campaigns`, { body: validCreateBody({ topics: ['news'] }) });
      const id = (created.body as { id: string }).id;
      expect(created.body).to.deep.equal({ id });
      const got = await ownerA.browser.call('GET', `${base}/campaigns/${id}`);
      const v2Got = await fetch(`${gateway.url}/v2/campaign/${id}`, { headers: { Authorization: siteA.key } });
      expect(got.body).to.deep.equal(await v2Got.json());
      expect((got.body as { totalUsers: number }).totalUsers).to.equal(3);
      const page = await ownerA.browser.call('POST', `${base}/campaigns/list`, { body: { limit: 1 } });
      expect((page.body as { items: { id: string }[]; limit: number }).limit).to.equal(1);
      const badList = await ownerA.browser.call('POST', `${base}/campaigns/list`, { body: { limit: -1 } });
      expect([badList.status, badList.body]).to.deep.equal([400, { message: 'limit must be a positive number' }]);
      const estimate = await ownerA.browser.call('POST', `${base}/campaigns/estimate`, { body: { topics: ['news'], countries: ['pt'] } });
      expect([estimate.status, estimate.body]).to.deep.equal([200, { totalUsers: 3 }]);
      const badEstimate = await ownerA.browser.call('POST', `${base}/campaigns/estimate`, { body: { topics: [] } });
      expect([badEstimate.status, badEstimate.body]).to.deep.equal([400, { message: 'At least one topic or country must be specified' }]);
      const deleted = await ownerA.browser.call('DELETE', `${base}/campaigns/${id}`);
      expect([deleted.status, deleted.body]).to.deep.equal([200, { id, deleted: true }]);
      const gone = await ownerA.browser.call('GET', `${base}/campaigns/${id}`);
      expect([gone.status, gone.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
      const topics = await ownerA.browser.call('GET', `${base}/topics`);
      expect(topics.body).to.deep.include({ name: 'news', users: 3 });
    });
  });

  describe('automations', () => {
    it("when an automation is created, listed, read, paused, resumed and deleted in the console, then bodies, messages and answers are /v2's, results included; viewers read and change nothing", async () => {
      const base = `/console/api/sites/${siteA.siteId}`;
      const v2 = (method: string, path: string, body?: unknown) =>
        fetch(gateway.url + path, { method, headers: { Authorization: siteA.key, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => [r.status, await r.json()] as const);
      const templateId = ((await ownerA.browser.call('POST', `${base}/templates`, { body: { ...(SAMPLES.createTemplate.body as object), name: 'For automations' } })).body as { id: string }).id;
      // Refused as /v2 refuses the same body (every field's text joined), nothing stored.
      const bad = { name: '', trigger: { type: 'event', name: 'a b' }, steps: [{ delaySeconds: -1, templateId: theirs.templateId }], exitOn: { events: ['x', 'x'] } };
      const consoleBad = await ownerA.browser.call('POST', `${base}/automations`, { body: bad });
      expect([consoleBad.status, consoleBad.body]).to.deep.equal(await v2('POST', '/v2/automations', bad));
      expect(consoleBad.status).to.equal(400);
      const another = await ownerA.browser.call('POST', `${base}/automations`, { body: automationBody(theirs.templateId) });
      expect([another.status, another.body]).to.deep.equal([400, { message: 'steps[0].templateId is not a template of this site' }]);
      expect((await v2('GET', '/v2/automations'))[1].items).to.deep.equal([]);

      const created = await ownerA.browser.call('POST', `${base}/automations`, { body: { ...automationBody(templateId), steps: [{ delaySeconds: 3600, templateId, variables: { name: 'Ana' } }, { delaySeconds: 86_400, templateId }] } });
      expect(created.status).to.equal(200);
      const a = created.body as { id: string; steps: { results: unknown }[]; enrolments: unknown };
      const none = { sent: 0, exits: 0, impressions: 0, clicks: 0, ctr: 0 };
      expect(a.steps.map((s) => s.results)).to.deep.equal([none, none]);
      expect(a.enrolments).to.deep.equal({ active: 0, completed: 0, exited: 0, exitReasons: {} });
      const [, fromV2] = await v2('GET', `/v2/automations/${a.id}`);
      const viewer = await users.newUser(siteA.siteId, 'viewer');
      for (const who of [ownerA, viewer]) {
        const got = await who.browser.call('GET', `${base}/automations/${a.id}`);
        expect([got.status, got.body]).to.deep.equal([200, fromV2]);
        const list = await who.browser.call('GET', `${base}/automations?limit=1`);
        expect([list.status, list.body]).to.deep.equal([200, (await v2('GET', '/v2/automations?limit=1'))[1]]);
      }
      expect(fromV2).to.deep.equal(created.body);
      for (const [method, path, body] of [['POST', '', automationBody(templateId)], ['PATCH', `/${a.id}`, { status: 'paused' }], ['DELETE', `/${a.id}`, undefined]] as const) {
        expect(await viewer.browser.call(method, `${base}/automations${path}`, { body }).then((r) => [r.status, r.body]), `${method} ${path}`).to.deep.equal([403, { message: 'Viewers cannot change anything' }]);
      }
      expect((await v2('GET', '/v2/automations'))[1].items).to.have.length(1);

      const paused = await ownerA.browser.call('PATCH', `${base}/automations/${a.id}`, { body: { status: 'paused' } });
      expect([paused.status, (paused.body as { status: string }).status]).to.deep.equal([200, 'paused']);
      expect((await v2('GET', `/v2/automations/${a.id}`))[1]).to.deep.equal(paused.body);
      const badPatch = await ownerA.browser.call('PATCH', `${base}/automations/${a.id}`, { body: { steps: [] } });
      expect([badPatch.status, badPatch.body]).to.deep.equal(await v2('PATCH', `/v2/automations/${a.id}`, { steps: [] }));
      const resumed = await ownerA.browser.call('PATCH', `${base}/automations/${a.id}`, { body: { status: 'active' } });
      expect((resumed.body as { status: string }).status).to.equal('active');
      const deleted = await ownerA.browser.call('DELETE', `${base}/automations/${a.id}`);
      expect([deleted.status, deleted.body]).to.deep.equal([200, { id: a.id, deleted: true }]);
      for (const id of [a.id, 'not-an-id']) {
        expect(await ownerA.browser.call('GET', `${base}/automations/${id}`).then((r) => [r.status, r.body]), id).to.deep.equal([404, { message: 'Automation not found' }]);
      }
      expect((await v2('GET', `/v2/automations/${a.id}`))[0]).to.equal(404);
    });
  });

  describe('people', () => {
    it("when members look up a person, then the subscriptions (with country and topics), tags and what was sent come as /v2 has them; owners export and delete as /v2 does, others are refused", async () => {
      const base = `/console/api/sites/${siteA.siteId}/people`;
      const v2 = (method: string, path: string, body?: unknown) =>
        fetch(gateway.url + path, { method, headers: { Authorization: siteA.key, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => [r.status, await r.json()] as const);
      const id = 'Ana María/1';
      const path = `${base}/${encodeURIComponent(id)}`;
      expect((await v2('PATCH', `/v2/users/${encodeURIComponent(id)}`, { tags: { plan: 'gold', since: '2026-01-15' } }))[0]).to.equal(200);
      // A subscription of site A is hers (seeded now: her delete takes it, and the site's counts
      // are back as they were), and a campaign reached it, shown and clicked.
      await stack.operators.delivery.seedSubscribers({ siteId: siteA.siteId, count: 1, topics: ['news'], countries: ['br'] });
      const { rows } = await stack.pool.query(
        `INSERT INTO delivery.person_subscriptions (subscriber_id, person_id)
         SELECT (SELECT max(id) FROM delivery.subscribers WHERE site_id = $1), id FROM delivery.people WHERE site_id = $1 AND external_id = $2
         RETURNING subscriber_id`,
        [siteA.siteId, id],
      );
      const run = randomUUID();
      await stack.pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state) VALUES ($1, $2, '{"version": 2, "content": {"title": "Hello Ana"}}', 'completed')`, [run, siteA.siteId]);
      await stack.pool.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by, finished_at) VALUES ($1, $2, 'sent', $3, now())`, [run, rows[0].subscriber_id, randomUUID()]);
      await stack.pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind) VALUES ($1, $2, 'impression'), ($1, $2, 'click')`, [run, rows[0].subscriber_id]);

      const viewer = await users.newUser(siteA.siteId, 'viewer');
      const editor = await users.newUser(siteA.siteId, 'editor');
      const [, fromV2] = await v2('GET', `/v2/users/${encodeURIComponent(id)}`);
      for (const who of [ownerA, editor, viewer]) {
        const person = await who.browser.call('GET', path);
        expect(person.status).to.equal(200);
        expect(person.body).to.deep.equal({ ...fromV2, subscriptions: fromV2.subscriptions.map((x: object) => ({ ...x, country: 'BR', topics: ['news'] })) });
        const sends = await who.browser.call('GET', `${path}/sends`);
        const items = (sends.body as { items: Record<string, unknown>[] }).items;
        expect([sends.status, (sends.body as { more: boolean }).more, items.length]).to.deep.equal([200, false, 1]);
        expect(items[0]).to.deep.include({ runId: run, kind: 'campaign', campaignId: run, title: 'Hello Ana', subscriptionId: fromV2.subscriptions[0].id, state: 'sent' });
        expect(Object.keys(items[0]).sort()).to.deep.equal(['at', 'campaignId', 'clickAt', 'finishedAt', 'impressionAt', 'kind', 'runId', 'state', 'subscriptionId', 'title']);
        expect(items[0].clickAt).to.be.a('string');
      }
      for (const who of [editor, viewer]) {
        expect(await who.browser.call('GET', `${path}/export`).then((r) => [r.status, r.body])).to.deep.equal([403, MSG.ownersOnly]);
        expect(await who.browser.call('DELETE', path).then((r) => [r.status, r.body])).to.deep.equal([403, MSG.ownersOnly]);
      }
      // Refusals are /v2's: an id breaking its rule, one the site does not have.
      for (const bad of ['x'.repeat(129), 'nobody']) {
        const [status, answer] = await v2('GET', `/v2/users/${encodeURIComponent(bad)}`);
        for (const rest of ['', '/sends', '/export']) {
          expect(await ownerA.browser.call('GET', `${base}/${encodeURIComponent(bad)}${rest}`).then((r) => [r.status, r.body]), `${bad}${rest}`).to.deep.equal([status, answer]);
        }
      }
      const exported = await ownerA.browser.call('GET', `${path}/export`);
      expect(exported.status).to.equal(200);
      const [, v2Export] = await v2('GET', `/v2/users/${encodeURIComponent(id)}/export`);
      expect({ ...(exported.body as object), exportedAt: '' }).to.deep.equal({ ...v2Export, exportedAt: '' });
      expect(await ownerA.browser.call('DELETE', path).then((r) => [r.status, r.body])).to.deep.equal([200, { externalId: id, deleted: true, subscriptions: 1 }]);
      expect(await ownerA.browser.call('GET', path).then((r) => [r.status, r.body])).to.deep.equal([404, { message: 'User not found' }]);
      expect((await v2('GET', `/v2/users/${encodeURIComponent(id)}`))[0]).to.equal(404);
    });
  });

  describe('drafts', () => {
    const base = () => `/console/api/sites/${siteA.siteId}`;
    const v2Create = async (body: unknown) => {
      const res = await fetch(`${gateway.url}/v2/campaign/create`, { method: 'POST', headers: { Authorization: siteA.key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return [res.status, await res.json()] as const;
    };
    // To sports, which no subscriber of site A follows: an edit's new count is seen.
    const newDraft = async () => ((await ownerA.browser.call('POST', `${base()}/campaigns`, { body: validCreateBody() })).body as { id: string }).id;
    const v2Get = async (id: string) => (await fetch(`${gateway.url}/v2/campaign/${id}`, { headers: { Authorization: siteA.key } })).json() as Promise<Record<string, unknown>>;

    it("when a draft is edited in the console, then it is kept, scheduled or sent now with the create's rules, messages and answer, as /v2 then shows it", async () => {
      const id = await newDraft();
      const edit = (body: unknown) => ownerA.browser.call('PATCH', `${base()}/campaigns/${id}`, { body });
      // Refused as /v2 create refuses the same body, and nothing changes.
      const before = await v2Get(id);
      expect(before.totalUsers).to.equal(0);
      for (const bad of [{ title: 'x', body: 'y', topics: [], status: 'nope', scheduleMode: 'never' }, validCreateBody({ ttl: '60', icon: 'http://insecure.example/i.png' }), validCreateBody({ scheduleMode: 'scheduled' })]) {
        const reply = await edit(bad);
        expect([reply.status, reply.body], JSON.stringify(bad)).to.deep.equal(await v2Create(bad));
        expect(reply.status).to.equal(400);
      }
      expect(await v2Get(id)).to.deep.equal(before);

      // Counted again: site A's 3 subscribers of news (none is in Portugal).
      const kept = await edit(validCreateBody({ title: 'Edited in the console', topics: ['news'], countries: ['pt'] }));
      expect([kept.status, kept.body]).to.deep.equal([200, { id }]);
      expect(await v2Get(id)).to.deep.include({ title: 'Edited in the console', status: 'draft', topics: ['news', 'country__pt'], totalUsers: 3 });

      const local = await edit(validCreateBody({ topics: ['news'], status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-02T18:45:00Z', localTime: '09:00' }));
      expect(local.status).to.equal(200);
      expect(Object.keys(local.body as object)).to.deep.equal(['id', 'localTime']);
      expect((local.body as { localTime: { date: string; time: string } }).localTime).to.deep.include({ date: '2031-06-02', time: '09:00' });
      const scheduled = await v2Get(id);
      expect([scheduled.status, scheduled.scheduleMode, scheduled.localTime]).to.deep.equal(['published', 'scheduled', (local.body as { localTime: unknown }).localTime]);

      // No longer a draft.
      const again = await edit(validCreateBody());
      expect([again.status, again.body]).to.deep.equal([409, { message: 'Only a draft can be edited' }]);
      expect(await v2Get(id)).to.deep.equal(scheduled);

      const now = await newDraft();
      const sent = await ownerA.browser.call('PATCH', `${base()}/campaigns/${now}`, { body: validCreateBody({ title: 'Sent from a draft', topics: ['news'], status: 'published' }) });
      expect([sent.status, sent.body]).to.deep.equal([200, { id: now }]);
      expect(await v2Get(now)).to.deep.include({ title: 'Sent from a draft', status: 'published', scheduleMode: 'now' });
      const deleteRefused = await ownerA.browser.call('DELETE', `${base()}/campaigns/${now}`);
      expect([deleteRefused.status, deleteRefused.body]).to.deep.equal([409, { message: 'Cannot delete a campaign that has already been sent' }]);
    });

    it("when an edit names no campaign, a deleted one, an odd id or sends no JSON, then 404, 400 or 415 with a message, and nothing is written", async () => {
      const id = await newDraft();
      const before = await v2Get(id);
      for (const odd of [randomUUID(), 'abc', "' OR 1=1 --", id.toUpperCase().replace(/-/g, '')]) {
        const reply = await ownerA.browser.call('PATCH', `${base()}/campaigns/${encodeURIComponent(odd)}`, { body: validCreateBody() });
        expect([reply.status, reply.body], odd).to.deep.equal([404, { message: 'Campaign not found' }]);
      }
      const plain = await ownerA.browser.call('PATCH', `${base()}/campaigns/${id}`, { body: JSON.stringify(validCreateBody()), headers: { 'Content-Type': 'text/plain' } });
      expect([plain.status, plain.body]).to.deep.equal([415, { message: 'Content-Type must be application/json' }]);
      for (const text of ['{', '[]', '"draft"', 'null']) {
        const reply = await ownerA.browser.call('PATCH', `${base()}/campaigns/${id}`, { body: text });
        expect([reply.status, reply.body], text).to.deep.equal([400, { message: 'Invalid JSON body' }]);
      }
      expect(await v2Get(id)).to.deep.equal(before);
      await ownerA.browser.call('DELETE', `${base()}/campaigns/${id}`);
      const gone = await ownerA.browser.call('PATCH', `${base()}/campaigns/${id}`, { body: validCreateBody() });
      expect([gone.status, gone.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
    });
  });

  describe('webhooks', () => {
    const base = () => `/console/api/sites/${siteA.siteId}/webhooks`;
    const call = async (method: string, path: string, body?: unknown) => {
      const reply = await ownerA.browser.call(method, base() + path, { body });
      return [reply.status, reply.body] as const;
    };
    const v2 = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${gateway.url}/v2/webhooks${path}`, { method, headers: { Authorization: siteA.key, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return [res.status, await res.json()] as const;
    };

    it("when an owner adds, edits, rotates, pings, redelivers, disables and deletes a webhook in the console, then each answer and refusal is /v2's, and /v2 sees each change", async () => {
      for (const bad of [{}, { url: 'http://example.com/x', events: ['nope'] }, { url: 'https://user:pw@example.com/', events: ['campaign.failed'], description: 5 }, { url: 'https://10.0.0.1/', events: [] }]) {
        const refused = await call('POST', '', bad);
        expect(refused, JSON.stringify(bad)).to.deep.equal(await v2('POST', '', bad));
        expect(refused[0]).to.equal(400);
      }
      const plain = await ownerA.browser.call('POST', base(), { body: JSON.stringify({ url: 'https://127.0.0.1:9/x', events: ['campaign.failed'] }), headers: { 'Content-Type': 'text/plain' } });
      expect([plain.status, plain.body]).to.deep.equal([415, { message: 'Content-Type must be application/json' }]);

      const [status, made] = await call('POST', '', { url: 'https://127.0.0.1:9/console', events: ['subscriber.expired', 'campaign.completed'], description: 'CRM sync' });
      expect(status).to.equal(200);
      const { secret, ...endpoint } = made as { id: string; secret: string };
      expect(secret).to.match(/^whsec_/);
      expect(endpoint).to.deep.include({ url: 'https://127.0.0.1:9/console', events: ['campaign.completed', 'subscriber.expired'], description: 'CRM sync', enabled: true });
      expect(await v2('GET', `/${endpoint.id}`)).to.deep.equal([200, endpoint]);
      const listed = await call('GET', '');
      expect(listed).to.deep.equal(await v2('GET', ''));
      expect(JSON.stringify(listed)).to.not.include(secret);

      const [, edited] = await call('PATCH', `/${endpoint.id}`, { events: ['notification.clicks'], description: 'Edited' });
      expect(edited).to.deep.include({ url: 'https://127.0.0.1:9/console', events: ['notification.clicks'], description: 'Edited' });
      expect(await call('PATCH', `/${endpoint.id}`, { enabled: 'no' })).to.deep.equal(await v2('PATCH', `/${endpoint.id}`, { enabled: 'no' }));

      const [, rotated] = await call('POST', `/${endpoint.id}/rotate-secret`, { overlapHours: 2 });
      const next = rotated as { secret: string; previousSecretExpiresAt: string };
      expect(next.secret).to.match(/^whsec_/).and.not.equal(secret);
      expect(next.previousSecretExpiresAt).to.be.a('string');
      expect(await call('POST', `/${endpoint.id}/rotate-secret`, { overlapHours: 169 })).to.deep.equal([400, { message: 'overlapHours must be an integer between 0 and 168' }]);

      // Nothing answers on port 9: the ping's first attempt has no status, a latency and an error.
      const [, ping] = await call('POST', `/${endpoint.id}/ping`);
      const eventId = (ping as Delivery).eventId;
      const attempted = await eventually(async () => {
        const [, list] = await call('GET', `/${endpoint.id}/deliveries`);
        const d = (list as Delivery[]).find((x) => x.eventId === eventId);
        // Recorded, not only claimed: a claim counts the attempt before its outcome is written.
        return d && d.attempts > 0 && d.lastAttemptAt !== null ? d : undefined;
      }, 30_000, 200);
      expect(attempted).to.deep.include({ type: 'webhook.ping', state: 'pending', lastStatus: null });
      expect(attempted.lastLatencyMs).to.be.a('number');
      expect(attempted.lastError).to.be.a('string');
      // Disabled, nothing is attempted: the list stands still to be compared.
      const [, disabled] = await call('PATCH', `/${endpoint.id}`, { enabled: false });
      expect(disabled).to.deep.include({ enabled: false });
      expect(await call('GET', `/${endpoint.id}/deliveries`)).to.deep.equal(await v2('GET', `/${endpoint.id}/deliveries`));
      const [again, redelivered] = await call('POST', `/${endpoint.id}/deliveries/${eventId}/redeliver`);
      expect([again, (redelivered as Delivery).eventId, (redelivered as Delivery).state]).to.deep.equal([200, eventId, 'pending']);
      expect(await call('POST', `/${endpoint.id}/deliveries/${randomUUID()}/redeliver`)).to.deep.equal([404, { message: 'Event not found' }]);

      expect(await call('DELETE', `/${endpoint.id}`)).to.deep.equal([200, { id: endpoint.id, deleted: true }]);
      expect(await v2('GET', `/${endpoint.id}`)).to.deep.equal([404, { message: 'Webhook not found' }]);
      for (const odd of [endpoint.id, 'abc', "' OR 1=1 --", randomUUID()]) {
        expect(await call('GET', `/${encodeURIComponent(odd)}`), odd).to.deep.equal([404, { message: 'Webhook not found' }]);
      }
    });

    it("when an editor calls any webhook route, then it is refused as an owner's route: an endpoint's URL and secret are the owners'", async () => {
      const editor = await users.newUser(siteA.siteId, 'editor');
      const [, made] = await call('POST', '', { url: 'https://127.0.0.1:9/owners', events: ['campaign.failed'] });
      const id = (made as { id: string }).id;
      for (const [method, rest, body] of webhookCalls(id, randomUUID())) {
        const reply = await editor.browser.call(method, `${base()}${rest}`, { body });
        expect([reply.status, reply.body], `${method} ${rest}`).to.deep.equal([403, MSG.ownersOnly]);
      }
      expect((await call('GET', `/${id}`))[0]).to.equal(200);
      expect(await call('DELETE', `/${id}`)).to.deep.equal([200, { id, deleted: true }]);
    });
  });

  describe('isolation', () => {
    it("when a user names another site, then every site route answers 404 Site not found, exactly as for a site that does not exist, and the other site is untouched", async () => {
      const b = ownerA.browser;
      const siteRoutes = routeTable().filter((r) => r.path.includes('{siteId}'));
      expect(siteRoutes.length).to.be.greaterThan(10);
      for (const siteId of [siteB.siteId, randomUUID(), 'not-a-site', '%ZZ']) {
        for (const route of siteRoutes) {
          const reply = await b.call(route.method, pathOf(route, { siteId, ...theirs }).replace('%25ZZ', '%ZZ'), { body: sample(route.operation).body });
          expect([reply.status, reply.body], `${route.method} ${route.path} for ${siteId}`).to.deep.equal([404, MSG.siteNotFound]);
        }
      }
      const stillThere = await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/campaigns/${campaignB}`);
      expect(stillThere.status).to.equal(200);
      expect(await fetch(`${gateway.url}/v2/topics`, { headers: { Authorization: keyB.apiKey } }).then((r) => r.status)).to.equal(200);
    });

    it("when a user names another site's campaign, key, webhook or webhook event under their own site, then it is not found, and nothing happens to it", async () => {
      const b = ownerA.browser;
      const withObjects = routeTable().filter((r) => r.path.includes('{siteId}') && /\{(?!siteId\})\w+\}/.test(r.path));
      expect(withObjects.length).to.be.greaterThan(3);
      for (const route of withObjects) {
        const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((n) => n !== 'siteId');
        for (const name of names) if (!NOT_FOUND_BY_PARAM[name]) expect.fail(`{${name}} of ${route.path} has no not-found expectation in NOT_FOUND_BY_PARAM`);
        const reply = await b.call(route.method, pathOf(route, { siteId: siteA.siteId, ...theirs }), { body: sample(route.operation).body });
        // The first object a path names is looked up first (a webhook before its event).
        expect([reply.status, reply.body], `${route.method} ${route.path}`).to.deep.equal([404, NOT_FOUND_BY_PARAM[names[0]]]);
      }
      expect((await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/campaigns/${campaignB}`)).status).to.equal(200);
      const hook = await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/webhooks/${theirs.webhookId}`);
      expect([hook.status, (hook.body as { description: string }).description]).to.deep.equal([200, '']);
      const events = (await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/webhooks/${theirs.webhookId}/deliveries`)).body as { eventId: string; attempts: number }[];
      expect(events.map((e) => e.eventId)).to.deep.equal([theirs.eventId]);
      expect(await fetch(`${gateway.url}/v2/topics`, { headers: { Authorization: keyB.apiKey } }).then((r) => r.status)).to.equal(200);
    });

    it("when a user renames, merges or deletes another site's topic under their own site, then it is not found there, and the other site keeps it", async () => {
      const base = `/console/api/sites/${siteA.siteId}/topics`;
      const notFound = { message: 'Topic "secret-b" not found' };
      for (const [path, body] of [
        ['rename', { from: 'secret-b', to: 'mine-now' }],
        ['merge', { from: ['secret-b'], to: 'news' }],
        ['delete', { name: 'secret-b' }],
      ] as const) {
        const reply = await ownerA.browser.call('POST', `${base}/${path}`, { body });
        expect([reply.status, reply.body], path).to.deep.equal([400, notFound]);
      }
      const theirs = await ownerB.browser.call('GET', `/console/api/sites/${siteB.siteId}/topics`);
      expect(theirs.body).to.deep.equal([{ name: 'secret-b', users: 2 }]);
    });

    it("when a user lists their site's topics, countries, keys, members and webhooks, then nothing of another site is in them", async () => {
      const b = ownerA.browser;
      const base = `/console/api/sites/${siteA.siteId}`;
      const everything = JSON.stringify(await Promise.all(['/topics', '/countries', '/keys', '/members', '/invites', '/audience/browsers', '/webhooks', ''].map((p) => b.call('GET', base + p).then((r) => r.body))));
      for (const other of ['secret-b', 'country__pt', keyB.id, ownerB.email, siteB.publicId, campaignB, theirs.memberId, theirs.inviteId, 'pending.b@example.com', theirs.webhookId, '127.0.0.1:9/b']) expect(everything).to.not.include(other);
      const session = JSON.stringify((await b.call('GET', '/console/api/session')).body);
      expect(session).to.not.include(siteB.siteId);
    });
  });

  describe('bad input', () => {
    it('when a path is not a console route, or the method is not the route\'s, then 404 or 405 with Allow', async () => {
      const b = ownerA.browser;
      expect(await b.call('GET', '/console/api/nope').then((r) => [r.status, r.body])).to.deep.equal([404, { message: 'Not found' }]);
      const wrong = await b.call('PUT', `/console/api/sites/${siteA.siteId}/keys`);
      expect([wrong.status, wrong.headers.get('allow')]).to.deep.equal([405, 'GET, POST, HEAD']);
    });

    it('when a body is not JSON, not an object, not declared JSON, too large or not UTF-8, then it is refused with 4xx before any work', async () => {
      const b = browser();
      const login = (body: string | Uint8Array<ArrayBuffer>, type = 'application/json'): Promise<ConsoleReply> =>
        fetch(`${gateway.url}/console/api/login`, { method: 'POST', headers: { 'Content-Type': type, 'X-Forwarded-For': b.address }, body }).then(async (r) => ({
          status: r.status,
          headers: r.headers,
          body: await r.json(),
          cookies: r.headers.getSetCookie(),
        }));
      expect((await login('{')).body).to.deep.equal({ message: 'Invalid JSON body' });
      expect((await login('[]')).status).to.equal(400);
      expect((await login('')).status).to.equal(400);
      expect(await login(JSON.stringify({ email: ownerA.email, password: PASSWORD }), 'text/plain').then((r) => [r.status, r.body])).to.deep.equal([415, { message: 'Content-Type must be application/json' }]);
      expect(await login(`{"email":"${'x'.repeat(200_000)}"}`).then((r) => [r.status, r.body])).to.deep.equal([413, { message: 'Request body too large' }]);
      expect((await login(new Uint8Array([0x7b, 0xff, 0x7d]))).body).to.deep.equal({ message: 'Invalid JSON body' });
      expect(await login(JSON.stringify({ email: 5, password: PASSWORD })).then((r) => [r.status, r.body])).to.deep.equal([400, { message: 'email must be a string' }]);
      expect(await login(JSON.stringify({ email: ownerA.email })).then((r) => [r.status, r.body])).to.deep.equal([400, { message: 'password must be a string' }]);
      expect(await login('{"email":"a\\u0000b","password":"x"}').then((r) => [r.status, r.body])).to.deep.equal([400, { message: 'email must not contain NUL characters or unpaired surrogates' }]);
      expect(await login('{"email":"a@b","password":"\\ud800 lone"}').then((r) => [r.status, r.body])).to.deep.equal([400, { message: 'password must not contain NUL characters or unpaired surrogates' }]);
    });
  });
});
