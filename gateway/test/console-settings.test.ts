// Component tests of the console's site settings and exports (docs/console.md, "Site settings",
// "Exports") through the gateway, against the real campaign and delivery services and Postgres:
// each setting read from and written to the service that owns it, by the operators' rules in
// the API's words, a refused change writing nothing, owners only; the exports streamed as /v2's,
// byte for byte, subscribers without push keys and for owners only.
import { expect } from 'chai';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import type { RunningGateway } from '../src/app.js';
import { consoleUsers, type ConsoleBrowser } from './support/console.js';
import { silentLogger, validCreateBody } from './support/stack.js';

const MSG = {
  throttle: 'defaultThrottlePerMinute must be a whole number from 1 to 1000000, or null',
  capCampaigns: 'frequencyCap.campaigns must be a whole number from 1 to 1000',
  capHours: 'frequencyCap.hours must be a whole number from 1 to 720 (30 days)',
  zone: 'timeZone must be an IANA time zone such as Europe/Lisbon, or null',
  quietFrom: 'quietHours.from must be a time of day as HH:MM (00:00 to 23:59)',
  quietTo: 'quietHours.to must be a time of day as HH:MM (00:00 to 23:59), not the same as quietHours.from',
  quietShape: 'quietHours must be {"from", "to"} or null',
};

