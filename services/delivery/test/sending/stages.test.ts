// Staged runs (sending/stages.ts) against a real Postgres, their chunks recorded as Kafka would
// carry them: the local-time rule against Postgres's own zone arithmetic; a local-time dispatch
// planned by zone group (the site default's group taking subscribers without a known zone), each
// group expanded only when due and exactly once; an A/B test's share expanded at once and split
// as the shared assignment says, its rest only after a winner — picked by the customer (the gRPC
// call, with its refusals) or chosen by the metric when the window ends.
import { expect } from 'chai';
import fc from 'fast-check';
import type * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { abBucket, testThreshold, variantOfBucket, type AbTest } from '@webpush/contracts/ab-test.js';
import { nextDate, planZoneGroups, utcOffsetMinutes, wallClockInstant, zoneSendAt } from '@webpush/contracts/local-time.js';
import { findRun } from '../../src/sending/run-store.js';
import { planStages } from '../../src/sending/stages.js';
import { decideEndedTests, startTestWindow } from '../../src/ab-tests/index.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const noop = async () => {};

const changesByZoneYear = new Map<string, { at: number; before: number; after: number }[]>();

/** The instants in `year` when `zone`'s offset changes (to the minute), with the offsets either side, from this runtime's zone data. */
function clockChanges(zone: string, year: number): { at: number; before: number; after: number }[] {
  const key = `${zone}:${year}`;
  let changes = changesByZoneYear.get(key);
  if (changes) return changes;
  changes = [];
  const offsetAt = (ms: number) => utcOffsetMinutes(zone, new Date(ms));
  const day = 24 * 3600_000;
  let t = Date.UTC(year, 0, 1);
  let o = offsetAt(t);
  for (; t < Date.UTC(year + 1, 0, 1); t += day) {
    const next = offsetAt(t + day);
    if (next === o) continue;
    // Bisect the day to the minute the offset changes.
    let lo = t;
    let hi = t + day;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetAt(mid) === o) lo = mid;
      else hi = mid;
    }
    changes.push({ at: hi, before: o, after: next });
    o = next;
  }
  changesByZoneYear.set(key, changes);
  return changes;
}

