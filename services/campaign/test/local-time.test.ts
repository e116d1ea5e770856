// A local-time campaign through the campaign service, with the real delivery service answering
// CountAudience by zone (docs/api-decisions.md, "Local time"): the plan the create answers and the
// campaign stores and shows, scheduleDate its first send, an Idempotency-Key replay, the dispatch
// message's localTime, the list filter (scheduled until the last send, sent after) and DELETE's
// 409 once the first group went out.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { browserSubscription } from '../../../gateway/test/support/stack.js';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';
import { createLogger } from '@webpush/shared/log.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { createCodecs } from '@webpush/contracts/messages.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { createScheduler } from '../src/scheduler/scheduler.js';
import { planLocalTime } from '../src/campaigns/local-time-plan.js';
import { expectStatus, getCampaign, listCampaigns, startHarness, validCampaign, type ApiCampaign, type Harness, type TestSite } from './support/harness.js';

type WithLocalTime = ApiCampaign & { localTime?: unknown };

describe('local-time campaigns', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;

  /** Subscribes a browser through the site plugin's endpoint, as a visitor's would, in `timeZone` (none: null). */
  async function subscribe(publicId: string, timeZone: string | null): Promise<void> {
    const res = await fetch(`${h.deliveryHttpUrl}/public/v1/sites/${publicId}/subscriptions`, {
      method: 'POST',
      // As the gateway's proxy passes it on.
      headers: { 'Content-Type': 'application/json', [INTERNAL_AUTH_HEADER]: INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN },
      body: JSON.stringify({ subscription: browserSubscription(), topics: ['news'], language: 'en', timeZone }),
    });
    expect(res.status, await res.text()).to.equal(201);
  }

  before(async () => {
    h = await startHarness('campaign_local_time');
    site = await h.newSite();
    for (const zone of ['Europe/Paris', 'Europe/Paris', 'America/Sao_Paulo', 'Europe/Berlin', null, 'Not/AZone']) await subscribe(site.publicId, zone);
    // Subscribers without a known zone take the site's default.
    await h.deliveryOperators.setTimeZone(site.siteId, 'Asia/Tokyo');
  });
  after(async () => h?.stop());

  const create = (siteId: string, body: object, key = '') =>
    h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId, bodyJson: JSON.stringify(body), idempotencyKey: key });
  const localCampaign = (overrides: Record<string, unknown> = {}) =>
    validCampaign({ topics: ['news'], status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-02T18:45:00Z', localTime: '09:00', ...overrides });
  const log = createLogger('test', 'error');
  /** One tick of the service's scheduler: due campaigns are marked dispatched and their send jobs written. */
  const schedulerTick = () => createScheduler({ pool: h.pool, log }, { intervalMs: 1000, batchSize: 1000 }).tick();
  const createdAtMs = async (id: string): Promise<string> =>
    (await h.pool.query(`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM campaign.campaigns WHERE id = $1`, [id])).rows[0].at;

  it('when created with localTime, then the answer is its plan over the audience\'s zones, stored and shown, scheduleDate its first send', async () => {
    const res = await create(site.siteId, localCampaign());
    const expected = {
      date: '2031-06-02',
      time: '09:00',
      ifPassed: 'nextDay',
      firstSendAt: '2031-06-02T00:00:00Z',
      lastSendAt: '2031-06-02T12:00:00Z',
      sends: [
        // Tokyo: the site's default zone, for the subscriber without a zone and the one with an unknown zone.
        { sendAt: '2031-06-02T00:00:00Z', zones: ['Asia/Tokyo'], users: 2, nextDay: false },
        { sendAt: '2031-06-02T07:00:00Z', zones: ['Europe/Berlin', 'Europe/Paris'], users: 3, nextDay: false },
        { sendAt: '2031-06-02T12:00:00Z', zones: ['America/Sao_Paulo'], users: 1, nextDay: false },
      ],
    };
    expect(JSON.parse(res.localTimeJson)).to.deep.equal(expected);
    const c = (await getCampaign(h, site.siteId, res.id)) as WithLocalTime;
    expect(c.localTime).to.deep.equal(expected);
    expect(Object.keys(c).at(-1)).to.equal('localTime');
    expect([c.scheduleMode, c.scheduleDate, c.totalUsers]).to.deep.equal(['scheduled', '2031-06-02T00:00:00Z', 6]);
    const { rows } = await h.pool.query('SELECT last_send_at, dispatched_at FROM campaign.campaigns WHERE id = $1', [res.id]);
    expect([rows[0].last_send_at.toISOString(), rows[0].dispatched_at]).to.deep.equal(['2031-06-02T12:00:00.000Z', null]);
  });

  it('when the date is today, then zones whose moment had passed at creation are sent the next day, planned from the creation time', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await create(site.siteId, localCampaign({ scheduleDate: `${today}T00:00:00Z`, localTime: '00:30' }));
    const plan = JSON.parse(res.localTimeJson);
    // The shared rule, at the campaign's creation as stored.
    const zones = [{ zone: 'Asia/Tokyo', users: 2 }, { zone: 'Europe/Paris', users: 2 }, { zone: 'America/Sao_Paulo', users: 1 }, { zone: 'Europe/Berlin', users: 1 }];
    expect(plan).to.deep.equal(planLocalTime({ date: today, time: '00:30' }, { zones, defaultTimeZone: 'Asia/Tokyo' }, new Date(await createdAtMs(res.id))));
    // 00:30 in Tokyo, Paris and Berlin is before 00:00 UTC today: passed whenever the test runs.
    expect(plan.sends.filter((g: { nextDay: boolean }) => g.nextDay).flatMap((g: { zones: string[] }) => g.zones)).to.include.members(['Asia/Tokyo', 'Europe/Berlin', 'Europe/Paris']);
    const created = new Date(await createdAtMs(res.id)).getTime();
    for (const g of plan.sends) expect(new Date(g.sendAt).getTime(), g.sendAt).to.be.at.least(created - 1000);
  });

  it('when a draft has localTime, then it is planned too; without one, the answer and the campaign are as before', async () => {
    const draft = await create(site.siteId, localCampaign({ status: 'draft' }));
    expect(JSON.parse(draft.localTimeJson).sends).to.have.length(3);
    const plain = await create(site.siteId, validCampaign({ topics: ['news'], status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-02T18:45:00Z' }));
    expect(plain.localTimeJson).to.equal('');
    const c = (await getCampaign(h, site.siteId, plain.id)) as WithLocalTime;
    expect(c).to.not.have.property('localTime');
    expect(c.scheduleDate).to.equal('2031-06-02T18:45:00Z');
  });

  it('when the site has no subscribers in the audience, then one send of 0 users in the site\'s default zone (UTC when unset)', async () => {
    const empty = await h.newSite();
    const res = await create(empty.siteId, localCampaign());
    expect(JSON.parse(res.localTimeJson).sends).to.deep.equal([{ sendAt: '2031-06-02T09:00:00Z', zones: ['UTC'], users: 0, nextDay: false }]);
  });

  it('when a local-time create is repeated with its Idempotency-Key, then the same id and the same plan', async () => {
    const first = await create(site.siteId, localCampaign(), 'local-time-1');
    const again = await create(site.siteId, localCampaign(), 'local-time-1');
    expect([again.id, JSON.parse(again.localTimeJson)]).to.deep.equal([first.id, JSON.parse(first.localTimeJson)]);
  });

  it('when localTime is wrong, then INVALID_ARGUMENT with its message and nothing is stored', async () => {
    await expectStatus(create(site.siteId, localCampaign({ localTime: '9:00' })), grpc.status.INVALID_ARGUMENT, 'localTime must be a time of day as HH:MM (00:00 to 23:59)');
    await expectStatus(create(site.siteId, localCampaign({ scheduleMode: 'now' })), grpc.status.INVALID_ARGUMENT, 'localTime requires scheduleMode scheduled');
    await expectStatus(create(site.siteId, localCampaign({ scheduleDate: '2020-01-01T00:00:00Z' })), grpc.status.INVALID_ARGUMENT, "localTime's date must be today or later (UTC)");
  });

  it('when dispatched, then the message carries localTime with the date, the time and the campaign\'s creation (ms)', async () => {
    const s = await h.newSite();
    const { id } = await create(s.siteId, localCampaign({ scheduleDate: '2031-06-02T00:00:00Z', abTest: undefined }));
    // Due now: what the scheduler does at the first send.
    await h.pool.query(`UPDATE campaign.campaigns SET schedule_date = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await schedulerTick()).to.be.at.least(1);
    const sent: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log, publish: async (_topic, messages) => void sent.push(...messages.map((m) => m.value)) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    const messages = sent.map((v) => createCodecs().dispatch.decode(v)).filter((m) => m.campaignId === id);
    expect(messages).to.have.length(1);
    expect(messages[0].version).to.equal(2);
    expect(messages[0].localTime).to.deep.equal({ date: '2031-06-02', time: '09:00', createdAt: await createdAtMs(id) });
    expect(messages[0]).to.not.have.property('abTest');
  });

  it('when its first group went out, then it reads scheduled until the last send has passed, sent after, and DELETE is refused', async () => {
    const s = await h.newSite();
    const local = (await create(s.siteId, localCampaign())).id;
    const ordinary = (await create(s.siteId, validCampaign({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-02T00:00:00Z' }))).id;
    const filtered = async (status: string) => (await listCampaigns(h, s.siteId, JSON.stringify({ status: [status] }))).items.map((c) => c.id).sort();

    expect([await filtered('scheduled'), await filtered('sent')]).to.deep.equal([[local, ordinary].sort(), []]);
    // The first group's moment comes: the scheduler dispatches both.
    await h.pool.query(`UPDATE campaign.campaigns SET schedule_date = now() - interval '1 second', last_send_at = CASE WHEN local_time IS NULL THEN NULL ELSE now() + interval '1 hour' END WHERE site_id = $1`, [s.siteId]);
    await schedulerTick();
    expect([await filtered('scheduled'), await filtered('sent')]).to.deep.equal([[local], [ordinary]]);
    await expectStatus(h.call('DeleteCampaign', { siteId: s.siteId, campaignId: local }), grpc.status.FAILED_PRECONDITION, 'Cannot delete a campaign that has already been sent');
    // The last group's moment has passed.
    await h.pool.query(`UPDATE campaign.campaigns SET last_send_at = now() - interval '1 second' WHERE id = $1`, [local]);
    expect([await filtered('scheduled'), await filtered('sent')]).to.deep.equal([[], [local, ordinary].sort()]);
  });
});
