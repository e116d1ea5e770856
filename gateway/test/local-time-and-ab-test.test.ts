// Component tests: local time and A/B tests (additions of 2026-11-27) through the gateway, against
// the real campaign and delivery services; every answer is checked against the OpenAPI document
// (stack.call), so the new fields and the winner endpoint are there exactly as answered.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ALL_PERMISSIONS, startStack, validCreateBody, type Stack, type TestSite } from './support/stack.js';

const AB_TEST = { variants: [{}, { title: 'Last chance', icon: null }], testPercent: 10, winnerMetric: 'impressions', windowMinutes: 30 };

describe('gateway: local time and A/B tests', () => {
  let stack: Stack;
  let site: TestSite;

  before(async () => {
    stack = await startStack('gw_local_ab');
    site = await stack.newSite(ALL_PERMISSIONS, { count: 3, topics: ['sports'], countries: ['br'] });
  });
  after(async () => {
    await stack?.stop();
  });

  const create = (body: Record<string, unknown>) => stack.call('POST', '/v2/campaign/create', { key: site.key, body: validCreateBody(body) });
  const winner = (id: string, body: unknown) => stack.call('POST', `/v2/campaign/${id}/winner`, { key: site.key, body });

  it('when created with localTime, then 200 with the id and the plan, which get and list show too', async () => {
    const r = await create({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-02T18:00:00.5Z', localTime: '07:15' });
    const localTime = {
      date: '2031-06-02',
      time: '07:15',
      ifPassed: 'nextDay',
      firstSendAt: '2031-06-02T07:15:00Z',
      lastSendAt: '2031-06-02T07:15:00Z',
      // The seeded subscribers have no zone: the site's default, UTC.
      sends: [{ sendAt: '2031-06-02T07:15:00Z', zones: ['UTC'], users: 3, nextDay: false }],
    };
    expect(r.status).to.equal(200);
    const { id, ...rest } = r.body as { id: string };
    expect(rest).to.deep.equal({ localTime });
    const got = await stack.call('GET', `/v2/campaign/${id}`, { key: site.key });
    expect((got.body as { localTime: unknown; scheduleDate: string }).localTime).to.deep.equal(localTime);
    expect((got.body as { scheduleDate: string }).scheduleDate).to.equal('2031-06-02T07:15:00Z');
    const listed = await stack.call('POST', '/v2/campaigns', { key: site.key, body: { status: ['scheduled'] } });
    expect((listed.body as { items: { id: string }[] }).items.map((c) => c.id)).to.include(id);
  });

  it('when created without, then the answer is the id alone, as the spec says', async () => {
    const r = await create({});
    expect([r.status, Object.keys(r.body as object)]).to.deep.equal([200, ['id']]);
  });

  it('when created with an A/B test, then the campaign shows it with zero results and no winner', async () => {
    const r = await create({ abTest: AB_TEST });
    expect([r.status, Object.keys(r.body as object)]).to.deep.equal([200, ['id']]);
    const got = await stack.call('GET', `/v2/campaign/${(r.body as { id: string }).id}`, { key: site.key });
    expect((got.body as { abTest: unknown }).abTest).to.deep.equal({
      ...AB_TEST,
      results: [0, 1].map((variant) => ({ variant, sent: 0, impressions: 0, clicks: 0, ctr: 0, its: 0 })),
      winner: null,
      windowEndsAt: null,
    });
  });

  it('when localTime or abTest is wrong, then 400 with the messages joined', async () => {
    const r = await create({ scheduleMode: 'now', localTime: '7:15', abTest: { ...AB_TEST, variants: [{}, { title: 'ab' }], testPercent: 0 } });
    expect([r.status, r.body]).to.deep.equal([
      400,
      { message: 'localTime must be a time of day as HH:MM (00:00 to 23:59), abTest.variants[1]: Title must be between 3 and 100 characters, abTest.testPercent must be an integer from 1 to 100' },
    ]);
  });

  describe('POST /v2/campaign/{campaignId}/winner', () => {
    it('when the campaign is unknown or not the site\'s, then 404 Campaign not found', async () => {
      const other = await stack.newSite(ALL_PERMISSIONS);
      const theirs = (await stack.call('POST', '/v2/campaign/create', { key: other.key, body: validCreateBody({ abTest: AB_TEST }) })).body as { id: string };
      for (const id of [randomUUID(), 'nope', theirs.id]) {
        const r = await winner(id, { variant: 0 });
        expect([r.status, r.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
      }
    });

    it('when the campaign has no A/B test, then 409 The campaign has no A/B test', async () => {
      const { id } = (await create({})).body as { id: string };
      const r = await winner(id, { variant: 0 });
      expect([r.status, r.body]).to.deep.equal([409, { message: 'The campaign has no A/B test' }]);
    });

    it('when the variant is not the test\'s, or the body not JSON, then 400', async () => {
      const { id } = (await create({ abTest: AB_TEST })).body as { id: string };
      for (const body of [{ variant: 2 }, { variant: -1 }, {}, { variant: '0' }]) {
        const r = await winner(id, body);
        expect([r.status, r.body]).to.deep.equal([400, { message: 'variant must be an integer from 0 to 1' }]);
      }
      for (const body of ['{"variant":', '[0]']) {
        const r = await stack.call('POST', `/v2/campaign/${id}/winner`, { key: site.key, body, headers: { 'Content-Type': 'application/json' } });
        expect([r.status, r.body]).to.deep.equal([400, { message: 'Invalid JSON body' }]);
      }
    });

    it('when the test has not started (a draft), then 409 from the delivery service', async () => {
      const { id } = (await create({ abTest: AB_TEST })).body as { id: string };
      const r = await winner(id, { variant: 1 });
      expect([r.status, r.body]).to.deep.equal([409, { message: 'The A/B test has not started' }]);
    });

    it('when called with another method, then 405 with Allow: POST', async () => {
      const r = await stack.call('GET', `/v2/campaign/${randomUUID()}/winner`, { key: site.key, contract: false });
      expect([r.status, r.headers.get('allow')]).to.deep.equal([405, 'POST']);
    });
  });
});