describe('gateway: the console site settings and exports', function () {
  this.timeout(120_000);
  let stack: InProcessStack;
  let gateway: RunningGateway;
  let users: ReturnType<typeof consoleUsers>;
  let site: TestSite;
  let owner: { email: string; browser: ConsoleBrowser };
  let editor: { email: string; browser: ConsoleBrowser };
  let settingsPath: string;

  before(async () => {
    stack = await startInProcess('gateway_console_settings', {
      delivery: { log: silentLogger },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1' } },
    });
    gateway = stack.gateway!;
    users = consoleUsers(stack.pool, gateway.url);
    site = await stack.newSite({ subscribers: [{ count: 3, topics: ['news'], countries: ['br'] }] });
    owner = await users.newUser(site.siteId);
    editor = await users.newUser(site.siteId, 'editor');
    settingsPath = `/console/api/sites/${site.siteId}/settings`;
  });
  after(async () => {
    await stack?.stop();
  });

  /** The settings as each owning service keeps them, read from its own schema. */
  async function stored() {
    const campaign = await stack.pool.query('SELECT default_throttle_per_minute FROM campaign.sites WHERE id = $1', [site.siteId]);
    const delivery = await stack.pool.query('SELECT cap_campaigns, cap_hours, time_zone, quiet_from, quiet_to FROM delivery.sites WHERE site_id = $1', [site.siteId]);
    return { throttle: campaign.rows[0].default_throttle_per_minute, ...delivery.rows[0] };
  }

  describe('site settings', () => {
    it('when a new site is read, then it has no default throttle, no cap, UTC and no quiet hours; any member reads them', async () => {
      const none = { defaultThrottlePerMinute: null, frequencyCap: null, timeZone: 'UTC', quietHours: null };
      for (const b of [owner.browser, editor.browser]) {
        const reply = await b.call('GET', settingsPath);
        expect([reply.status, reply.body]).to.deep.equal([200, none]);
      }
    });

    it("when an owner changes them, then each service keeps its own where the CLI's commands keep it, the answer and a read show them, a new campaign takes the default, and null lifts each", async () => {
      const change = await owner.browser.call('PATCH', settingsPath, {
        body: { defaultThrottlePerMinute: 6000, frequencyCap: { campaigns: 3, hours: 24 }, timeZone: 'europe/lisbon', quietHours: { from: '21:00', to: '08:00' } },
      });
      const set = { defaultThrottlePerMinute: 6000, frequencyCap: { campaigns: 3, hours: 24 }, timeZone: 'Europe/Lisbon', quietHours: { from: '21:00', to: '08:00' } };
      expect([change.status, change.body]).to.deep.equal([200, set]);
      expect((await owner.browser.call('GET', settingsPath)).body).to.deep.equal(set);
      expect(await stored()).to.deep.equal({ throttle: 6000, cap_campaigns: 3, cap_hours: 24, time_zone: 'Europe/Lisbon', quiet_from: '21:00', quiet_to: '08:00' });
      // A setting left out stays as it is.
      const one = await owner.browser.call('PATCH', settingsPath, { body: { frequencyCap: { campaigns: 5, hours: 48 } } });
      expect(one.body).to.deep.equal({ ...set, frequencyCap: { campaigns: 5, hours: 48 } });
      // A campaign created without throttlePerMinute takes the site's default, as after `sites set-throttle`.
      const created = await owner.browser.call('POST', `/console/api/sites/${site.siteId}/campaigns`, { body: validCreateBody({ topics: ['news'], status: 'draft' }) });
      const row = await stack.pool.query('SELECT throttle_per_minute FROM campaign.campaigns WHERE id = $1', [(created.body as { id: string }).id]);
      expect(row.rows[0].throttle_per_minute).to.equal(6000);
      // The same window as operators set it (`sites set-quiet-hours`), read back alike; one within a day.
      await stack.operators.delivery.setQuietHours(site.siteId, { from: '12:00', to: '14:00' });
      expect((await owner.browser.call('GET', settingsPath)).body).to.deep.include({ quietHours: { from: '12:00', to: '14:00' } });
      const lifted = await owner.browser.call('PATCH', settingsPath, { body: { defaultThrottlePerMinute: null, frequencyCap: null, timeZone: null, quietHours: null } });
      expect([lifted.status, lifted.body]).to.deep.equal([200, { defaultThrottlePerMinute: null, frequencyCap: null, timeZone: 'UTC', quietHours: null }]);
      expect(await stored()).to.deep.equal({ throttle: null, cap_campaigns: null, cap_hours: null, time_zone: null, quiet_from: null, quiet_to: null });
    });

    it('when a value is refused by its owner, then 400 names every refused one with the operators\' rule, and nothing is written, not even the accepted ones', async () => {
      await owner.browser.call('PATCH', settingsPath, {
        body: { defaultThrottlePerMinute: 100, frequencyCap: { campaigns: 2, hours: 12 }, timeZone: 'America/Sao_Paulo', quietHours: { from: '22:00', to: '07:30' } },
      });
      const before = await stored();
      const cases: [unknown, string][] = [
        [{ defaultThrottlePerMinute: 0 }, MSG.throttle],
        [{ defaultThrottlePerMinute: 1_000_001 }, MSG.throttle],
        [{ defaultThrottlePerMinute: 2.5 }, MSG.throttle],
        [{ defaultThrottlePerMinute: '60' }, MSG.throttle],
        [{ defaultThrottlePerMinute: 1e300 }, MSG.throttle],
        [{ frequencyCap: { campaigns: 0, hours: 24 } }, MSG.capCampaigns],
        [{ frequencyCap: { campaigns: 3, hours: 721 } }, MSG.capHours],
        [{ frequencyCap: { campaigns: '3', hours: -1 } }, `${MSG.capCampaigns}, ${MSG.capHours}`],
        [{ frequencyCap: {} }, `${MSG.capCampaigns}, ${MSG.capHours}`],
        [{ frequencyCap: [3, 24] }, 'frequencyCap must be {"campaigns", "hours"} or null'],
        [{ frequencyCap: 3 }, 'frequencyCap must be {"campaigns", "hours"} or null'],
        [{ timeZone: 'Mars/Olympus' }, MSG.zone],
        [{ timeZone: '' }, MSG.zone],
        [{ timeZone: 7 }, 'timeZone must be a string'],
        [{ timeZone: 'Europe/Lisbon\u0000' }, 'timeZone must not contain NUL characters or unpaired surrogates'],
        // Accepted values beside a refused one are not written either.
        [{ defaultThrottlePerMinute: 500, frequencyCap: { campaigns: 9, hours: 9 }, timeZone: 'Nowhere' }, MSG.zone],
        [{ defaultThrottlePerMinute: -1, frequencyCap: { campaigns: 9, hours: 9 }, timeZone: 'Nowhere' }, `${MSG.throttle}, ${MSG.zone}`],
        [{ defaultThrottlePerMinute: -1, timeZone: 'Europe/Paris' }, MSG.throttle],
        [{ quietHours: { from: '21:00', to: '21:00' } }, MSG.quietTo],
        [{ quietHours: { from: '24:00', to: '08:00' } }, MSG.quietFrom],
        [{ quietHours: { from: '9:00', to: '8:00' } }, `${MSG.quietFrom}, ${MSG.quietTo}`],
        [{ quietHours: { from: '21:00 ', to: '08:60' } }, `${MSG.quietFrom}, ${MSG.quietTo}`],
        [{ quietHours: { from: '', to: '' } }, `${MSG.quietFrom}, ${MSG.quietTo}`],
        [{ quietHours: { from: '21:00' } }, 'quietHours.to must be a string'],
        [{ quietHours: { from: 2100, to: '08:00' } }, 'quietHours.from must be a string'],
        [{ quietHours: { from: '21:00', to: '08:00', zone: 'UTC' } }, MSG.quietShape],
        [{ quietHours: ['21:00', '08:00'] }, MSG.quietShape],
        [{ quietHours: '21:00-08:00' }, MSG.quietShape],
        [{ quietHours: false }, MSG.quietShape],
        // Accepted values beside a refused one are not written either.
        [{ defaultThrottlePerMinute: 500, timeZone: 'Asia/Tokyo', quietHours: { from: '23:00', to: '23:00' } }, MSG.quietTo],
        [{ defaultThrottlePerMinute: 0, quietHours: { from: '06:00', to: '07:00' } }, MSG.throttle],
        [{}, 'Nothing to change: give defaultThrottlePerMinute, frequencyCap, timeZone or quietHours'],
        [{ quietTime: { from: '21:00' } }, 'Unknown setting: quietTime'],
        [JSON.parse('{"__proto__": {"timeZone": "UTC"}}'), 'Unknown setting: __proto__'],
      ];
      for (const [body, message] of cases) {
        const reply = await owner.browser.call('PATCH', settingsPath, { body });
        expect([reply.status, reply.body], JSON.stringify(body)).to.deep.equal([400, { message }]);
      }
      expect(await stored()).to.deep.equal(before);
    });

    it('when an editor changes them, or anyone without the CSRF token, or a member of another site, then 403 or 404 and nothing changes', async () => {
      const before = await stored();
      const body = { defaultThrottlePerMinute: 7 };
      expect(await editor.browser.call('PATCH', settingsPath, { body })).to.include({ status: 403 });
      expect(await owner.browser.call('PATCH', settingsPath, { body, csrf: false })).to.include({ status: 403 });
      const other = await stack.newSite();
      const stranger = await users.newUser(other.siteId);
      for (const [method, b] of [['GET', undefined], ['PATCH', body]] as const) {
        const reply = await stranger.browser.call(method, settingsPath, { body: b });
        expect([reply.status, reply.body]).to.deep.equal([404, { message: 'Site not found' }]);
      }
      expect(await stored()).to.deep.equal(before);
    });
  });

  describe('exports', () => {
    it("when an owner exports the subscribers as CSV, then it is /v2's export byte for byte, streamed as a download, with no push endpoint or keys", async () => {
      const path = `/console/api/sites/${site.siteId}/subscribers/export?format=csv`;
      const res = await owner.browser.call('GET', path);
      const text = res.body as string;
      expect(res.status, text).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal('attachment; filename="subscribers.csv"');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const v2 = await (await fetch(`${gateway.url}/v2/subscribers/export?format=csv`, { headers: { Authorization: site.key } })).text();
      expect(text).to.equal(v2);
      const lines = text.trimEnd().split('\n');
      expect(lines).to.have.length(4);
      expect(lines[0]).to.not.match(/endpoint|p256dh|auth/i);
      const endpoints = await stack.pool.query('SELECT endpoint FROM delivery.subscribers WHERE site_id = $1', [site.siteId]);
      for (const r of endpoints.rows) expect(text).to.not.include(r.endpoint);
    });

    it("when the query is wrong or an editor asks for the subscribers, then a JSON refusal (the query's as /v2's), before anything is streamed", async () => {
      const wrong = await owner.browser.call('GET', `/console/api/sites/${site.siteId}/subscribers/export?format=xml`);
      const v2 = await fetch(`${gateway.url}/v2/subscribers/export?format=xml`, { headers: { Authorization: site.key } });
      expect([wrong.status, wrong.body]).to.deep.equal([v2.status, await v2.json()]);
      expect(wrong.status).to.equal(400);
      const byEditor = await editor.browser.call('GET', `/console/api/sites/${site.siteId}/subscribers/export?format=csv`);
      expect([byEditor.status, byEditor.body]).to.deep.equal([403, { message: "Only the site's owners can do this" }]);
    });

    it("when any member exports the campaign results as CSV, then it is /v2's export of the same filters byte for byte", async () => {
      await owner.browser.call('POST', `/console/api/sites/${site.siteId}/campaigns`, { body: validCreateBody({ topics: ['news'], status: 'draft' }) });
      const v2 = await fetch(`${gateway.url}/v2/campaigns/export?format=csv`, { method: 'POST', headers: { Authorization: site.key, 'Content-Type': 'application/json' }, body: JSON.stringify({ status: ['draft'] }) });
      const expected = await v2.text();
      expect(expected.trimEnd().split('\n').length).to.be.greaterThan(1);
      const reply = await editor.browser.call('POST', `/console/api/sites/${site.siteId}/campaigns/export?format=csv`, { body: { status: ['draft'] } });
      expect([reply.status, reply.headers.get('content-disposition'), reply.body]).to.deep.equal([200, 'attachment; filename="campaigns.csv"', expected]);
      const refused = await editor.browser.call('POST', `/console/api/sites/${site.siteId}/campaigns/export?format=csv`, { body: { status: ['nope'] } });
      expect(refused.status).to.equal(400);
      expect(refused.body).to.have.property('message').that.is.a('string');
    });
  });
});