describe('delivery: staged runs (local time, A/B tests)', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('stages');
  });
  after(async () => {
    await t?.stop();
  });

  const setup = () => expansionRecorder(t);
  /** Time control: a stage's moment brought to now (the tests cannot wait for hours). */
  const bringForward = async (campaignId: string, stageNo: number) => {
    await t.pool.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2`, [campaignId, stageNo]);
    await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [campaignId]);
  };
  const ids = async (sql: string, params: unknown[]) => (await t.pool.query(sql, params)).rows.map((r) => r.id as string);

  describe('the local-time rule', () => {
    const zones = Intl.supportedValuesOf('timeZone');

    const postgresInstant = async (date: string, time: string, zone: string) =>
      ((await t.pool.query(`SELECT (($1::date + $2::time) AT TIME ZONE $3) AS at`, [date, time, zone])).rows[0].at as Date).toISOString();
    const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

    it('puts a wall-clock time in a zone at the instant Postgres does (property: any zone, date and time)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...zones),
          // Past years: both zone databases (Node's ICU, the one Postgres was built with) hold the
          // same rules for them; predicted rules for years ahead may differ between versions.
          fc.date({ min: new Date('2018-01-01T00:00:00Z'), max: new Date('2025-06-30T00:00:00Z'), noInvalidDate: true }),
          fc.integer({ min: 0, max: 24 * 60 - 1 }),
          async (zone, day, minutes) => {
            const date = day.toISOString().slice(0, 10);
            const time = hhmm(minutes);
            expect(wallClockInstant(date, time, zone).toISOString(), `${zone} ${date} ${time}`).to.equal(await postgresInstant(date, time, zone));
          },
        ),
        { numRuns: 500 },
      );
    });

    it('reads the wall times around every kind of clock change as Postgres does (property aimed at the changes: skipped, repeated, at any hour)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...zones),
          fc.integer({ min: 2018, max: 2024 }),
          fc.nat(),
          fc.integer({ min: -150, max: 150 }),
          fc.boolean(),
          async (zone, year, pick, minutesFromChange, readAfter) => {
            const changes = clockChanges(zone, year);
            fc.pre(changes.length > 0);
            const change = changes[pick % changes.length];
            // A wall time near the change, as the clock showed it before or shows it after.
            const offset = readAfter ? change.after : change.before;
            const wall = new Date(change.at + (offset + minutesFromChange) * 60_000);
            const date = wall.toISOString().slice(0, 10);
            const time = wall.toISOString().slice(11, 16);
            expect(wallClockInstant(date, time, zone).toISOString(), `${zone} ${date} ${time}`).to.equal(await postgresInstant(date, time, zone));
          },
        ),
        { numRuns: 400 },
      );
    });

    it('reads a change at midnight as Postgres does (Egypt, 2023-10-26: 24:00 back to 23:00)', async () => {
      for (const [date, time] of [['2023-10-26', '23:00'], ['2023-10-26', '23:30'], ['2023-10-26', '22:59'], ['2023-10-27', '00:00'], ['2023-04-28', '00:30']]) {
        expect(wallClockInstant(date, time, 'Africa/Cairo').toISOString(), `${date} ${time}`).to.equal(await postgresInstant(date, time, 'Africa/Cairo'));
      }
      expect(wallClockInstant('2023-10-26', '23:00', 'Africa/Cairo').toISOString()).to.equal('2023-10-26T21:00:00.000Z');
    });

    it('sends a zone whose moment has passed the next time its clock shows it, and groups zones by moment', () => {
      const createdAt = new Date('2026-11-27T12:00:00Z');
      const local = { date: '2026-11-27', time: '09:00' };
      // Kiritimati (UTC+14): 09:00 on the 27th was 2026-11-26T19:00Z → the 28th.
      expect(zoneSendAt(local, 'Pacific/Kiritimati', createdAt).toISOString()).to.equal('2026-11-27T19:00:00.000Z');
      expect(zoneSendAt(local, 'Europe/Lisbon', createdAt).toISOString()).to.equal('2026-11-28T09:00:00.000Z');
      expect(zoneSendAt(local, 'Pacific/Pago_Pago', createdAt).toISOString()).to.equal('2026-11-27T20:00:00.000Z');
      expect(zoneSendAt(local, 'America/Sao_Paulo', createdAt).toISOString()).to.equal('2026-11-27T12:00:00.000Z');
      expect(nextDate('2026-12-31')).to.equal('2027-01-01');
      const plan = planZoneGroups(
        local,
        [
          { zone: 'Europe/Lisbon', users: 2 },
          { zone: 'Europe/London', users: 1 },
          { zone: 'Pacific/Kiritimati', users: 3 },
          { zone: 'Pacific/Pago_Pago', users: 4 },
          { zone: 'Pacific/Honolulu', users: 5 },
        ],
        createdAt,
      );
      expect(plan).to.deep.equal([
        // Kiritimati's next day and Honolulu's same day are the same instant: two groups, each saying which.
        { sendAt: '2026-11-27T19:00:00.000Z', zones: ['Pacific/Honolulu'], users: 5, nextDay: false },
        { sendAt: '2026-11-27T19:00:00.000Z', zones: ['Pacific/Kiritimati'], users: 3, nextDay: true },
        { sendAt: '2026-11-27T20:00:00.000Z', zones: ['Pacific/Pago_Pago'], users: 4, nextDay: false },
        { sendAt: '2026-11-28T09:00:00.000Z', zones: ['Europe/Lisbon', 'Europe/London'], users: 3, nextDay: true },
      ]);
    });

    it('plans the site default zone group with every subscriber whose zone is in no other group', () => {
      const job: DispatchMessage = { ...dispatchMessage(randomUUID(), ['all']), localTime: { date: '2026-11-27', time: '09:00', createdAt: '2026-11-27T00:00:00.000Z' } };
      const stages = planStages(
        job,
        [
          { zone: 'Asia/Tokyo', users: 1 },
          { zone: null, users: 2 },
          { zone: 'Not/AZone', users: 3 },
          { zone: 'America/Sao_Paulo', users: 4 },
        ],
        'America/Sao_Paulo',
        new Date(),
      );
      expect(stages!.map((s) => ({ at: s.at.toISOString(), zones: s.zones, otherZones: s.otherZones, abGroup: s.abGroup }))).to.deep.equal([
        { at: '2026-11-27T00:00:00.000Z', zones: ['Asia/Tokyo'], otherZones: false, abGroup: null },
        { at: '2026-11-27T12:00:00.000Z', zones: ['Asia/Tokyo'], otherZones: true, abGroup: null },
      ]);
    });
  });

  describe('a local-time dispatch', () => {
    it('sends each zone group when due, each subscriber once, the default group taking the zoneless and unknown', async () => {
      const { siteId } = await newSite(t);
      await t.operators.setTimeZone(siteId, 'America/Sao_Paulo');
      await t.operators.seedSubscribers({ siteId, count: 60, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Tokyo', 'Europe/Lisbon', 'America/Sao_Paulo', 'Not/AZone', null];
      await t.pool.query(`UPDATE delivery.subscribers SET time_zone = ($2::text[])[1 + id % 7] WHERE site_id = $1`, [siteId, zones]);
      // The wall-clock time an hour from now in Tokyo: Tokyo's group is due in an hour, the others at their own moments.
      const now = new Date();
      const tokyo = new Date(now.getTime() + 9 * 3600_000 + 3600_000);
      const local = { date: tokyo.toISOString().slice(0, 10), time: tokyo.toISOString().slice(11, 16), createdAt: now.toISOString() };
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), localTime: local };
      const { dispatch, pacer, chunks, sent } = setup();
      await dispatch(job, noop);
      const { rows: stages } = await t.pool.query(
        `SELECT stage_no, at, zones, other_zones FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`,
        [job.campaignId],
      );
      expect(stages.map((s) => (s.at as Date).getTime())).to.deep.equal([...stages.map((s) => (s.at as Date).getTime())].sort((a, b) => a - b));
      for (const s of stages) expect((s.at as Date).getTime()).to.be.at.least(now.getTime() - 1000);
      expect(stages.filter((s) => s.other_zones)).to.have.length(1);
      // Nothing is due yet.
      expect(await pacer.advanceDue()).to.equal(0);
      expect(chunks).to.deep.equal([]);
      for (const stage of stages) {
        await bringForward(job.campaignId, stage.stage_no);
        const before = sent().length;
        for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
        const expected = stage.other_zones
          ? await ids(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE site_id = $1 AND (time_zone IS NULL OR time_zone <> ALL($2::text[])) ORDER BY s.id`, [siteId, stage.zones])
          : await ids(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE site_id = $1 AND time_zone = ANY($2::text[]) ORDER BY s.id`, [siteId, stage.zones]);
        expect(sent().slice(before), `stage ${stage.stage_no} (${stage.zones})`).to.deep.equal(expected);
      }
      const all = sent();
      expect(new Set(all).size).to.equal(60);
      expect(all).to.have.length(60);
      const run = (await findRun(t.pool, job.campaignId))!;
      expect(run.state).to.be.oneOf(['sending', 'completed']);
      expect(run.chunksTotal).to.equal(chunks.length);
      const repeated = setup();
      await repeated.dispatch(job, noop);
      await repeated.pacer.advanceDue();
      expect(repeated.chunks).to.deep.equal([]);
    });
  });

  describe('an A/B test', () => {
    const ab: AbTest = { variants: [{}, { title: 'B title' }, { title: 'C title' }], testPercent: 30, winnerMetric: 'ctr', windowMinutes: 60 };
    let siteId: string;
    let audience: string[];

    before(async () => {
      siteId = (await newSite(t)).siteId;
      await t.operators.seedSubscribers({ siteId, count: 2400, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      audience = await ids(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE site_id = $1 ORDER BY s.id`, [siteId]);
    });

    /** The campaign service's call; resolves to the winner, or to the refusal's details. */
    const pick = (campaignId: string, variant: number, site = siteId) =>
      new Promise<{ variant: number; decidedAt: string; by: string } | string>((resolve) =>
        t.runs.PickWinner({ siteId: site, campaignId, variant }, (err: grpc.ServiceError | null, res?: any) => resolve(err ? err.details : res)),
      );

    it('expands the test share at once, split as the shared assignment says and evenly, the rest only after the picked winner', async () => {
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), abTest: ab };
      const { dispatch, pacer, sent } = setup();
      expect(await pick(job.campaignId, 1)).to.equal('The A/B test has not started');
      await dispatch(job, noop);
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      const test = audience.filter((id) => abBucket(job.campaignId, id) < testThreshold(30));
      expect(sent()).to.deep.equal(test);
      // Binomial bounds, 4σ: the share and each variant's part of it.
      const n = audience.length;
      expect(Math.abs(test.length - n * 0.3)).to.be.below(4 * Math.sqrt(n * 0.3 * 0.7));
      for (let v = 0; v < 3; v++) {
        const k = test.filter((id) => variantOfBucket(abBucket(job.campaignId, id), ab) === v).length;
        expect(Math.abs(k - test.length / 3), `variant ${v}`).to.be.below(4 * Math.sqrt((test.length * 2) / 9));
      }
      // Postgres assigns the same buckets as the shared code.
      const { rows } = await t.pool.query(`SELECT s.id::text AS id, delivery.ab_bucket($1, s.id) AS b FROM delivery.subscribers s WHERE site_id = $2`, [job.campaignId, siteId]);
      for (const r of rows) expect(r.b).to.equal(abBucket(job.campaignId, r.id));
      expect(await pick(job.campaignId, 1, randomUUID())).to.equal('The A/B test has not started');
      // Published, not pushed: the test has not started until its first push (the chunk worker's).
      expect(await pick(job.campaignId, 2)).to.equal('The A/B test has not started');
      await startTestWindow(t.pool, job.campaignId, ab.windowMinutes);
      const winner = await pick(job.campaignId, 2);
      expect(winner).to.include({ variant: 2, by: 'customer' });
      expect(await pick(job.campaignId, 1)).to.equal('The winner has already been chosen');
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      expect([...sent()].sort()).to.deep.equal([...audience].sort());
      expect(new Set(sent()).size).to.equal(audience.length);
    });

    it('chooses the winner by its metric when the window ends (a tie to the lower variant), then sends the rest', async () => {
      const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), abTest: { ...ab, winnerMetric: 'ctr' } };
      const { dispatch, pacer, sent } = setup();
      await dispatch(job, noop);
      await pacer.advanceDue();
      const test = sent();
      // Every test push sent and seen; variant 1's subscribers click most.
      await t.pool.query(
        `INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by) SELECT $1, unnest($2::bigint[]), 'sent', gen_random_uuid()`,
        [job.campaignId, test],
      );
      const variantOf = (id: string) => variantOfBucket(abBucket(job.campaignId, id), ab);
      const clicks = test.filter((id, i) => (variantOf(id) === 1 ? i % 2 === 0 : i % 5 === 0));
      await t.pool.query(
        `INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind)
         SELECT $1, id, kind FROM unnest($2::bigint[]) AS id, unnest(ARRAY['impression', 'click']) AS kind WHERE kind = 'impression' OR id = ANY($3::bigint[])`,
        [job.campaignId, test, clicks],
      );
      expect(await decideEndedTests(t.pool, 10)).to.deep.equal([]);
      await t.pool.query(`UPDATE delivery.campaign_runs SET ab_window_ends_at = now() WHERE campaign_id = $1`, [job.campaignId]);
      expect(await decideEndedTests(t.pool, 10)).to.deep.equal([job.campaignId]);
      const run = (await findRun(t.pool, job.campaignId))!;
      expect(run.abWinner).to.include({ variant: 1, by: 'metric' });
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      expect(sent()).to.have.length(audience.length);
    });
  });
});
