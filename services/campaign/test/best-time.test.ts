// A best-time campaign through the campaign service (docs/api-decisions.md, "Best time"): shown
// as `sendTime` with empty results until the delivery service reports them, then its results by
// hour, the holdout's and best time's, and the lift with its interval; the greatest reported set
// kept (replays and reordering change nothing); the dispatch message's bestTime; a 400 with the
// message for a wrong one, nothing stored.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCodecs } from '@webpush/contracts/messages.js';
import { rateLift, type SlotResult } from '@webpush/contracts/best-time.js';
import { applyStats } from '../src/stats/stats-store.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { MESSAGES } from '../src/base/texts.js';
import { expectStatus, getCampaign, listCampaigns, startHarness, statsMessage, validCampaign, type ApiCampaign, type Harness, type TestSite } from './support/harness.js';

type WithSendTime = ApiCampaign & { sendTime?: any };

const slot = (n: number, sendAt: string, planned: number, sent: number, impressions: number, clicks: number): SlotResult => ({ slot: n, sendAt, planned, sent, impressions, clicks });

describe('best-time campaigns', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_best_time');
    site = await h.newSite({ subscribers: [{ count: 5, topics: ['sports'], countries: [] }] });
  });
  after(async () => h?.stop());

  const create = async (overrides: Record<string, unknown> = {}, siteId = site.siteId) =>
    (await h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId, bodyJson: JSON.stringify(validCampaign({ sendTime: { mode: 'bestTime' }, ...overrides })), idempotencyKey: '' })).id;
  const sendTimeOf = async (id: string) => ((await getCampaign(h, site.siteId, id)) as WithSendTime).sendTime;

  it('when created with sendTime, then it is shown with its defaults and empty results, last on the campaign', async () => {
    const id = await create({ sendTime: { mode: 'bestTime', within: '12h', holdout: 20 } });
    const c = (await getCampaign(h, site.siteId, id)) as WithSendTime;
    const none = { difference: 0, low: null, high: null, relative: null };
    const empty = { planned: 0, sent: 0, impressions: 0, clicks: 0, clickRate: 0, impressionRate: 0 };
    expect(c.sendTime).to.deep.equal({
      mode: 'bestTime',
      within: '12h',
      holdout: 20,
      results: { holdout: empty, bestTime: empty, byHour: [], lift: { clickRate: none, impressionRate: none } },
    });
    expect(Object.keys(c).at(-1)).to.equal('sendTime');
    const listed = (await listCampaigns(h, site.siteId, '{}')).items.find((i) => i.id === id) as WithSendTime;
    expect(listed.sendTime).to.deep.equal(c.sendTime);
    expect((await sendTimeOf(await create({ sendTime: { mode: 'bestTime' } }))).within).to.equal('24h');
    expect(await sendTimeOf(await create({ sendTime: null }))).to.equal(undefined);
  });

  it('when the delivery service reports results by slot, then the greatest set is kept and shown by hour with the lift over the holdout', async () => {
    const id = await create({ status: 'published' });
    const early = [slot(-1, '2031-01-01T10:15:00.123Z', 100, 50, 10, 1), slot(0, '2031-01-01T10:15:00.123Z', 300, 0, 0, 0)];
    const later = [slot(-1, '2031-01-01T10:15:00.123Z', 100, 100, 30, 3), slot(0, '2031-01-01T10:15:00.123Z', 300, 300, 150, 30), slot(5, '2031-01-01T15:00:00.000Z', 600, 600, 300, 60)];
    await applyStats(h.pool, [statsMessage(id, { bestTime: { slots: early } })]);
    await applyStats(h.pool, [statsMessage(id, { bestTime: { slots: later } }), statsMessage(id, { bestTime: { slots: early } })]);
    await applyStats(h.pool, [statsMessage(id, { bestTime: { slots: early } })]);
    await applyStats(h.pool, [statsMessage(id, { sent: 1000 })]);
    const t = await sendTimeOf(id);
    expect(t.results.holdout).to.deep.equal({ planned: 100, sent: 100, impressions: 30, clicks: 3, clickRate: 3, impressionRate: 30 });
    expect(t.results.bestTime).to.deep.equal({ planned: 900, sent: 900, impressions: 450, clicks: 90, clickRate: 10, impressionRate: 50 });
    expect(t.results.byHour).to.deep.equal([
      { sendAt: '2031-01-01T10:15:00Z', hour: 10, planned: 300, sent: 300, impressions: 150, clicks: 30, clickRate: 10, impressionRate: 50, ctr: 20 },
      { sendAt: '2031-01-01T15:00:00Z', hour: 15, planned: 600, sent: 600, impressions: 300, clicks: 60, clickRate: 10, impressionRate: 50, ctr: 20 },
    ]);
    expect(t.results.lift.clickRate).to.deep.equal(rateLift(90, 900, 3, 100));
    expect(t.results.lift.clickRate.difference).to.equal(7);
    expect(t.results.lift.clickRate.low).to.be.above(0);
    expect(t.results.lift.impressionRate).to.deep.equal(rateLift(450, 900, 30, 100));
  });

  it('when dispatched, then the message carries bestTime as validated, written as version 2', async () => {
    const s = await h.newSite();
    const id = await create({ status: 'published', throttlePerMinute: 600, sendTime: { mode: 'bestTime', within: '6h', holdout: 0 } }, s.siteId);
    const sent: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log: createLogger('test', 'error'), publish: async (_t, messages) => void sent.push(...messages.map((m) => m.value)) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    const message = sent.map((v) => createCodecs().dispatch.decode(v)).find((m) => m.campaignId === id)!;
    expect(message.version).to.equal(2);
    expect(message.bestTime).to.deep.equal({ withinHours: 6, holdoutPercent: 0 });
    expect(message.throttlePerMinute).to.equal(600);
  });

  it('when sendTime is wrong, then 400 with its message and nothing is stored', async () => {
    const s = await h.newSite();
    await expectStatus(create({ sendTime: { mode: 'bestTime', within: '96h' } }, s.siteId), grpc.status.INVALID_ARGUMENT, MESSAGES.sendTimeWithin);
    expect((await listCampaigns(h, s.siteId, '{}')).items).to.deep.equal([]);
  });
});
