// A campaign's A/B test through the campaign service (docs/api-decisions.md, "A/B tests"): stored
// and shown with one zero result per variant and no winner; the delivery service's results kept
// as the greatest set and its first winner; the dispatch message's abTest; the customer's pick of
// the winner (PickWinner): its refusals in order, and with Kafka and the real delivery service
// sending the campaign, the pick itself, shown at once.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import fc from 'fast-check';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import type { PickWinnerResponse__Output } from '@webpush/contracts/generated/campaign/v1/PickWinnerResponse.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCodecs } from '@webpush/contracts/messages.js';
import { applyStats } from '../src/stats/stats-store.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { expectStatus, getCampaign, listCampaigns, rejection, startHarness, statsMessage, validCampaign, type ApiCampaign, type Harness, type TestSite } from './support/harness.js';

interface ShownAbTest {
  variants: Record<string, unknown>[];
  testPercent: number;
  winnerMetric: string;
  windowMinutes: number;
  results: { variant: number; sent: number; impressions: number; clicks: number; ctr: number; its: number }[];
  winner: { variant: number; decidedAt: string; by: string } | null;
  windowEndsAt: string | null;
}
type WithAbTest = ApiCampaign & { abTest?: ShownAbTest };

const AB_TEST = { variants: [{}, { title: 'Last chance: 50% off', callToAction: null }, { icon: 'https://cdn.example/b.png' }], testPercent: 20, winnerMetric: 'ctr', windowMinutes: 120 };
const zero = (variant: number) => ({ variant, sent: 0, impressions: 0, clicks: 0, ctr: 0, its: 0 });
const result = (variant: number, sent: number, impressions: number, clicks: number) => ({ variant, sent, impressions, clicks });

