// The opt-in funnel end to end (issue 39): the plugin's reports and opt-in calls through the
// gateway's /public proxy, counted by the delivery service, answered by GET /v2/optin/funnel with
// rates; the plan's reports permission, the range's 400s, and one site never seeing another's.
import { expect } from 'chai';
import { ALL, browserSubscription, siteWithPermissions, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

describe('e2e: opt-in funnel', function () {
  this.timeout(180_000);
  let stack: Stack;
  let site: SiteInfo;
  let other: SiteInfo;
  let noReports: SiteInfo;
  const today = () => new Date().toISOString().slice(0, 10);
  const report = (s: SiteInfo, event: string, promptId: string) =>
    stack.api.request('POST', `/public/v1/sites/${s.publicId}/optin-events`, { body: { event, promptId } });

  before(async () => {
    stack = await startStack('e2e_optin', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '1000' });
    site = await siteWithPermissions(stack, ALL, 'funnel');
    other = await siteWithPermissions(stack, ALL, 'bystander');
    noReports = await siteWithPermissions(stack, ['create'], 'no-reports');
  });
  after(async () => {
    await stack?.stop();
  });

  it('when a prompt is shown, accepted and leads to a subscription through /public, then /v2/optin/funnel answers it per day, per prompt and in all, with rates', async () => {
    for (let i = 0; i < 4; i++) expect((await report(site, 'shown', 'slide-down')).status).to.equal(200);
    expect((await report(site, 'accepted', 'slide-down')).status).to.equal(200);
    expect((await report(site, 'dismissed', 'slide-down')).status).to.equal(200);
    const url = `/public/v1/sites/${site.publicId}/subscriptions`;
    const sub = browserSubscription('funnel-1');
    expect((await stack.api.request('POST', url, { body: { subscription: sub, promptId: 'slide-down' } })).status).to.equal(201);
    // The site's own button: a subscription without a prompt shown, and an opt-out.
    const own = browserSubscription('funnel-2');
    expect((await stack.api.request('POST', url, { body: { subscription: own, promptId: 'site' } })).status).to.equal(201);
    expect((await stack.api.request('DELETE', url, { body: { endpoint: own.endpoint, promptId: 'site' } })).body).to.deep.equal({ deactivated: true });

    const res = await stack.api.request('GET', '/v2/optin/funnel', { key: site.apiKey });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.to).to.equal(today());
    expect(res.body.prompt).to.equal(null);
    expect(res.body.days).to.deep.equal([
      { day: today(), promptId: 'site', shown: 0, accepted: 0, dismissed: 0, denied: 0, subscribed: 1, unsubscribed: 1 },
      { day: today(), promptId: 'slide-down', shown: 4, accepted: 1, dismissed: 1, denied: 0, subscribed: 1, unsubscribed: 0 },
    ]);
    expect(res.body.prompts).to.deep.equal([
      { promptId: 'site', shown: 0, accepted: 0, dismissed: 0, denied: 0, subscribed: 1, unsubscribed: 1, acceptRate: null, subscribeRate: null },
      { promptId: 'slide-down', shown: 4, accepted: 1, dismissed: 1, denied: 0, subscribed: 1, unsubscribed: 0, acceptRate: 0.25, subscribeRate: 0.25 },
    ]);
    // The totals' rates leave the site's own button out: no prompt was shown for it.
    expect(res.body.totals).to.deep.equal({ shown: 4, accepted: 1, dismissed: 1, denied: 0, subscribed: 2, unsubscribed: 1, acceptRate: 0.25, subscribeRate: 0.25 });

    const one = await stack.api.request('GET', `/v2/optin/funnel?prompt=site&from=${today()}&to=${today()}`, { key: site.apiKey });
    expect(one.body).to.deep.include({ from: today(), to: today(), prompt: 'site' });
    expect(one.body.days).to.have.length(1);
  });

  it('when another site reads its funnel, then it sees none of this site\'s counts', async () => {
    const res = await stack.api.request('GET', '/v2/optin/funnel', { key: other.apiKey });
    expect(res.status).to.equal(200);
    expect(res.body.days).to.deep.equal([]);
    expect(res.body.totals.shown).to.equal(0);
  });

  it('when the plan has no reports permission, then 403 with its message; when the range is wrong, then 400 with its message', async () => {
    const denied = await stack.api.request('GET', '/v2/optin/funnel', { key: noReports.apiKey });
    expect(denied.status).to.equal(403);
    expect(denied.body.message).to.equal('This plan does not have permission to access opt-in reports via API');
    const cases: [string, string][] = [
      ['from=2024-01-01&to=2025-06-01', 'from and to must be at most 366 days apart, both included'],
      ['from=2026-12-02&to=2026-12-01', 'from must not be after to'],
      ['from=yesterday&to=2026-12-01', 'from must be a date YYYY-MM-DD'],
      ['from=2026-12-01&from=2026-12-02&to=2026-12-03', 'from must be a date YYYY-MM-DD'],
      ['prompt=%00', 'prompt must be 1 to 64 letters, digits, "-" or "_"'],
    ];
    for (const [query, message] of cases) {
      const res = await stack.api.request('GET', `/v2/optin/funnel?${query}`, { key: site.apiKey });
      expect(res.status, query).to.equal(400);
      expect(res.body.message, query).to.equal(message);
    }
  });
});
