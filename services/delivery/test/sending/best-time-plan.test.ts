// The planned distribution of a best-time campaign before it is sent (sending/best-time-plan.ts)
// against a real Postgres: every subscriber counted on a small site, by the rule the send freezes
// with (the same slots as a dispatch's); a sample on a larger one, its shares close to the whole
// site's and said so; the holdout's share; the parts adding up to the audience; the sample's size
// chosen by the site's.
import { expect } from 'chai';
import { bestTimeSlots, HOLDOUT_SLOT } from '@webpush/contracts/best-time.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { createAudience } from '../../src/audience/index.js';
import { apportion, createBestTimePlanner, PLAN_SAMPLE_ROWS, planSampleFor } from '../../src/sending/best-time-plan.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const noop = async () => {};

describe('delivery: a best-time campaign planned before it is sent', function () {
  this.timeout(180_000);
  let t: TestDelivery;
  let plan: ReturnType<typeof createBestTimePlanner>;

  before(async () => {
    t = await startTestDelivery('best-time-plan');
    plan = createBestTimePlanner(t.pool, createAudience(t.pool));
  });
  after(async () => {
    await t?.stop();
  });

  /** Each subscriber of the site engaged strongly in the hour of slot (id % n) of a window from `start`. */
  async function engageBySlot(siteId: string, start: Date, n: number) {
    const slots = bestTimeSlots(start, n);
    await t.pool.query(
      `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
       SELECT s.id, ARRAY(SELECT CASE WHEN h = ($2::int[])[1 + s.id % $3] THEN 20 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now()
         FROM delivery.subscribers s WHERE s.site_id = $1`,
      [siteId, slots.map((s) => s.hour), n],
    );
  }

  it('counts every subscriber of a small site, in the slots a dispatch freezes them in', async () => {
    const { siteId } = await newSite(t);
    await t.operators.seedSubscribers({ siteId, count: 300, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    const start = new Date();
    await engageBySlot(siteId, start, 6);
    const planned = await plan({ siteId, topics: ['all'], countries: [], segment: null, withinHours: 6, holdoutPercent: 0, start });
    expect(planned).to.include({ users: 300, holdoutUsers: 0, sampled: false, sampleSize: 300 });
    expect(planned.slots.map((s) => s.slot)).to.deep.equal([0, 1, 2, 3, 4, 5]);
    expect(planned.slots.map((s) => s.hour)).to.deep.equal(bestTimeSlots(start, 6).map((s) => s.hour));
    expect(planned.slots[0].sendAt.toISOString()).to.equal(start.toISOString());

    // The send, planned at the same moment, freezes the same numbers per slot.
    const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 6, holdoutPercent: 0 } };
    const { dispatch } = expansionRecorder(t);
    await dispatch(job, noop);
    const { rows } = await t.pool.query(`SELECT slot, count(*)::int AS n FROM delivery.best_time_slots WHERE campaign_id = $1 GROUP BY slot`, [job.campaignId]);
    const frozen = new Map(rows.map((r) => [r.slot as number, r.n as number]));
    expect(frozen.has(HOLDOUT_SLOT)).to.equal(false);
    expect(planned.slots.map((s) => s.users)).to.deep.equal(planned.slots.map((s) => frozen.get(s.slot) ?? 0));
    expect(planned.slots.every((s) => s.users === 50)).to.equal(true);
  });

  it("plans no one in the site's quiet hours: the same slots as a dispatch then freezes", async () => {
    const { siteId } = await newSite(t);
    await t.operators.seedSubscribers({ siteId, count: 120, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    const start = new Date();
    await engageBySlot(siteId, start, 6);
    const slots = bestTimeSlots(start, 6);
    // Quiet from the top of slot 2 to the top of slot 4, in the site's zone (UTC when unset).
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    await t.operators.setQuietHours(siteId, { from: hhmm(slots[2].at), to: hhmm(slots[4].at) });
    const planned = await plan({ siteId, topics: ['all'], countries: [], segment: null, withinHours: 6, holdoutPercent: 0, start });
    expect(planned.slots.filter((s) => s.slot === 2 || s.slot === 3).map((s) => s.users)).to.deep.equal([0, 0]);
    expect(planned.slots.reduce((n, s) => n + s.users, 0)).to.equal(120);

    const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), bestTime: { withinHours: 6, holdoutPercent: 0 } };
    const { dispatch } = expansionRecorder(t);
    await dispatch(job, noop);
    const { rows } = await t.pool.query(`SELECT slot, count(*)::int AS n FROM delivery.best_time_slots WHERE campaign_id = $1 GROUP BY slot`, [job.campaignId]);
    const frozen = new Map(rows.map((r) => [r.slot as number, r.n as number]));
    expect(planned.slots.map((s) => s.users)).to.deep.equal(planned.slots.map((s) => frozen.get(s.slot) ?? 0));
  });

  it("takes the holdout's share out first; the slots add up to the rest; an empty audience plans nobody", async () => {
    const { siteId } = await newSite(t);
    await t.operators.seedSubscribers({ siteId, count: 301, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    const start = new Date('2026-12-08T10:20:00Z');
    await engageBySlot(siteId, start, 3);
    const planned = await plan({ siteId, topics: [], countries: ['BR'], segment: null, withinHours: 24, holdoutPercent: 10, start });
    expect(planned.users).to.equal(301);
    expect(planned.holdoutUsers).to.equal(30);
    expect(planned.slots).to.have.length(24);
    expect(planned.slots.reduce((n, s) => n + s.users, 0)).to.equal(271);
    // Only the first three slots hold anyone (the hours they engage in, each first in the window).
    expect(planned.slots.slice(3).every((s) => s.users === 0)).to.equal(true);
    expect(planned.slots[1].sendAt.toISOString()).to.equal('2026-12-08T11:00:00.000Z');

    const none = await plan({ siteId, topics: ['nobody'], countries: [], segment: null, withinHours: 2, holdoutPercent: 10, start });
    expect(none).to.deep.include({ users: 0, holdoutUsers: 0, sampled: false, sampleSize: 0 });
    expect(none.slots.map((s) => s.users)).to.deep.equal([0, 0]);
    const notASite = await plan({ siteId: 'nope', topics: ['all'], countries: [], segment: null, withinHours: 1, holdoutPercent: 0, start });
    expect(notASite.users).to.equal(0);
  });

  it('samples a larger site: shares within their bound of the whole, and says so', async () => {
    const { siteId } = await newSite(t);
    const count = PLAN_SAMPLE_ROWS * 3;
    await t.operators.seedSubscribers({ siteId, count, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    const start = new Date();
    await engageBySlot(siteId, start, 4);
    const planned = await plan({ siteId, topics: ['all'], countries: [], segment: null, withinHours: 4, holdoutPercent: 0, start });
    expect(planned.sampled).to.equal(true);
    expect(planned.users).to.equal(count);
    // About a third of the site (a hash's share), not all of it.
    expect(planned.sampleSize).to.be.within(PLAN_SAMPLE_ROWS * 0.8, PLAN_SAMPLE_ROWS * 1.2);
    expect(planned.slots.reduce((n, s) => n + s.users, 0)).to.equal(count);
    // Each slot truly holds a quarter: the sample's shares are within ±4 points (2,048 sampled: ±2.2 at 95 %).
    for (const s of planned.slots) expect(s.users / count).to.be.closeTo(0.25, 0.04);
  });

  it('chooses the sample by the site: all, a hash share, then slices of the fixed sample', () => {
    expect(planSampleFor(PLAN_SAMPLE_ROWS)).to.deep.equal({ kind: 'all' });
    expect(planSampleFor(PLAN_SAMPLE_ROWS * 2)).to.deep.equal({ kind: 'hash', below: 65_536 });
    expect(planSampleFor(PLAN_SAMPLE_ROWS * 128)).to.deep.equal({ kind: 'hash', below: 1024 });
    expect(planSampleFor(PLAN_SAMPLE_ROWS * 256)).to.deep.equal({ kind: 'slices', slices: 512 });
    expect(planSampleFor(10_000_000)).to.deep.equal({ kind: 'slices', slices: Math.ceil((1024 * 128 * PLAN_SAMPLE_ROWS) / 10_000_000) });
  });

  it('apportions a total by shares exactly, the largest remainders first', () => {
    expect(apportion(10, [1, 1, 1])).to.deep.equal([4, 3, 3]);
    expect(apportion(7, [0, 2, 1])).to.deep.equal([0, 5, 2]);
    expect(apportion(5, [0, 0])).to.deep.equal([0, 0]);
    expect(apportion(0, [3, 4])).to.deep.equal([0, 0]);
  });
});
