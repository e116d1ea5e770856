// Component tests: POST /v2/campaign/plan-preview (docs/api-decisions.md, "Best time") through the
// gateway, against the real campaign and delivery services and Postgres, every answer checked
// against the OpenAPI document: a best-time campaign's planned distribution over its window
// before it is sent — each hour of the window, the holdout, the parts adding up, a scheduled
// start; the create's messages; the plan's create permission; and the console's route, the same
// answer for any member of the site.
import { expect } from 'chai';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import type { RunningGateway } from '../src/app.js';
import { consoleUsers } from './support/console.js';
import { request, silentLogger } from './support/stack.js';

const PATH = '/v2/campaign/plan-preview';

describe('gateway: a best-time campaign planned before it is sent', function () {
  this.timeout(120_000);
  let stack: InProcessStack;
  let gateway: RunningGateway;
  let site: TestSite;

  before(async () => {
    stack = await startInProcess('gateway_plan_preview', {
      delivery: { log: silentLogger },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1' } },
    });
    gateway = stack.gateway!;
    site = await stack.newSite({ subscribers: [{ count: 40, topics: ['news'], countries: ['br'], topicsPerSubscriber: 1 }] });
    // Every subscriber engaged at 19:00 UTC, strongly: the model sends them all in that hour.
    await stack.pool.query(
      `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
       SELECT s.id, ARRAY(SELECT CASE WHEN h = 19 THEN 20 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now()
         FROM delivery.subscribers s WHERE s.site_id = $1`,
      [site.siteId],
    );
  });
  after(async () => {
    await stack?.stop();
  });

  const preview = (body: unknown, key = site.key) => request(gateway.url, 'POST', PATH, { key, body });

  it('when a scheduled window is previewed, then each of its hours with its subscribers, the holdout first taken out', async () => {
    const r = await preview({ topics: ['news'], scheduleMode: 'scheduled', scheduleDate: '2031-03-01T17:30:00Z', sendTime: { mode: 'bestTime', within: '4h', holdout: 10 } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body).to.deep.equal({
      totalUsers: 40,
      sendTime: { mode: 'bestTime', within: '4h', holdout: 10 },
      start: '2031-03-01T17:30:00Z',
      holdout: { users: 4, share: 10 },
      byHour: [
        { sendAt: '2031-03-01T17:30:00Z', hour: 17, users: 0, share: 0 },
        { sendAt: '2031-03-01T18:00:00Z', hour: 18, users: 0, share: 0 },
        { sendAt: '2031-03-01T19:00:00Z', hour: 19, users: 36, share: 90 },
        { sendAt: '2031-03-01T20:00:00Z', hour: 20, users: 0, share: 0 },
      ],
      sampled: false,
      sampleSize: 40,
    });
  });

  it('when the window is one hour, then everyone but the holdout is in it, from now with scheduleMode now; a whole create body is taken, its other fields ignored', async () => {
    const r = await preview({
      title: 'Weekend sale', body: 'Up to half off', link: 'https://shop.example/', status: 'published',
      countries: ['BR'], scheduleMode: 'now', scheduleDate: '2031-03-01T17:30:00Z', sendTime: { mode: 'bestTime', within: '1h', holdout: 0 },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const body = r.body as { start: string; byHour: { users: number }[]; holdout: unknown };
    // scheduleMode now: the window starts now, whatever scheduleDate says.
    expect(Date.now() - Date.parse(body.start)).to.be.within(0, 60_000);
    expect(body.byHour.map((h) => h.users)).to.deep.equal([40]);
    expect(body.holdout).to.deep.equal({ users: 0, share: 0 });
  });

  it('when the body is wrong, then 400 with the create\'s messages joined, sendTime required', async () => {
    const cases: [unknown, string][] = [
      [{ topics: ['news'] }, 'sendTime is required: {"mode": "bestTime", "within", "holdout"}'],
      [{ topics: ['news'], sendTime: null }, 'sendTime is required: {"mode": "bestTime", "within", "holdout"}'],
      [{ sendTime: { mode: 'bestTime', within: '73h' } }, 'At least one topic or country must be specified, sendTime.within must be a whole number of hours from 1h to 72h (e.g. 24h)'],
      [{ topics: ['news'], sendTime: { mode: 'bestTime', holdout: 51 }, scheduleDate: 'tomorrow' }, 'sendTime.holdout must be a whole percent from 0 to 50, Invalid schedule date format. Use ISO format (e.g. 2025-01-01T12:00:00Z)'],
      [{ topics: ['news'], sendTime: { mode: 'bestTime' }, localTime: '09:00' }, 'sendTime bestTime cannot be combined with localTime'],
      [{ topics: ['news'], sendTime: { mode: 'bestTime', when: 1 } }, 'sendTime has an unknown field: when'],
      ['[]', 'Invalid JSON body'],
    ];
    for (const [body, message] of cases) {
      const r = await request(gateway.url, 'POST', PATH, { key: site.key, body, headers: typeof body === 'string' ? { 'Content-Type': 'application/json' } : {} });
      expect([r.status, r.body], JSON.stringify(body)).to.deep.equal([400, { message }]);
    }
  });

  it("when the key's plan cannot create, then 403 as a create; without a key 403 Not authorized", async () => {
    const reportsOnly = await stack.newSite({ permissions: ['reports'] });
    const r = await preview({ topics: ['news'], sendTime: { mode: 'bestTime' } }, reportsOnly.key);
    expect([r.status, r.body]).to.deep.equal([403, { message: 'This plan does not have permission to create campaigns with API' }]);
    const none = await request(gateway.url, 'POST', PATH, { body: { topics: ['news'], sendTime: { mode: 'bestTime' } } });
    expect([none.status, none.body]).to.deep.equal([403, { message: 'Not authorized' }]);
  });

  it("when a member previews in the console, then /v2's answer for the member's site; another site's is not found", async () => {
    const users = consoleUsers(stack.pool, gateway.url);
    const viewer = await users.newUser(site.siteId, 'viewer');
    const body = { topics: ['news'], scheduleMode: 'scheduled', scheduleDate: '2031-03-01T17:30:00Z', sendTime: { mode: 'bestTime', within: '4h', holdout: 10 } };
    const fromConsole = await viewer.browser.call('POST', `/console/api/sites/${site.siteId}/campaigns/plan-preview`, { body });
    expect(fromConsole.status, JSON.stringify(fromConsole.body)).to.equal(200);
    expect(fromConsole.body).to.deep.equal((await preview(body)).body);
    const other = await stack.newSite();
    const refused = await viewer.browser.call('POST', `/console/api/sites/${other.siteId}/campaigns/plan-preview`, { body });
    expect([refused.status, refused.body]).to.deep.equal([404, { message: 'Site not found' }]);
  });
});
