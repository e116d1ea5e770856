// The opt-in funnel over a real delivery service and Postgres (issue 39; docs/site-plugin.md,
// "Opt-in funnel"): the plugin's reports counted per site, UTC day, prompt and event; subscribed
// and unsubscribed counted by the subscription calls only when the subscriber changed; hostile
// reports refused with nothing stored; prompts per day bounded; the range read through gRPC as
// the gateway reads it, checked; one site never sees another's; old days purged.
import { expect } from 'chai';
import type * as grpc from '@grpc/grpc-js';
import type { OptInFunnel__Output } from '@webpush/contracts/generated/delivery/v1/OptInFunnel.js';
import { assertResponseMatchesContract } from '../../../../test/support/openapi.js';
import { FUNNEL_MESSAGES, FUNNEL_RETENTION_DAYS, MAX_PROMPTS_PER_DAY, OTHER_PROMPTS, purgeOptInFunnel } from '../../src/optin/funnel.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type HttpAnswer, type TestDelivery } from '../support.js';

describe('delivery: opt-in funnel', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let site: { siteId: string; publicId: string };
  const today = () => new Date().toISOString().slice(0, 10);

  const call = async (method: string, path: string, opts: Parameters<typeof request>[3] = {}): Promise<HttpAnswer> => {
    const res = await request(t, method, path, opts);
    assertResponseMatchesContract(method, path, res.status, res.body);
    return res;
  };
  const report = (body: unknown, publicId = site.publicId) => call('POST', `/public/v1/sites/${publicId}/optin-events`, { body });
  const subscribe = (endpoint: string, promptId?: string, publicId = site.publicId) =>
    call('POST', `/public/v1/sites/${publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() }, ...(promptId === undefined ? {} : { promptId }) } });
  const unsubscribe = (endpoint: string, promptId?: string) =>
    call('DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint, ...(promptId === undefined ? {} : { promptId }) } });
  const funnel = (req: { siteId?: string; from?: string; to?: string; prompt?: string } = {}): Promise<OptInFunnel__Output> =>
    new Promise((resolve, reject) =>
      t.audienceAsGateway.GetOptInFunnel({ siteId: site.siteId, from: '', to: '', prompt: '', ...req }, (err: grpc.ServiceError | null, res?: OptInFunnel__Output) => (err ? reject(err) : resolve(res!))),
    );
  const refusal = (req: Parameters<typeof funnel>[0]) => funnel(req).then(() => expect.fail('answered'), (err: grpc.ServiceError) => err);
  const rows = async (siteId = site.siteId) =>
    (await t.pool.query(`SELECT prompt_id AS "promptId", event, count::int FROM delivery.optin_funnel WHERE site_id = $1 ORDER BY prompt_id, event`, [siteId])).rows;

  before(async () => {
    t = await startTestDelivery('optin_funnel', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
  });
  beforeEach(async () => {
    site = await newSite(t);
  });
  after(async () => {
    await t?.stop();
  });

  it('when the plugin reports its prompts\' events, then each is counted under today, its prompt and event, and read back per day, per prompt and in all', async () => {
    for (const [event, promptId] of [['shown', 'slide-down'], ['shown', 'slide-down'], ['accepted', 'slide-down'], ['dismissed', 'bell'], ['shown', 'bell'], ['denied', 'site']]) {
      const res = await report({ event, promptId });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ counted: true });
      expect(res.headers.get('cache-control')).to.equal('no-store');
    }
    const f = await funnel();
    expect(f.to).to.equal(today());
    expect(f.days.map((d) => [d.day, d.promptId, d.counts])).to.deep.equal([
      [today(), 'bell', { shown: 1, accepted: 0, dismissed: 1, denied: 0, subscribed: 0, unsubscribed: 0 }],
      [today(), 'site', { shown: 0, accepted: 0, dismissed: 0, denied: 1, subscribed: 0, unsubscribed: 0 }],
      [today(), 'slide-down', { shown: 2, accepted: 1, dismissed: 0, denied: 0, subscribed: 0, unsubscribed: 0 }],
    ]);
    expect(f.prompts.map((p) => p.promptId)).to.deep.equal(['bell', 'site', 'slide-down']);
    expect(f.totals).to.deep.equal({ shown: 3, accepted: 1, dismissed: 1, denied: 1, subscribed: 0, unsubscribed: 0 });
    expect((await funnel({ prompt: 'bell' })).totals).to.deep.equal({ shown: 1, accepted: 0, dismissed: 1, denied: 0, subscribed: 0, unsubscribed: 0 });
  });

  it('when subscribe and unsubscribe name a prompt, then subscribed and unsubscribed are counted only when the subscriber changed; without one, never', async () => {
    const endpoint = pushEndpoint();
    expect((await subscribe(endpoint, 'modal')).status).to.equal(201);
    expect((await subscribe(endpoint, 'modal')).status).to.equal(200); // already active: a refresh
    expect((await subscribe(pushEndpoint())).status).to.equal(201); // the worker's re-registration names none
    expect((await unsubscribe(endpoint, 'site')).body).to.deep.equal({ deactivated: true });
    expect((await unsubscribe(endpoint, 'site')).body).to.deep.equal({ deactivated: false });
    expect((await subscribe(endpoint, 'modal')).status).to.equal(200); // inactive, active again: an opt-in
    expect(await rows()).to.deep.equal([
      { promptId: 'modal', event: 'subscribed', count: 2 },
      { promptId: 'site', event: 'unsubscribed', count: 1 },
    ]);
  });

  it('when a report is hostile, then 4xx with a message and nothing is counted', async () => {
    const cases: [unknown, number, string][] = [
      [{ event: 'subscribed', promptId: 'modal' }, 400, FUNNEL_MESSAGES.event],
      [{ event: 'unsubscribed', promptId: 'modal' }, 400, FUNNEL_MESSAGES.event],
      [{ event: 'SHOWN', promptId: 'modal' }, 400, FUNNEL_MESSAGES.event],
      [{ event: ['shown'], promptId: 'modal' }, 400, FUNNEL_MESSAGES.event],
      [{ event: 'shown' }, 400, FUNNEL_MESSAGES.promptId],
      [{ event: 'shown', promptId: '' }, 400, FUNNEL_MESSAGES.promptId],
      [{ event: 'shown', promptId: 'x'.repeat(65) }, 400, FUNNEL_MESSAGES.promptId],
      [{ event: 'shown', promptId: '(other)' }, 400, FUNNEL_MESSAGES.promptId],
      [{ event: 'shown', promptId: 'a\u0000b' }, 400, FUNNEL_MESSAGES.promptId],
      [{ event: 'shown', promptId: 7 }, 400, FUNNEL_MESSAGES.promptId],
    ];
    for (const [body, status, message] of cases) {
      const res = await report(body);
      expect(res.status, JSON.stringify(body)).to.equal(status);
      expect(res.body.message).to.include(message);
    }
    expect((await call('POST', `/public/v1/sites/${site.publicId}/optin-events`, { raw: '[1]' })).status).to.equal(400);
    expect((await call('POST', `/public/v1/sites/${site.publicId}/optin-events`, { raw: JSON.stringify({ event: 'shown', promptId: 'a', pad: 'x'.repeat(2000) }) })).status).to.equal(413);
    expect((await report({ event: 'shown', promptId: 'a' }, 'pub_unknownunknownunknow')).status).to.equal(404);
    // A subscribe or unsubscribe with a bad prompt id is refused whole: no subscriber either.
    const endpoint = pushEndpoint();
    const bad = await subscribe(endpoint, 'no spaces');
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal(FUNNEL_MESSAGES.promptId);
    expect((await t.pool.query('SELECT 1 FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rowCount).to.equal(0);
    expect(await rows()).to.deep.equal([]);
  });

  it(`when a site reports more than ${MAX_PROMPTS_PER_DAY} prompt ids in a day, then the rest are counted under ${OTHER_PROMPTS}: bounded rows`, async () => {
    for (let i = 0; i < MAX_PROMPTS_PER_DAY + 5; i++) expect((await report({ event: 'shown', promptId: `p${i}` })).status).to.equal(200);
    expect((await report({ event: 'shown', promptId: 'p0' })).status).to.equal(200); // a known one still counts under its own
    const prompts = (await funnel()).prompts;
    expect(prompts).to.have.length(MAX_PROMPTS_PER_DAY + 1);
    expect(prompts.find((p) => p.promptId === OTHER_PROMPTS)!.counts!.shown).to.equal(5);
    expect(prompts.find((p) => p.promptId === 'p0')!.counts!.shown).to.equal(2);
  });

  it('when a range is asked, then it is checked: real dates, from before to, at most 366 days; the default is the last 30 days', async () => {
    const f = await funnel();
    expect((Date.parse(f.to) - Date.parse(f.from)) / 86_400_000).to.equal(29);
    expect((await funnel({ from: '2025-01-01', to: '2025-12-31' })).days).to.deep.equal([]);
    expect((await funnel({ from: '2024-01-01', to: '2024-12-31' })).from).to.equal('2024-01-01'); // 366 days, a leap year
    const cases: [Parameters<typeof funnel>[0], string][] = [
      [{ from: '2024-01-01', to: '2025-01-01' }, FUNNEL_MESSAGES.range],
      [{ from: '2026-02-01', to: '2026-01-01' }, FUNNEL_MESSAGES.order],
      [{ from: '2026-02-30' }, FUNNEL_MESSAGES.from],
      [{ to: '2026-1-1' }, FUNNEL_MESSAGES.to],
      [{ from: '?', to: '?' }, `${FUNNEL_MESSAGES.to}, ${FUNNEL_MESSAGES.from}`],
      [{ prompt: 'a/b' }, FUNNEL_MESSAGES.prompt],
    ];
    for (const [req, message] of cases) {
      const err = await refusal(req);
      expect(err.code, JSON.stringify(req)).to.equal(3); // INVALID_ARGUMENT
      expect(err.details).to.equal(message);
    }
  });

  it('when another site reads its funnel, then it never sees this site\'s counts', async () => {
    expect((await report({ event: 'shown', promptId: 'modal' })).status).to.equal(200);
    const other = await newSite(t);
    expect((await funnel({ siteId: other.siteId })).totals!.shown).to.equal(0);
    expect((await funnel()).totals!.shown).to.equal(1);
    expect((await refusal({ siteId: 'not-a-uuid' })).code).to.equal(5); // NOT_FOUND
  });

  it(`when the retention pass runs, then days older than ${FUNNEL_RETENTION_DAYS} are deleted and the rest kept`, async () => {
    await t.pool.query(
      `INSERT INTO delivery.optin_funnel (site_id, day, prompt_id, event, count)
       VALUES ($1, delivery.utc_day(now()) - $2::int - 1, 'old', 'shown', 3), ($1, delivery.utc_day(now()) - $2::int, 'kept', 'shown', 4)`,
      [site.siteId, FUNNEL_RETENTION_DAYS],
    );
    expect(await purgeOptInFunnel(t.pool)).to.be.at.least(1);
    expect(await rows()).to.deep.equal([{ promptId: 'kept', event: 'shown', count: 4 }]);
  });
});