describe('A/B test campaigns', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_ab_test');
    site = await h.newSite({ subscribers: [{ count: 5, topics: ['sports'], countries: [] }] });
  });
  after(async () => h?.stop());

  const create = async (overrides: Record<string, unknown> = {}, siteId = site.siteId) =>
    (await h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId, bodyJson: JSON.stringify(validCampaign({ abTest: AB_TEST, ...overrides })), idempotencyKey: '' })).id;
  const abTestOf = async (id: string) => ((await getCampaign(h, site.siteId, id)) as WithAbTest).abTest;
  const pick = (campaignId: string, body: unknown, siteId = site.siteId) =>
    h.call<PickWinnerResponse__Output>('PickWinner', { siteId, campaignId, bodyJson: typeof body === 'string' ? body : JSON.stringify(body) });

  it('when created with an A/B test, then it is shown as stored, one zero result per variant, no winner, last on the campaign', async () => {
    const id = await create();
    const c = (await getCampaign(h, site.siteId, id)) as WithAbTest;
    expect(c.abTest).to.deep.equal({
      variants: [{}, { title: 'Last chance: 50% off', callToAction: '' }, { icon: 'https://cdn.example/b.png' }],
      testPercent: 20,
      winnerMetric: 'ctr',
      windowMinutes: 120,
      results: [zero(0), zero(1), zero(2)],
      winner: null,
      windowEndsAt: null,
    });
    expect(Object.keys(c).at(-1)).to.equal('abTest');
    // The list shows the same object.
    const listed = (await listCampaigns(h, site.siteId, '{}')).items.find((i) => i.id === id) as WithAbTest;
    expect(listed.abTest).to.deep.equal(c.abTest);
    // A campaign without one is as before.
    expect(await abTestOf(await create({ abTest: null }))).to.equal(undefined);
  });

  it('when the delivery service reports results, then the greatest set is kept (replays and reordering change nothing) with ctr and its per variant', async () => {
    const id = await create({ status: 'published' });
    const early = [result(0, 3, 1, 0), result(1, 3, 2, 1)];
    const later = [result(0, 10, 3, 1), result(1, 10, 8, 4), result(2, 9, 0, 0)];
    await applyStats(h.pool, [statsMessage(id, { abTest: { results: early, winner: null } })]);
    expect((await abTestOf(id))!.results).to.deep.equal([{ ...early[0], ctr: 0, its: 33.33 }, { ...early[1], ctr: 50, its: 66.67 }, zero(2)]);
    // Later and earlier in one batch, then the earlier one replayed alone: the later stays.
    await applyStats(h.pool, [statsMessage(id, { abTest: { results: later, winner: null } }), statsMessage(id, { abTest: { results: early, winner: null } })]);
    await applyStats(h.pool, [statsMessage(id, { abTest: { results: early, winner: null } })]);
    await applyStats(h.pool, [statsMessage(id, { sent: 29 })]);
    expect((await abTestOf(id))!.results).to.deep.equal([
      { ...later[0], ctr: 33.33, its: 30 },
      { ...later[1], ctr: 50, its: 80 },
      { ...later[2], ctr: 0, its: 0 },
    ]);
  });

  it('when the delivery service reports a winner, then the first one stands', async () => {
    const id = await create({ status: 'published' });
    const results = [result(0, 10, 5, 1), result(1, 10, 5, 3), result(2, 10, 5, 2)];
    await applyStats(h.pool, [
      statsMessage(id, { abTest: { results, winner: null } }),
      statsMessage(id, { abTest: { results, winner: { variant: 1, decidedAt: '2031-01-01T10:00:00.123Z', by: 'metric' } } }),
    ]);
    await applyStats(h.pool, [statsMessage(id, { abTest: { results, winner: { variant: 2, decidedAt: '2031-01-01T11:00:00.000Z', by: 'customer' } } })]);
    expect((await abTestOf(id))!.winner).to.deep.equal({ variant: 1, decidedAt: '2031-01-01T10:00:00Z', by: 'metric' });
  });

  it('when the delivery service reports when the window ends, then the campaign shows it (to the second); events without it keep it', async () => {
    const id = await create({ status: 'published' });
    const results = [result(0, 1, 0, 0), result(1, 1, 0, 0), result(2, 0, 0, 0)];
    await applyStats(h.pool, [statsMessage(id, { abTest: { results, winner: null, windowEndsAt: null } })]);
    expect((await abTestOf(id))!.windowEndsAt).to.equal(null);
    await applyStats(h.pool, [statsMessage(id, { abTest: { results, winner: null, windowEndsAt: '2031-01-01T12:00:00.456Z' } })]);
    await applyStats(h.pool, [statsMessage(id, { abTest: { results, winner: null } }), statsMessage(id, { abTest: { results, winner: null, windowEndsAt: 'not a date' } })]);
    expect((await abTestOf(id))!.windowEndsAt).to.equal('2031-01-01T12:00:00Z');
  });

  it('when a stats event carries any text as the window end (hostile or broken), then it is stored as a date or kept out, never an error', async () => {
    const results = [result(0, 0, 0, 0), result(1, 0, 0, 0), result(2, 0, 0, 0)];
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 40 }), fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString()))), async (windowEndsAt) => {
        const id = await create({ status: 'published' });
        await applyStats(h.pool, [statsMessage(id, { abTest: { results, winner: null, windowEndsAt } })]);
        const shown = (await abTestOf(id))!.windowEndsAt;
        if (shown !== null) expect(shown).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }),
      { numRuns: 40 },
    );
  });

  it('when dispatched, then the message carries the A/B test as validated', async () => {
    const s = await h.newSite();
    const id = await create({ status: 'published' }, s.siteId);
    const sent: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log: createLogger('test', 'error'), publish: async (_t, messages) => void sent.push(...messages.map((m) => m.value)) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    const message = sent.map((v) => createCodecs().dispatch.decode(v)).find((m) => m.campaignId === id)!;
    expect(message.version).to.equal(2);
    expect(message.abTest).to.deep.equal({ ...AB_TEST, variants: [{}, { title: 'Last chance: 50% off', callToAction: '' }, { icon: 'https://cdn.example/b.png' }] });
    expect(message).to.not.have.property('localTime');
  });

  describe('PickWinner: the refusals, in order', () => {
    it('when the campaign is not the site\'s, then NOT_FOUND exactly as GetCampaign', async () => {
      const id = await create();
      const other = await h.newSite();
      for (const [siteId, campaignId] of [[other.siteId, id], [site.siteId, '00000000-0000-4000-8000-000000000000'], [site.siteId, 'not-a-uuid'], [site.siteId, '']]) {
        await expectStatus(pick(campaignId, { variant: 7 }, siteId), grpc.status.NOT_FOUND, 'Campaign not found');
        const get = await rejection(h.call('GetCampaign', { siteId, campaignId }));
        expect([get.code, get.details]).to.deep.equal([grpc.status.NOT_FOUND, 'Campaign not found']);
      }
    });

    it('when the campaign has no A/B test, then FAILED_PRECONDITION "The campaign has no A/B test", whatever the variant', async () => {
      const id = await create({ abTest: undefined });
      for (const body of [{ variant: 0 }, { variant: 'x' }, {}]) await expectStatus(pick(id, body), grpc.status.FAILED_PRECONDITION, 'The campaign has no A/B test');
    });

    it('when the variant is not one of the test\'s, then INVALID_ARGUMENT naming the range', async () => {
      const id = await create();
      for (const variant of [undefined, null, -1, 3, 1.5, '1', true, [1], 1e21]) {
        await expectStatus(pick(id, { variant }), grpc.status.INVALID_ARGUMENT, 'variant must be an integer from 0 to 2');
      }
      const two = await create({ abTest: { ...AB_TEST, variants: [{}, {}] } });
      await expectStatus(pick(two, { variant: 2 }), grpc.status.INVALID_ARGUMENT, 'variant must be an integer from 0 to 1');
      for (const bodyJson of ['[1]', 'null', '{bad']) await expectStatus(pick(id, bodyJson), grpc.status.INVALID_ARGUMENT, 'Invalid JSON body');
    });

    it('when the test has not started sending (a draft), then the delivery service\'s FAILED_PRECONDITION, and no winner is recorded', async () => {
      const id = await create({ status: 'draft' });
      await expectStatus(pick(id, { variant: 1 }), grpc.status.FAILED_PRECONDITION, 'The A/B test has not started');
      expect((await abTestOf(id))!.winner).to.equal(null);
    });
  });
});

