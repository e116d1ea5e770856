// The audit log through the gateway (docs/console.md, "Audit log"), against the real campaign and
// delivery services and Postgres: what both routers record (a console user's and an API key's
// calls, refusals with their status, logins and logouts per site, exports; not reads), that an
// append the delivery service refuses changes no answer, and the owners' routes that read the log,
// export it and set its retention.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import type { RunningGateway } from '../src/app.js';
import { ConsoleBrowser, consoleUsers } from './support/console.js';
import { silentLogger, validCreateBody } from './support/stack.js';

interface Entry {
  id: number;
  at: string;
  actor: { kind: string; id: string; prefix: string; label: string };
  action: string;
  target: string;
  status: number;
  clientAddress: string;
  requestId: string;
}

describe('gateway: the audit log', function () {
  this.timeout(120_000);
  let stack: InProcessStack;
  let gateway: RunningGateway;
  let users: ReturnType<typeof consoleUsers>;
  let siteA: TestSite;
  let siteB: TestSite;
  let ownerA: { email: string; browser: ConsoleBrowser };
  let address = 0;
  const browser = () => new ConsoleBrowser(gateway.url, `198.51.100.${++address}`);

  before(async () => {
    stack = await startInProcess('gateway_audit', {
      delivery: { log: silentLogger },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1', AUTH_CACHE_TTL_MS: '0' } },
    });
    gateway = stack.gateway!;
    users = consoleUsers(stack.pool, gateway.url);
    siteA = await stack.newSite({ subscribers: [{ count: 2, topics: ['news'], countries: ['br'] }] });
    siteB = await stack.newSite();
    ownerA = await users.newUser(siteA.siteId);
  });
  after(async () => {
    await stack?.stop();
  });

  /** The site's entries, newest first, as an owner reads them. */
  async function entries(siteId: string, owner = ownerA): Promise<Entry[]> {
    const reply = await owner.browser.call('GET', `/console/api/sites/${siteId}/audit?limit=100`);
    expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
    return (reply.body as { items: Entry[] }).items;
  }
  const newestId = async (siteId: string, owner = ownerA) => (await entries(siteId, owner))[0]?.id ?? 0;
  /** What was recorded after entry `since`, oldest first, without the fields that vary. */
  async function since(siteId: string, id: number) {
    return (await entries(siteId))
      .filter((e) => e.id > id)
      .reverse()
      .map(({ actor, action, target, status, clientAddress }) => ({ actor, action, target, status, clientAddress }));
  }
  const user = (email: string) => ({ kind: 'user', id: email, prefix: '', label: '' });

  function v2(method: string, path: string, key: string, body?: unknown, from = '203.0.113.9') {
    return fetch(gateway.url + path, {
      method,
      headers: { Authorization: key, 'X-Forwarded-For': from, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  describe('what is recorded', () => {
    it('when an owner creates and revokes a key, and an editor tries to, then each call is one entry with the user, the action, the ids and the status; reads leave none', async () => {
      const b = ownerA.browser;
      const from = await newestId(siteA.siteId);
      const created = await b.call('POST', `/console/api/sites/${siteA.siteId}/keys`, { body: { label: 'Audit' } });
      const keyId = (created.body as { key: { id: string } }).key.id;
      await b.call('GET', `/console/api/sites/${siteA.siteId}/keys`);
      await b.call('POST', `/console/api/sites/${siteA.siteId}/campaigns/list`, { body: {} });
      await b.call('POST', `/console/api/sites/${siteA.siteId}/campaigns/estimate`, { body: { topics: ['news'] } });
      await b.call('POST', `/console/api/sites/${siteA.siteId}/keys/${keyId}/revoke`);
      const refused = await b.call('POST', `/console/api/sites/${siteA.siteId}/keys`, { body: { label: '' } });
      expect(refused.status).to.equal(400);
      const editor = await users.newUser(siteA.siteId, 'editor');
      const denied = await editor.browser.call('POST', `/console/api/sites/${siteA.siteId}/keys/${keyId}/rotate`);
      expect(denied.status).to.equal(403);
      const recorded = (await since(siteA.siteId, from)).filter((e) => e.action !== 'acceptInvite');
      expect(recorded).to.deep.equal([
        { actor: user(ownerA.email), action: 'createKey', target: keyId, status: 200, clientAddress: b.address },
        { actor: user(ownerA.email), action: 'revokeKey', target: keyId, status: 200, clientAddress: b.address },
        { actor: user(ownerA.email), action: 'createKey', target: '', status: 400, clientAddress: b.address },
        { actor: user(editor.email), action: 'rotateKey', target: keyId, status: 403, clientAddress: editor.browser.address },
      ]);
    });

    it('when a user logs in and out, then each is an entry in every site of theirs; a failed login, another site and a forged call are in none', async () => {
      const both = await users.newUser(siteA.siteId);
      await users.addToSite(both, siteB.siteId, 'editor');
      const fromA = await newestId(siteA.siteId);
      const ownerB = await users.newUser(siteB.siteId);
      const fromB = await newestId(siteB.siteId, ownerB);
      const b = browser();
      expect((await b.call('POST', '/console/api/login', { body: { email: both.email, password: 'wrong password' } })).status).to.equal(401);
      await b.login(both.email);
      // Another site's id, and a call without the CSRF token: no site of theirs, no call of theirs.
      expect((await b.call('POST', `/console/api/sites/${randomUUID()}/keys`, { body: { label: 'x' } })).status).to.equal(404);
      expect((await b.call('POST', `/console/api/sites/${siteA.siteId}/keys`, { body: { label: 'x' }, csrf: false })).status).to.equal(403);
      expect((await b.call('POST', '/console/api/logout')).status).to.equal(200);
      const expected = [
        { actor: user(both.email), action: 'login', target: '', status: 200, clientAddress: b.address },
        { actor: user(both.email), action: 'logout', target: '', status: 200, clientAddress: b.address },
      ];
      expect(await since(siteA.siteId, fromA)).to.deep.equal(expected);
      expect(await since(siteB.siteId, fromB, ownerB)).to.deep.equal(expected);
      async function since(siteId: string, id: number, owner = ownerA) {
        return (await entries(siteId, owner))
          .filter((e) => e.id > id && e.actor.id === both.email)
          .reverse()
          .map(({ actor, action, target, status, clientAddress }) => ({ actor, action, target, status, clientAddress }));
      }
    });

    it('when an API key creates and deletes campaigns and exports subscribers, then each call is an entry by the key (its id, prefix and label, never the key); lists and events leave none', async () => {
      const issued = await ownerA.browser.call('POST', `/console/api/sites/${siteA.siteId}/keys`, { body: { label: 'CRM sync' } });
      const { key, apiKey } = issued.body as { key: { id: string; prefix: string }; apiKey: string };
      const from = await newestId(siteA.siteId);
      const created = await v2('POST', '/v2/campaign/create', apiKey, validCreateBody({ topics: ['news'] }));
      expect(created.status).to.equal(200);
      const { id } = (await created.json()) as { id: string };
      await v2('POST', '/v2/campaigns', apiKey, {});
      await v2('GET', `/v2/campaign/${id}`, apiKey);
      const missing = randomUUID();
      expect((await v2('DELETE', `/v2/campaign/${missing}`, apiKey)).status).to.equal(404);
      const exported = await v2('GET', '/v2/subscribers/export?format=csv', apiKey);
      expect(exported.status).to.equal(200);
      await exported.text();
      expect((await v2('POST', '/v2/campaign/create', apiKey, '{"title":')).status).to.equal(400);
      // Events feed the site's users' activity in (kind `data`): neither one taken nor one refused is an entry.
      expect((await v2('POST', '/v2/events', apiKey, { externalId: 'user-1', name: 'cart_abandoned' })).status).to.equal(202);
      expect((await v2('POST', '/v2/events', apiKey, { externalId: '', name: 'cart_abandoned' })).status).to.equal(400);
      const actor = { kind: 'key', id: key.id, prefix: key.prefix, label: 'CRM sync' };
      const recorded = (await since(siteA.siteId, from)).filter((e) => e.actor.kind === 'key');
      expect(recorded).to.deep.equal([
        { actor, action: 'createCampaign', target: id, status: 200, clientAddress: '203.0.113.9' },
        { actor, action: 'deleteCampaign', target: missing, status: 404, clientAddress: '203.0.113.9' },
        { actor, action: 'exportSubscribers', target: '', status: 200, clientAddress: '203.0.113.9' },
        { actor, action: 'createCampaign', target: '', status: 400, clientAddress: '203.0.113.9' },
      ]);
      expect(JSON.stringify(await entries(siteA.siteId))).to.not.include(apiKey);
    });

    it('when routes this feature does not know are called (the sending settings, the console exports), then they are recorded all the same, by their method and kind', async () => {
      const b = ownerA.browser;
      const from = await newestId(siteA.siteId);
      expect((await b.call('GET', `/console/api/sites/${siteA.siteId}/settings`)).status).to.equal(200);
      expect((await b.call('PATCH', `/console/api/sites/${siteA.siteId}/settings`, { body: { timeZone: 'Europe/Lisbon' } })).status).to.equal(200);
      expect((await b.call('PATCH', `/console/api/sites/${siteA.siteId}/settings`, { body: { timeZone: 'Mars/Olympus' } })).status).to.equal(400);
      const exported = await b.call('GET', `/console/api/sites/${siteA.siteId}/subscribers/export?format=csv`);
      expect(exported.status).to.equal(200);
      expect((await since(siteA.siteId, from)).map((e) => [e.action, e.status])).to.deep.equal([
        ['updateSettings', 200],
        ['updateSettings', 400],
        ['exportSubscribers', 200],
      ]);
    });

    it("when a plan refuses a key's call, then the refusal is recorded with the plan's status; an unknown key is recorded nowhere", async () => {
      const limited = await stack.newSite({ permissions: ['reports'] });
      const owner = await users.newUser(limited.siteId);
      const from = await newestId(limited.siteId, owner);
      expect((await v2('POST', '/v2/campaign/create', limited.key, validCreateBody({ topics: ['news'] }))).status).to.equal(403);
      expect((await v2('POST', '/v2/campaign/create', 'wpk_not_a_key', validCreateBody({ topics: ['news'] }))).status).to.equal(403);
      const recorded = (await entries(limited.siteId, owner)).filter((e) => e.id > from);
      expect(recorded.map((e) => [e.actor.kind, e.action, e.status])).to.deep.equal([['key', 'createCampaign', 403]]);
    });

    it('when the delivery service refuses to store an entry, then the call is answered exactly as it would have been, and the failure is counted', async () => {
      const metric = async () => {
        const text = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
        return Number(/^gateway_audit_append_failures_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
      };
      const failures = await metric();
      // Every insert into the log fails, as a full disk or a broken table would make it.
      await stack.pool.query(`CREATE FUNCTION delivery.test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
      await stack.pool.query('CREATE TRIGGER test_refuse_audit BEFORE INSERT ON delivery.audit_log FOR EACH ROW EXECUTE FUNCTION delivery.test_refuse_audit()');
      try {
        const created = await ownerA.browser.call('POST', `/console/api/sites/${siteA.siteId}/keys`, { body: { label: 'Kept anyway' } });
        expect(created.status).to.equal(200);
        expect((created.body as { key: { label: string } }).key.label).to.equal('Kept anyway');
        const refused = await ownerA.browser.call('POST', `/console/api/sites/${siteA.siteId}/keys`, { body: { label: '' } });
        expect([refused.status, refused.body]).to.deep.equal([400, { message: 'Label must be 1 to 100 characters' }]);
        const v2Created = await v2('POST', '/v2/campaign/create', siteA.key, validCreateBody({ topics: ['news'] }));
        expect(v2Created.status).to.equal(200);
        expect(Object.keys((await v2Created.json()) as object)).to.deep.equal(['id']);
        expect(await metric()).to.equal(failures + 3);
      } finally {
        await stack.pool.query('DROP TRIGGER test_refuse_audit ON delivery.audit_log');
        await stack.pool.query('DROP FUNCTION delivery.test_refuse_audit()');
      }
    });
  });

  describe('reading it', () => {
    it('when an owner pages through the log, then pages of `limit` follow by `before`, newest first, and the page after the last is null', async () => {
      const site = await stack.newSite();
      const owner = await users.newUser(site.siteId);
      for (let i = 0; i < 4; i++) await owner.browser.call('POST', `/console/api/sites/${site.siteId}/keys`, { body: { label: `k${i}` } });
      const all = await entries(site.siteId, owner);
      const walked: number[] = [];
      let path = `/console/api/sites/${site.siteId}/audit?limit=2`;
      for (let pages = 0; pages < 10; pages++) {
        const reply = await owner.browser.call('GET', path);
        const page = reply.body as { items: Entry[]; nextBefore: number | null };
        walked.push(...page.items.map((e) => e.id));
        if (page.nextBefore === null) break;
        path = `/console/api/sites/${site.siteId}/audit?limit=2&before=${page.nextBefore}`;
      }
      expect(walked).to.deep.equal(all.map((e) => e.id));
      expect(walked).to.deep.equal([...walked].sort((a, b) => b - a));
      const first = all[all.length - 1];
      expect(first.at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(first.requestId).to.match(/^[0-9a-f-]{36}$/);
    });

    it('when the query is not a page, then 400 with its message', async () => {
      const cases: [string, string][] = [
        ['limit=0', 'limit must be an integer from 1 to 100'],
        ['limit=101', 'limit must be an integer from 1 to 100'],
        ['limit=1.5', 'limit must be an integer from 1 to 100'],
        ['limit=a&limit=b', 'limit must be an integer from 1 to 100'],
        ['before=-1', 'before must be the id of an entry'],
        ['before=1e3', 'before must be the id of an entry'],
        ['before=9999999999999999', 'before must be the id of an entry'],
      ];
      for (const [query, message] of cases) {
        const reply = await ownerA.browser.call('GET', `/console/api/sites/${siteA.siteId}/audit?${query}`);
        expect([reply.status, reply.body], query).to.deep.equal([400, { message }]);
      }
    });

    it('when the log is exported, then it downloads as CSV, newest first, and the export is itself an entry', async () => {
      const from = await newestId(siteA.siteId);
      const reply = await fetch(`${gateway.url}/console/api/sites/${siteA.siteId}/audit/export`, {
        headers: { Cookie: `console_session=${ownerA.browser.cookie}`, 'X-Forwarded-For': ownerA.browser.address },
      });
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(reply.headers.get('content-disposition')).to.equal('attachment; filename="audit-log.csv"');
      const lines = (await reply.text()).split('\r\n');
      expect(lines[0]).to.equal('id,at,actorKind,actor,actorPrefix,actorLabel,action,target,status,clientAddress,requestId');
      const ids = lines.slice(1, -1).map((l) => Number(l.split(',')[0]));
      // Everything before the download; the download's own entry is stored while the file streams,
      // so it may or may not be in it.
      expect(ids.filter((id) => id <= from)[0]).to.equal(from);
      expect(ids.filter((id) => id > from).length).to.be.at.most(1);
      expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
      expect(await since(siteA.siteId, from)).to.deep.equal([{ actor: user(ownerA.email), action: 'exportAuditLog', target: '', status: 200, clientAddress: ownerA.browser.address }]);
    });

    it('when an owner sets the retention, then it is answered and kept; a value out of range is refused and changes nothing', async () => {
      const base = `/console/api/sites/${siteA.siteId}/audit/settings`;
      expect((await ownerA.browser.call('GET', base)).body).to.deep.equal({ retentionDays: 365 });
      const set = await ownerA.browser.call('PATCH', base, { body: { retentionDays: 90 } });
      expect([set.status, set.body]).to.deep.equal([200, { retentionDays: 90 }]);
      for (const body of [{ retentionDays: 6 }, { retentionDays: '90' }, {}, { retentionDays: 3651 }]) {
        const refused = await ownerA.browser.call('PATCH', base, { body });
        expect([refused.status, refused.body], JSON.stringify(body)).to.deep.equal([400, { message: 'retentionDays must be an integer from 7 to 3650' }]);
      }
      expect((await ownerA.browser.call('GET', base)).body).to.deep.equal({ retentionDays: 90 });
      await ownerA.browser.call('PATCH', base, { body: { retentionDays: 365 } });
    });

    it("when an editor or another site's owner asks, then 403 and 404; nothing of the log is shown", async () => {
      const editor = await users.newUser(siteA.siteId, 'editor');
      const stranger = await users.newUser(siteB.siteId);
      for (const [method, path, body] of [
        ['GET', '/audit', undefined],
        ['GET', '/audit/export', undefined],
        ['GET', '/audit/settings', undefined],
        ['PATCH', '/audit/settings', { retentionDays: 7 }],
      ] as const) {
        const asEditor = await editor.browser.call(method, `/console/api/sites/${siteA.siteId}${path}`, { body });
        expect([asEditor.status, asEditor.body], `editor ${method} ${path}`).to.deep.equal([403, { message: "Only the site's owners can do this" }]);
        const asStranger = await stranger.browser.call(method, `/console/api/sites/${siteA.siteId}${path}`, { body });
        expect([asStranger.status, asStranger.body], `stranger ${method} ${path}`).to.deep.equal([404, { message: 'Site not found' }]);
      }
      expect((await ownerA.browser.call('GET', `/console/api/sites/${siteA.siteId}/audit/settings`)).body).to.deep.equal({ retentionDays: 365 });
    });
  });
});
