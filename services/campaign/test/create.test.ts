import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { loadCampaignProto } from '@webpush/shared/grpc.js';
import { freePort } from '@webpush/shared/ports.js';
import { expectStatus, getCampaign, rejection, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('CreateCampaign', function () {
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_create', { AUDIENCE_RECOUNT_INTERVAL_MS: '100' });
    site = await h.newSite({
      subscribers: [
        { count: 7, topics: ['sports'], countries: ['br'] },
        { count: 5, topics: ['news'], countries: ['us'] },
      ],
    });
  });
  after(async () => h?.stop());

  const create = (body: object, key = '') =>
    h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: key });
  const get = (id: string) => getCampaign(h, site.siteId, id);
  const outboxRows = async (id: string) =>
    (await h.pool.query('SELECT kind, payload FROM campaign.outbox WHERE campaign_id = $1', [id])).rows;
  const campaignCount = async () => Number((await h.pool.query('SELECT count(*) FROM campaign.campaigns')).rows[0].count);

  it('when published to send now, then it is dispatched at once with one outbox row', async () => {
    const { id } = await create(validCampaign({ status: 'published', scheduleMode: 'now', scheduleDate: 'ignored' }));
    expect(id).to.match(UUID);
    const c = await get(id);
    expect(c.status).to.equal('published');
    expect(c.scheduleMode).to.equal('now');
    expect(c.scheduleDate).to.equal(c.createdAt);
    const rows = await outboxRows(id);
    expect(rows).to.have.length(1);
    expect(rows[0].kind).to.equal('campaign.dispatch');
    // The row names the campaign; its payload holds only what the relay reads from it.
    expect(Object.keys(rows[0].payload)).to.deep.equal(['requestId']);
    expect(rows[0].payload.requestId).to.be.a('string').and.not.equal('');
  });

  it('when scheduled, then the date is kept (to the second) and nothing is dispatched yet', async () => {
    const { id } = await create(validCampaign({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-02-03T04:05:06.789Z' }));
    const c = await get(id);
    expect(c.scheduleDate).to.equal('2031-02-03T04:05:06Z');
    expect(await outboxRows(id)).to.have.length(0);
    const dispatched = await h.pool.query('SELECT dispatched_at FROM campaign.campaigns WHERE id = $1', [id]);
    expect(dispatched.rows[0].dispatched_at).to.equal(null);
  });

  for (const status of ['draft', 'failed']) {
    it(`when the status is ${status}, then it is stored as ${status} and nothing is sent`, async () => {
      const { id } = await create(validCampaign({ status, scheduleMode: 'scheduled', scheduleDate: '2020-01-01T00:00:00Z' }));
      expect((await get(id)).status).to.equal(status);
      expect(await outboxRows(id)).to.have.length(0);
    });
  }

  it('when topics and countries are given, then totalUsers is the delivery service count of their union', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ topics: ['sports'] }, 7],
      [{ topics: ['news'], countries: undefined }, 5],
      [{ topics: undefined, countries: ['BR'] }, 7],
      [{ topics: ['sports'], countries: ['country__br'] }, 7],
      [{ topics: ['sports'], countries: ['us'] }, 12],
      [{ topics: ['nobody'] }, 0],
    ];
    for (const [audience, expected] of cases) {
      const { id } = await create(validCampaign(audience));
      const c = await get(id);
      expect(c.totalUsers, JSON.stringify(audience)).to.equal(expected);
      expect(c.analytics?.totalUsers).to.equal(expected);
    }
  });

  it('returns every field of the stored campaign; absent icon and image are null', async () => {
    const body = validCampaign({
      title: 'Título 👍🏽',
      topics: ['Sports', 'news'],
      countries: ['br'],
      callToAction: 'Buy now',
      utmSource: 'push',
      utmMedium: 'web',
      utmCampaign: 'spring',
      ttl: 3600,
      extraField: 'ignored',
    });
    const { id } = await create(body);
    const c = await get(id);
    expect(c).to.deep.include({
      id,
      title: 'Título 👍🏽',
      body: body.body,
      link: body.link,
      topics: ['sports', 'news', 'country__br'],
      status: 'draft',
      scheduleMode: 'now',
      callToAction: 'Buy now',
      utmSource: 'push',
      utmMedium: 'web',
      utmCampaign: 'spring',
      ttl: 3600,
      ttlUnit: 'seconds',
      totalUsers: 12,
    });
    expect(c.createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(c.image).to.equal(null);
    expect(c.icon).to.equal(null);
    expect(c.updatedAt).to.equal(null);
    expect(c.analytics).to.deep.equal({ clicks: 0, impressions: 0, ctr: 0, its: 0, totalUsers: 12 });

    const withImages = await create(validCampaign({ icon: 'https://cdn.example/i.png', image: 'https://cdn.example/b.png' }));
    const c2 = await get(withImages.id);
    expect([c2.icon, c2.image]).to.deep.equal(['https://cdn.example/i.png', 'https://cdn.example/b.png']);
  });

  it('when fields are invalid, then INVALID_ARGUMENT with the joined messages and nothing is stored', async () => {
    const before = await campaignCount();
    await expectStatus(
      create({ title: 'ab', link: 'javascript:alert(1)', topics: [], status: 'published', scheduleMode: 'scheduled', scheduleDate: '2025-01-01T00:00:00+01:00' }),
      grpc.status.INVALID_ARGUMENT,
      'Title must be between 3 and 100 characters, Body is required, Link must be a valid URL, At least one topic or country must be specified, Invalid schedule date format. Use ISO format (e.g. 2025-01-01T12:00:00Z)',
    );
    expect(await campaignCount()).to.equal(before);
  });

  it('when the body is not a JSON object, then INVALID_ARGUMENT "Invalid JSON body"', async () => {
    for (const bodyJson of ['[1]', 'null', '"x"', '{bad']) {
      await expectStatus(h.call('CreateCampaign', { siteId: site.siteId, bodyJson, idempotencyKey: '' }), grpc.status.INVALID_ARGUMENT, 'Invalid JSON body');
    }
  });

  /** A second campaign service whose audience calls go to a port nobody listens on. */
  async function withDeadAudience(run: (create: (body: object) => Promise<{ id: string }>) => Promise<void>): Promise<void> {
    const deadPort = await freePort();
    const instance = await h.startInstance({ AUDIENCE_GRPC_TARGET: `127.0.0.1:${deadPort}`, AUDIENCE_DEADLINE_MS: '500' });
    const { CampaignService } = loadCampaignProto().campaign.v1;
    const client = new CampaignService(`127.0.0.1:${instance.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
    try {
      await run((body) =>
        new Promise((resolve, reject) =>
          client.CreateCampaign({ siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' }, (err, res) => (err ? reject(err) : resolve(res as { id: string }))),
        ),
      );
    } finally {
      client.close();
    }
  }

  it('when the audience service cannot answer, then the campaign is created uncounted (totalUsers 0) and counted once it answers', async () => {
    let id = '';
    await withDeadAudience(async (createThere) => {
      ({ id } = await createThere(validCampaign({ topics: ['sports'], countries: ['us'] })));
    });
    expect(id).to.match(UUID);
    const stored = (await h.pool.query('SELECT total_users FROM campaign.campaigns WHERE id = $1', [id])).rows[0];
    // The dead instance cannot count it; this harness's own service (AUDIENCE_RECOUNT_INTERVAL_MS
    // 100, a live delivery service) counts it on a pass: 7 (sports) + 5 (us).
    if (stored.total_users === null) expect((await get(id)).totalUsers).to.equal(0);
    for (let i = 0; i < 100 && (await get(id)).totalUsers !== 12; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await get(id)).totalUsers).to.equal(12);
  });

  it('when the audience service cannot answer a local-time create, then UNAVAILABLE "Service busy" with retry-after and nothing is stored', async () => {
    await withDeadAudience(async (createThere) => {
      const before = await campaignCount();
      const err = await rejection(createThere(validCampaign({ topics: ['news'], status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-02T18:45:00Z', localTime: '09:00' })));
      expect(err.code).to.equal(grpc.status.UNAVAILABLE);
      expect(err.details).to.equal('Service busy');
      expect(err.metadata.get('retry-after')).to.have.length(1);
      expect(await campaignCount()).to.equal(before);
    });
  });
});