describe('A/B test campaigns: the customer picks the winner while the real delivery service sends (Kafka)', function () {
  this.timeout(90_000);
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_ab_pick', {}, { kafka: true });
    // No subscribers: the test starts (its window opens) all the same, and nothing is pushed to
    // seeded endpoints that lead nowhere (an in-process delivery service pushing to them does
    // not stop in time).
    site = await h.newSite();
  });
  after(async () => h?.stop());

  it('when the test is sending, then the pick is answered, shown at once, and a second pick is refused', async () => {
    const { id } = await h.call<CreateCampaignResponse__Output>('CreateCampaign', {
      siteId: site.siteId,
      bodyJson: JSON.stringify(validCampaign({ status: 'published', abTest: { ...AB_TEST, testPercent: 50, windowMinutes: 600 } })),
      idempotencyKey: '',
    });
    const pick = () => h.call<PickWinnerResponse__Output>('PickWinner', { siteId: site.siteId, campaignId: id, bodyJson: '{"variant": 2}' });
    // Until the delivery service has taken the dispatch and started the test, it has not started.
    const deadline = Date.now() + 60_000;
    let picked: PickWinnerResponse__Output | undefined;
    while (!picked) {
      try {
        picked = await pick();
      } catch (err) {
        const e = err as grpc.ServiceError;
        if (e.details !== 'The A/B test has not started' || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(picked).to.deep.include({ id, variant: 2, by: 'customer' });
    expect(picked.decidedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const shown = ((await getCampaign(h, site.siteId, id)) as WithAbTest).abTest!;
    expect(shown.winner).to.deep.equal({ variant: 2, decidedAt: picked.decidedAt, by: 'customer' });
    await expectStatus(pick(), grpc.status.FAILED_PRECONDITION, 'The winner has already been chosen');
  });
});
