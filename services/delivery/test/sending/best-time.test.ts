// Best time per subscriber (migrations/20261207040000_best_time.sql, sending/best-time-store.ts,
// stages.ts) against a real Postgres: the hour weights kept from tracking reports (hour of the
// report, clicks weighing more, halving every 14 days), the best slot of a window (argmax, the
// site's prior for a subscriber without history, a window wrapping past midnight, ties to the
// earliest, only the slots outside quiet hours), and a best-time dispatch: the holdout at once,
// each slot only when due, every subscriber exactly once in its frozen slot, frozen in committed
// batches that a crashed dispatch resumes, results by slot, no send in the site's quiet hours in
// the subscriber's zone; the lift's interval.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { bestTimeSlots, HOLDOUT_SLOT, rateLift } from '@webpush/contracts/best-time.js';
import { inQuietHours, quietHoursRelease } from '@webpush/contracts/local-time.js';
import { withTransaction } from '@webpush/shared/db.js';
import { bestTimePlan, bestTimeResults, freezeBestTimeBatch } from '../../src/sending/best-time-store.js';
import { runFor } from '../../src/sending/run-store.js';
import { storeStagePlan } from '../../src/sending/stages.js';
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
  const slotOf = async (w: number[] | null, prior: number[], firstHour: number, slots: number, allowed = '1'.repeat(slots)) =>
    (await t.pool.query(`SELECT delivery.best_time_slot($1::real[], now(), $2::real[], $3, $4, now(), $5) AS k`, [w, prior, firstHour, slots, allowed])).rows[0].k as number | null;
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
      // Quiet hours mask slots: the best allowed one, ties to the earliest allowed; none allowed: null.
      expect(await slotOf(hours({ 1: 5, 2: 3 }), flat, 22, 6, '111011')).to.equal(4);
      expect(await slotOf(hours({ 1: 5 }), flat, 22, 6, '001011')).to.equal(2);
      expect(await slotOf(hours({ 1: 5 }), flat, 22, 6, '000000')).to.equal(null);
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

    /** Time control: each stage brought to now in turn (the tests cannot wait for hours); who each sent, at its planned moment. */
    const sendEveryStage = async (campaignId: string, recorder: ReturnType<typeof expansionRecorder>) => {
      const { rows: stages } = await t.pool.query(`SELECT stage_no, at FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY at, stage_no`, [campaignId]);
      const sentAt = new Map<string, Date[]>();
      for (const stage of stages) {
        await t.pool.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2`, [campaignId, stage.stage_no]);
        await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [campaignId]);
        const before = recorder.sent().length;
        for (let pass = 0; pass < 5; pass++) await recorder.pacer.advanceDue();
        for (const id of recorder.sent().slice(before)) sentAt.set(id, [...(sentAt.get(id) ?? []), stage.at as Date]);
      }
      return sentAt;
    };
    const two = (n: number) => String(((n % 24) + 24) % 24).padStart(2, '0');

    it("sends nobody in the site's quiet hours in their zone: each at its best allowed hour, all within the window", async () => {
      const { siteId } = await newSite(t);
      const tokyo = 'Etc/GMT-9'; // UTC+9
      const saoPaulo = 'Etc/GMT+3'; // UTC-3
      const site = 'Etc/GMT-5'; // UTC+5: the zone of subscribers without one
      const H = new Date().getUTCHours();
      // Six quiet hours from the present hour in Tokyo: there the window's start (the holdout) and
      // its next 5 slots are quiet; in São Paulo UTC hours H+12 to H+17, in the site zone H+4 to H+9.
      const quiet = { from: `${two(H + 9)}:00`, to: `${two(H + 15)}:00` };
      await t.operators.setQuietHours(siteId, quiet);
      await t.operators.setTimeZone(siteId, site);
      await t.operators.seedSubscribers({ siteId, count: 300, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      await t.pool.query(`UPDATE delivery.subscribers SET time_zone = ($2::text[])[1 + id % 3] WHERE site_id = $1`, [siteId, [tokyo, saoPaulo, null]]);
      // Each subscriber's peak is the hour of slot id % 24, a weaker second one that of slot (id·7 + 3) % 24.
      await t.pool.query(
        `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
         SELECT s.id, ARRAY(SELECT CASE WHEN h = ($2 + s.id % 24) % 24 THEN 20 WHEN h = ($2 + (s.id * 7 + 3) % 24) % 24 THEN 10 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now()
           FROM delivery.subscribers s WHERE s.site_id = $1`,
        [siteId, H],
      );
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 24, holdoutPercent: 20 } };
      const recorder = expansionRecorder(t, { bestTimeBatch: 37 });
      await recorder.dispatch(job, noop);
      const plan = (await bestTimePlan(t.pool, job.campaignId))!;
      expect(plan.done).to.equal(true);
      const start = plan.windowStart;
      const slots = bestTimeSlots(start, 24);
      const { rows: subs } = await t.pool.query(
        `SELECT s.id::text AS id, coalesce(s.time_zone, $2) AS zone, b.slot FROM delivery.subscribers s JOIN delivery.best_time_slots b ON b.subscriber_id = s.id AND b.campaign_id = $3 WHERE s.site_id = $1`,
        [siteId, site, job.campaignId],
      );
      expect(subs).to.have.length(300);
      const sentAt = await sendEveryStage(job.campaignId, recorder);
      expect(sentAt.size).to.equal(300);
      let moved = 0;
      for (const s of subs) {
        const at = sentAt.get(s.id)!;
        expect(at, s.id).to.have.length(1);
        // Within the window, and outside the quiet hours in the subscriber's zone.
        expect(at[0].getTime() - start.getTime(), s.id).to.be.within(0, 24 * 3600_000 - 1);
        expect(inQuietHours(quiet, s.zone, at[0]), `${s.id} in ${s.zone} at ${at[0].toISOString()}`).to.equal(false);
        if (s.slot === HOLDOUT_SLOT) {
          // The holdout: at once, or when the quiet hours end in its zone.
          expect(at[0].getTime(), s.id).to.equal(quietHoursRelease(quiet, s.zone, start).getTime());
          continue;
        }
        const peak = Number(s.id) % 24;
        const second = (Number(s.id) * 7 + 3) % 24;
        const allowed = (k: number) => !inQuietHours(quiet, s.zone, slots[k].at);
        // The best hour when allowed, else the second best when that is (the prior decides between the rest).
        if (allowed(peak)) expect(s.slot, s.id).to.equal(peak);
        else if (allowed(second)) {
          expect(s.slot, s.id).to.equal(second);
          moved++;
        }
        expect(allowed(s.slot), s.id).to.equal(true);
      }
      expect(moved).to.be.above(0);
    });

    it("sends the subscribers of a zone with no slot outside quiet hours when they end there, the others as planned", async () => {
      const { siteId } = await newSite(t);
      const saoPaulo = 'Etc/GMT+3'; // UTC-3
      const now = new Date();
      const H = now.getUTCHours();
      // Quiet in the site zone (UTC) from the present hour for four hours: every slot of a 3-hour
      // window is quiet there; in São Paulo (UTC H+3 to H+7) none is.
      const quiet = { from: `${two(H)}:00`, to: `${two(H + 4)}:00` };
      await t.operators.setQuietHours(siteId, quiet);
      await t.operators.setTimeZone(siteId, 'Etc/UTC');
      await t.operators.seedSubscribers({ siteId, count: 30, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      await t.pool.query(`UPDATE delivery.subscribers SET time_zone = CASE WHEN id % 2 = 0 THEN $2 END WHERE site_id = $1`, [siteId, saoPaulo]);
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 3, holdoutPercent: 0 } };
      const recorder = expansionRecorder(t);
      await recorder.dispatch(job, noop);
      const start = (await bestTimePlan(t.pool, job.campaignId))!.windowStart;
      const { rows: stages } = await t.pool.query(`SELECT best_time_slot AS slot, at, zones, other_zones FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      // The window's three slots, then the site zone's group (taking every zone of no other) when its quiet hours end.
      expect(stages.map((s) => s.slot)).to.deep.equal([0, 1, 2, 3]);
      expect(stages[3]).to.deep.include({ zones: [], other_zones: true });
      expect((stages[3].at as Date).toISOString()).to.equal(quietHoursRelease(quiet, 'Etc/UTC', start).toISOString());
      const sentAt = await sendEveryStage(job.campaignId, recorder);
      const { rows: subs } = await t.pool.query(`SELECT id::text AS id, time_zone FROM delivery.subscribers WHERE site_id = $1`, [siteId]);
      for (const s of subs) {
        const at = sentAt.get(s.id)!;
        expect(at, s.id).to.have.length(1);
        // No history: São Paulo's subscribers in the first slot, the others at the quiet hours' end.
        expect(at[0].getTime(), s.id).to.equal(s.time_zone ? start.getTime() : (stages[3].at as Date).getTime());
      }
    });

    it('freezes the slots in committed batches, and a dispatch that crashed mid-freeze resumes without planning anyone again', async () => {
      const { siteId } = await newSite(t);
      await t.operators.seedSubscribers({ siteId, count: 400, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const start = new Date();
      const slots = bestTimeSlots(start, 6);
      const peakAt = (shift: number) =>
        t.pool.query(
          `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
           SELECT s.id, ARRAY(SELECT CASE WHEN h = ($2::int[])[1 + (s.id + $3) % 6] THEN 20 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now()
             FROM delivery.subscribers s WHERE s.site_id = $1
           ON CONFLICT (subscriber_id) DO UPDATE SET weights = excluded.weights`,
          [siteId, slots.map((s) => s.hour), shift],
        );
      await peakAt(0);
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 6, holdoutPercent: 10 } };
      // A first delivery of the dispatch plans the run and freezes three batches of 50, then dies.
      await runFor(t.pool, job);
      await withTransaction(t.pool, (tx) => storeStagePlan(tx, job));
      let plan = (await bestTimePlan(t.pool, job.campaignId))!;
      for (let b = 0; b < 3; b++) plan = { ...plan, ...(await freezeBestTimeBatch(t.pool, job, job.bestTime!, plan, 50)) };
      const firstFrozen = (await t.pool.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1`, [job.campaignId])).rows;
      expect(firstFrozen).to.have.length(150);
      // Not handed to the pacer yet: no stage is due while the freeze is unfinished.
      const recorder = expansionRecorder(t, { bestTimeBatch: 50 });
      await recorder.pacer.advanceDue();
      expect(recorder.sent()).to.deep.equal([]);
      // The weights move before the dispatch is delivered again: the frozen keep their slots.
      await peakAt(1);
      let heartbeats = 0;
      await recorder.dispatch(job, async () => void heartbeats++);
      expect(heartbeats).to.equal(6); // 250 left: five batches of 50, then one that finds none
      const frozen = (await t.pool.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1`, [job.campaignId])).rows;
      expect(frozen).to.have.length(400);
      const slotOfId = new Map(frozen.map((r) => [r.id as string, r.slot as number]));
      for (const r of firstFrozen) expect(slotOfId.get(r.id), r.id).to.equal(r.slot);
      for (const r of frozen) if (r.slot !== HOLDOUT_SLOT) expect(r.slot, r.id).to.equal((Number(r.id) + (firstFrozen.some((f) => f.id === r.id) ? 0 : 1)) % 6);
      // Then sent as planned, each subscriber once; a repeated dispatch freezes and sends nothing more.
      const sentAt = await sendEveryStage(job.campaignId, recorder);
      expect(sentAt.size).to.equal(400);
      for (const at of sentAt.values()) expect(at).to.have.length(1);
      heartbeats = 0;
      await recorder.dispatch(job, async () => void heartbeats++);
      expect(heartbeats).to.equal(0);
      expect(recorder.sent()).to.have.length(400);
    });
  });
});
