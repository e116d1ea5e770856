// Best time per subscriber (migrations/20261207040000_best_time.sql, sending/best-time-store.ts,
// stages.ts) against a real Postgres: the hour weights kept from tracking reports (hour of the
// report, clicks weighing more, halving every 14 days), the best slot of a window (argmax, the
// site's prior for a subscriber without history, a window wrapping past midnight, ties to the
// earliest), and a best-time dispatch: the holdout at once, each slot only when due, every
// subscriber exactly once in its frozen slot, results by slot, not held by quiet hours (for now);
// the lift's interval.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { bestTimeSlots, HOLDOUT_SLOT, rateLift } from '@webpush/contracts/best-time.js';
import { bestTimeResults } from '../../src/sending/best-time-store.js';
import { logTableOf } from '../../src/sending/delivery-log-store.js';
import { statsMessage } from '../../src/sending/messaging.js';
import { changedCounters, refreshBestTimeResults } from '../../src/tracking/counter-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const noop = async () => {};
const DAY = 86400_000;

describe('delivery: best time per subscriber', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('best-time');
  });
  after(async () => {
    await t?.stop();
  });

  const subscribers = async (siteId: string) =>
    (await t.pool.query(`SELECT id::text AS id FROM delivery.subscribers WHERE site_id = $1 ORDER BY id`, [siteId])).rows.map((r) => r.id as string);
  const weights = async (id: string) => (await t.pool.query(`SELECT weights FROM delivery.subscriber_hours WHERE subscriber_id = $1`, [id])).rows[0]?.weights as number[] | undefined;
  const track = (id: string, kind: string, at: Date) =>
    t.pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind, at) VALUES ($1, $2, $3, $4)`, [randomUUID(), id, kind, at]);
  const slotOf = async (w: number[] | null, prior: number[], firstHour: number, slots: number) =>
    (await t.pool.query(`SELECT delivery.best_time_slot($1::real[], now(), $2::real[], $3, $4, now()) AS k`, [w, prior, firstHour, slots])).rows[0].k as number;
  const hours = (entries: Record<number, number>) => Array.from({ length: 24 }, (_, h) => entries[h] ?? 0);

  describe('the model', () => {
    it('weighs reports by their UTC hour, a click 3, an impression 1, halving every 14 days', async () => {
      const { siteId } = await newSite(t);
      await t.operators.seedSubscribers({ siteId, count: 1, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const [id] = await subscribers(siteId);
      const now = Date.UTC(2026, 11, 1, 12, 30);
      await track(id, 'impression', new Date(now - 14 * DAY - 3 * 3600_000)); // 09:30 UTC, 14 days before
      await track(id, 'impression', new Date(now)); // 12:30
      await track(id, 'click', new Date(now + 60_000)); // 12:31
      // Decayed to the latest report (12:31).
      const decay = (ms: number) => 0.5 ** ((now + 60_000 - ms) / (14 * DAY));
      const w = (await weights(id))!;
      expect(w).to.have.length(24);
      expect(w[9]).to.be.closeTo(decay(now - 14 * DAY - 3 * 3600_000), 0.0001);
      expect(w[9]).to.be.closeTo(0.5, 0.01);
      expect(w[12]).to.be.closeTo(decay(now) + 3, 0.0001);
      expect(w.reduce((a, b) => a + b)).to.be.closeTo(w[9] + w[12], 0.0001);
      // A report older than the stored weights decays to them, not them to it.
      await track(id, 'click', new Date(now - 28 * DAY - 3 * 3600_000));
      expect((await weights(id))![9]).to.be.closeTo(decay(now - 14 * DAY - 3 * 3600_000) + 3 * decay(now - 28 * DAY - 3 * 3600_000), 0.0001);
    });

    it('picks the slot of the best hour, wraps past midnight, falls back to the prior, ties to the earliest', async () => {
      const flat = hours({});
      // A window from 22:00 over 6 hours: 22, 23, 0, 1, 2, 3.
      expect(await slotOf(hours({ 1: 5, 12: 50 }), flat, 22, 6)).to.equal(3);
      expect(await slotOf(hours({ 22: 1, 2: 3 }), flat, 22, 6)).to.equal(4);
      // No history: the site's prior decides; none either: the first slot.
      const prior = hours({ 23: 0.7, 10: 0.3 });
      expect(await slotOf(null, prior, 22, 6)).to.equal(1);
      expect(await slotOf(null, flat, 22, 6)).to.equal(0);
      // Little history is blended: one impression at 2 does not beat a strong prior at 23; much does.
      expect(await slotOf(hours({ 2: 1 }), hours({ 23: 1 }), 22, 6)).to.equal(1);
      expect(await slotOf(hours({ 2: 10 }), hours({ 23: 1 }), 22, 6)).to.equal(4);
      // A 30-hour window holds 22 twice: the first.
      expect(await slotOf(hours({ 22: 1 }), flat, 20, 30)).to.equal(2);
    });

    it('slots a window by whole UTC hours, all inside it', () => {
      const start = new Date('2026-12-07T13:23:00.000Z');
      const slots = bestTimeSlots(start, 24);
      expect(slots).to.have.length(24);
      expect(slots[0]).to.deep.equal({ slot: 0, at: start, hour: 13 });
      expect(slots[1].at.toISOString()).to.equal('2026-12-07T14:00:00.000Z');
      expect(slots[23]).to.deep.include({ hour: 12 });
      for (const s of slots) expect(s.at.getTime() - start.getTime()).to.be.within(0, 24 * 3600_000 - 1);
    });

    it("gives the lift with Newcombe's interval", () => {
      // 12 % against 10 % over 10,000 each: +2 points, the interval (1.11, 2.88) by method 10.
      const lift = rateLift(1200, 10000, 1000, 10000);
      expect(lift.difference).to.equal(2);
      expect(lift.relative).to.equal(20);
      expect(lift.low).to.be.closeTo(1.12, 0.02);
      expect(lift.high).to.be.closeTo(2.88, 0.02);
      expect(rateLift(0, 0, 5, 100)).to.deep.equal({ difference: -5, low: null, high: null, relative: -100 });
    });
  });

  describe('a best-time dispatch', () => {
    it('sends the holdout at once and each slot when due, every subscriber once in its frozen slot', async () => {
      const { siteId } = await newSite(t);
      await t.operators.seedSubscribers({ siteId, count: 400, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const audience = await subscribers(siteId);
      const start = new Date();
      const slots = bestTimeSlots(start, 6);
      // Each subscriber engaged in the hour of slot (id % 6), strongly.
      await t.pool.query(
        `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
         SELECT s.id, ARRAY(SELECT CASE WHEN h = ($2::int[])[1 + s.id % 6] THEN 20 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now()
           FROM delivery.subscribers s WHERE s.site_id = $1`,
        [siteId, slots.map((s) => s.hour)],
      );
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 6, holdoutPercent: 20 } };
      const { dispatch, pacer, sent } = expansionRecorder(t);
      await dispatch(job, noop);
      const { rows: frozen } = await t.pool.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1`, [job.campaignId]);
      expect(frozen).to.have.length(400);
      const holdout = frozen.filter((r) => r.slot === HOLDOUT_SLOT).map((r) => r.id as string);
      expect(Math.abs(holdout.length - 80)).to.be.below(4 * Math.sqrt(400 * 0.2 * 0.8));
      for (const r of frozen) if (r.slot !== HOLDOUT_SLOT) expect(r.slot, r.id).to.equal(Number(r.id) % 6);
      // The holdout and slot 0 are due now; the others not.
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      const slot0 = frozen.filter((r) => r.slot === 0).map((r) => r.id as string);
      expect([...sent()].sort()).to.deep.equal([...holdout, ...slot0].sort());
      // The weights move during the window: the frozen slots still hold.
      await t.pool.query(`UPDATE delivery.subscriber_hours SET weights = array_fill(0::real, ARRAY[24]) WHERE subscriber_id = ANY($1::bigint[])`, [audience]);
      const { rows: stages } = await t.pool.query(`SELECT stage_no, best_time_slot FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      expect(stages.map((s) => s.best_time_slot)).to.deep.equal([HOLDOUT_SLOT, 0, 1, 2, 3, 4, 5]);
      for (const stage of stages.filter((s) => s.best_time_slot > 0)) {
        await t.pool.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2`, [job.campaignId, stage.stage_no]);
        await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [job.campaignId]);
        const before = sent().length;
        for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
        const expected = frozen.filter((r) => r.slot === stage.best_time_slot).map((r) => r.id as string);
        expect([...sent().slice(before)].sort(), `slot ${stage.best_time_slot}`).to.deep.equal(expected.sort());
      }
      expect(sent()).to.have.length(400);
      expect(new Set(sent()).size).to.equal(400);
      // A repeated dispatch plans and sends nothing more.
      const repeated = expansionRecorder(t);
      await repeated.dispatch(job, noop);
      await repeated.pacer.advanceDue();
      expect(repeated.chunks).to.deep.equal([]);
      // Results by slot: planned, and what was sent and came back.
      await t.pool.query(
        `INSERT INTO ${await logTableOf(t.pool, job.campaignId)} (campaign_id, subscriber_id, state, claimed_by) SELECT $1, unnest($2::bigint[]), 'sent', gen_random_uuid()`,
        [job.campaignId, audience],
      );
      await t.pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind) SELECT $1, unnest($2::bigint[]), 'impression'`, [job.campaignId, slot0]);
      const results = await bestTimeResults(t.pool, job.campaignId);
      expect(results.map((r) => r.slot)).to.deep.equal([HOLDOUT_SLOT, 0, 1, 2, 3, 4, 5]);
      expect(results.reduce((n, r) => n + r.planned, 0)).to.equal(400);
      expect(results.find((r) => r.slot === 0)).to.include({ planned: slot0.length, sent: slot0.length, impressions: slot0.length, clicks: 0 });
      expect(results.find((r) => r.slot === HOLDOUT_SLOT)).to.include({ planned: holdout.length, sent: holdout.length, impressions: 0 });
      // When each slot went: its stage's moment (brought forward here).
      const { rows: moments } = await t.pool.query(`SELECT best_time_slot AS slot, at FROM delivery.run_stages WHERE campaign_id = $1`, [job.campaignId]);
      for (const m of moments) expect(results.find((r) => r.slot === m.slot)!.sendAt).to.equal((m.at as Date).toISOString());
      // Published with the counters once refreshed at the run's version, in the stats event.
      await t.pool.query(`UPDATE delivery.campaign_runs SET stats_version = stats_version + 1 WHERE campaign_id = $1`, [job.campaignId]);
      expect((await changedCounters(t.pool, 1000)).map((c) => c.campaignId)).to.not.include(job.campaignId);
      expect(await refreshBestTimeResults(t.pool, 10)).to.be.at.least(1);
      const counters = (await changedCounters(t.pool, 1000)).find((c) => c.campaignId === job.campaignId)!;
      expect(statsMessage(counters).bestTime).to.deep.equal({ slots: results });
    });

    it('sends a subscriber who joined after the plan with the last slot, and no one without a holdout share', async () => {
      const { siteId } = await newSite(t);
      await t.operators.seedSubscribers({ siteId, count: 20, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 3, holdoutPercent: 0 } };
      const { dispatch, pacer, sent } = expansionRecorder(t);
      await dispatch(job, noop);
      await t.operators.seedSubscribers({ siteId, count: 5, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const { rows: stages } = await t.pool.query(`SELECT best_time_slot FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      expect(stages.map((s) => s.best_time_slot)).to.deep.equal([0, 1, 2]);
      // No history anywhere: every planned subscriber in the first slot.
      for (let pass = 0; pass < 3; pass++) await pacer.advanceDue();
      expect(sent()).to.have.length(20);
      await t.pool.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1`, [job.campaignId]);
      await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [job.campaignId]);
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      expect(sent()).to.have.length(25);
      expect(new Set(sent()).size).to.equal(25);
    });

    it("is not held by the site's quiet hours for now: its slots are planned and sent as without them", async () => {
      const { siteId } = await newSite(t);
      await t.operators.setQuietHours(siteId, { from: '00:00', to: '23:59' });
      await t.operators.seedSubscribers({ siteId, count: 20, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 3, holdoutPercent: 0 } };
      const { dispatch, pacer, sent } = expansionRecorder(t);
      await dispatch(job, noop);
      const { rows: stages } = await t.pool.query(`SELECT best_time_slot, zones FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      expect(stages).to.deep.equal([0, 1, 2].map((slot) => ({ best_time_slot: slot, zones: null })));
      for (let pass = 0; pass < 3; pass++) await pacer.advanceDue();
      expect(sent()).to.have.length(20);
    });
  });
});
