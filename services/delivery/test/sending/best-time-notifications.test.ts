// A notification sent at each target's best time, or held by the site's quiet hours when it asks
// (docs/api-decisions.md, "Notifications", "Send time"), against a real Postgres: the dispatch
// resolves the targets, freezes each one's slot by the campaigns' model (delivery.best_time_slot,
// the same plan and batches: best-time-store.ts, stages.ts), and the pacer sends each slot's
// targets when it is due, on the notifications' chunk topic — every target once, no one it does
// not name, no holdout, a person's subscriptions each at its own hour, a target whose template
// failed never; quiet hours mask the slots (or hold a notification sent at once) in each
// target's zone only when the job says so.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { TOPICS, type DispatchMessage } from '@webpush/contracts/messages.js';
import { bestTimeSlots } from '@webpush/contracts/best-time.js';
import { quietHoursRelease } from '@webpush/contracts/local-time.js';
import { bestTimePlan } from '../../src/sending/best-time-store.js';
import { findRun } from '../../src/sending/run-store.js';
import { targetResults } from '../../src/sending/notification-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const noop = async () => {};
const two = (n: number) => String(((n % 24) + 24) % 24).padStart(2, '0');

describe('delivery: notifications at the best time, and in quiet hours when asked', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('best-time-notifications');
  });
  after(async () => {
    await t?.stop();
  });

  /** `count` subscriptions of a new site: their row ids and public ids, in id order. */
  async function siteWith(count: number, zoneOf: (i: number) => string | null = () => null) {
    const { siteId } = await newSite(t);
    const { rows } = await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics, time_zone)
       SELECT $1::uuid, 'https://push.example/bt-' || $1::text || '-' || g, 'key', 'auth', 'US', ARRAY['all'], ($3::text[])[g]
         FROM generate_series(1, $2) g
       RETURNING id::text AS id, public_id::text AS public_id`,
      [siteId, count, Array.from({ length: count }, (_, i) => zoneOf(i + 1))],
    );
    const subs = rows.sort((a, b) => Number(a.id) - Number(b.id)).map((r) => ({ id: r.id as string, publicId: r.public_id as string }));
    return { siteId, subs };
  }
  const notification = (siteId: string, subscriptionIds: string[], extra: Partial<DispatchMessage> = {}, quietHours = false): DispatchMessage => ({
    ...dispatchMessage(siteId, []),
    notification: { subscriptionIds, quietHours },
    ...extra,
  });
  /** Time control: each stage brought to now in turn (a test cannot wait for hours); who each sent, at its planned moment. */
  async function sendEveryStage(campaignId: string, recorder: ReturnType<typeof expansionRecorder>) {
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
  }

  it("sends each named subscription once, in the slot of its best hour, on the notifications' topic, and no one else", async () => {
    const { siteId, subs } = await siteWith(40);
    const start = new Date();
    const slots = bestTimeSlots(start, 4);
    // Each subscriber engaged strongly in the hour of slot (id % 4).
    await t.pool.query(
      `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
       SELECT s.id, ARRAY(SELECT CASE WHEN h = ($2::int[])[1 + s.id % 4] THEN 20 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now()
         FROM delivery.subscribers s WHERE s.site_id = $1`,
      [siteId, slots.map((s) => s.hour)],
    );
    const named = subs.slice(5, 35);
    const job = notification(siteId, [...named.map((s) => s.publicId), randomUUID()], { bestTime: { withinHours: 4, holdoutPercent: 0 } });
    const recorder = expansionRecorder(t, { bestTimeBatch: 7 });
    await recorder.dispatch(job, noop);
    expect((await bestTimePlan(t.pool, job.campaignId))!.done).to.equal(true);
    const { rows: frozen } = await t.pool.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1 ORDER BY subscriber_id`, [job.campaignId]);
    // The named subscriptions only (the unknown id has none), each in its best slot; no holdout.
    expect(frozen.map((r) => r.id)).to.deep.equal(named.map((s) => s.id));
    for (const r of frozen) expect(r.slot, r.id).to.equal(Number(r.id) % 4);
    const { rows: stages } = await t.pool.query(`SELECT best_time_slot FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
    expect(stages.map((s) => s.best_time_slot)).to.deep.equal([0, 1, 2, 3]);

    // Slot 0 is due now, the others not: the run is still being sent, the later slots' targets pending.
    for (let pass = 0; pass < 5; pass++) await recorder.pacer.advanceDue();
    const slot0 = frozen.filter((r) => r.slot === 0).map((r) => r.id as string);
    expect([...recorder.sent()].sort()).to.deep.equal([...slot0].sort());
    expect((await findRun(t.pool, job.campaignId))!.state).to.equal('expanding');
    const early = await targetResults(t.pool, job.campaignId, 0, 100);
    expect(early.counts).to.deep.include({ pending: 30, noSubscription: 1 });

    const sentAt = await sendEveryStage(job.campaignId, recorder);
    for (const s of named.filter((n) => !slot0.includes(n.id))) expect(sentAt.get(s.id), s.id).to.have.length(1);
    expect(recorder.sent()).to.have.length(30);
    expect(new Set(recorder.sent())).to.deep.equal(new Set(named.map((s) => s.id)));
    expect(new Set(recorder.topics)).to.deep.equal(new Set([TOPICS.notificationChunks]));
    // Every stage expanded: the run leaves the pacer, its chunks counted.
    const run = (await findRun(t.pool, job.campaignId))!;
    expect(run.chunksTotal).to.equal(recorder.chunks.length);

    // A repeated job plans, freezes and sends nothing more.
    const repeated = expansionRecorder(t);
    await repeated.dispatch(job, noop);
    await repeated.pacer.advanceDue();
    expect(repeated.chunks).to.deep.equal([]);
  });

  it("sends each of a person's subscriptions at its own best hour, and none the template could not be rendered for", async () => {
    const { siteId, subs } = await siteWith(3);
    const person = async (externalId: string, ids: string[]) => {
      const p = await t.pool.query(`INSERT INTO delivery.people (site_id, external_id) VALUES ($1, $2) RETURNING id`, [siteId, externalId]);
      for (const id of ids) await t.pool.query(`INSERT INTO delivery.person_subscriptions (subscriber_id, person_id) VALUES ($1, $2)`, [id, p.rows[0].id]);
    };
    await person('ana', [subs[0].id, subs[1].id]);
    await person('ben', [subs[2].id]);
    const slots = bestTimeSlots(new Date(), 3);
    // Ana's phone engages in slot 1's hour, her laptop in slot 2's.
    for (const [i, slot] of [[0, 1], [1, 2], [2, 1]] as const) {
      await t.pool.query(
        `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
         VALUES ($1, ARRAY(SELECT CASE WHEN h = $2 THEN 20 ELSE 0 END::real FROM generate_series(0, 23) h ORDER BY h), now())`,
        [subs[i].id, slots[slot].hour],
      );
    }
    // Ben's rendering fails (no value for a variable): his target is final before the plan, never frozen nor sent.
    const job: DispatchMessage = {
      ...dispatchMessage(siteId, []),
      notification: { externalIds: ['ana', 'ben'], template: { content: { title: 'Hi {{ name }}', body: 'Your picks', link: 'https://shop.example/' }, variables: {} }, quietHours: false },
      bestTime: { withinHours: 3, holdoutPercent: 0 },
    };
    await t.pool.query(`INSERT INTO delivery.person_tags (person_id, key, kind, string_value) SELECT id, 'name', 'string', 'Ana' FROM delivery.people WHERE site_id = $1 AND external_id = 'ana'`, [siteId]);
    const recorder = expansionRecorder(t);
    await recorder.dispatch(job, noop);
    const { rows: frozen } = await t.pool.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1 ORDER BY subscriber_id`, [job.campaignId]);
    expect(frozen).to.deep.equal([
      { id: subs[0].id, slot: 1 },
      { id: subs[1].id, slot: 2 },
    ]);
    const sentAt = await sendEveryStage(job.campaignId, recorder);
    expect([...sentAt.keys()].sort()).to.deep.equal([subs[0].id, subs[1].id].sort());
    const { results } = await targetResults(t.pool, job.campaignId, 0, 10);
    expect(results.map((r) => [r.externalId, r.outcome])).to.deep.equal([
      ['ana', 'pending'],
      ['ben', 'failed'],
    ]);
  });

  describe("on a site with quiet hours now in its own zone (UTC), none in São Paulo's", () => {
    const saoPaulo = 'Etc/GMT+3'; // UTC-3
    let siteId: string;
    let subs: { id: string; publicId: string }[];
    let quiet: { from: string; to: string };
    /** The even rows are in São Paulo, the others report no zone (the site's). */
    const inSaoPaulo = (i: number) => i % 2 === 0;

    before(async () => {
      ({ siteId, subs } = await siteWith(20, (i) => (inSaoPaulo(i) ? saoPaulo : null)));
      const H = new Date().getUTCHours();
      // Quiet in UTC from the present hour for four hours: every slot of a 3-hour window; in São Paulo (UTC H+3 to H+7) none.
      quiet = { from: `${two(H)}:00`, to: `${two(H + 4)}:00` };
      await t.operators.setQuietHours(siteId, quiet);
      await t.operators.setTimeZone(siteId, 'Etc/UTC');
    });
    const zoneOf = (id: string) => (inSaoPaulo(subs.findIndex((s) => s.id === id) + 1) ? saoPaulo : 'Etc/UTC');

    it('masks the slots of a best-time notification that respects them: those with none left are sent when they end', async () => {
      const job = notification(siteId, subs.map((s) => s.publicId), { bestTime: { withinHours: 3, holdoutPercent: 0 } }, true);
      const recorder = expansionRecorder(t);
      await recorder.dispatch(job, noop);
      const start = (await bestTimePlan(t.pool, job.campaignId))!.windowStart;
      const release = quietHoursRelease(quiet, 'Etc/UTC', start);
      const { rows: stages } = await t.pool.query(`SELECT best_time_slot AS slot, at FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      expect(stages.map((s) => s.slot)).to.deep.equal([0, 1, 2, 3]);
      expect((stages[3].at as Date).toISOString()).to.equal(release.toISOString());
      const sentAt = await sendEveryStage(job.campaignId, recorder);
      expect(sentAt.size).to.equal(20);
      // No history: São Paulo's at once (its first slot), the site zone's when its quiet hours end.
      for (const s of subs) expect(sentAt.get(s.id), s.id).to.deep.equal([zoneOf(s.id) === saoPaulo ? start : release]);
    });

    it('holds a notification sent at once that respects them, zone by zone, and sends one that does not at once', async () => {
      const respecting = notification(siteId, subs.map((s) => s.publicId), {}, true);
      const recorder = expansionRecorder(t);
      const before = Date.now();
      await recorder.dispatch(respecting, noop);
      const sentAt = await sendEveryStage(respecting.campaignId, recorder);
      expect(sentAt.size).to.equal(20);
      for (const s of subs) {
        const [at] = sentAt.get(s.id)!;
        expect(sentAt.get(s.id), s.id).to.have.length(1);
        if (zoneOf(s.id) === saoPaulo) expect(at.getTime(), s.id).to.be.within(before, Date.now());
        else expect(at.toISOString(), s.id).to.equal(quietHoursRelease(quiet, 'Etc/UTC', new Date(before)).toISOString());
      }
      expect(new Set(recorder.topics)).to.deep.equal(new Set([TOPICS.notificationChunks]));

      // Not asked: no stage, every target in the dispatch's own chunks, as before.
      const plain = notification(siteId, subs.map((s) => s.publicId));
      const direct = expansionRecorder(t);
      await direct.dispatch(plain, noop);
      expect((await t.pool.query(`SELECT 1 FROM delivery.run_stages WHERE campaign_id = $1`, [plain.campaignId])).rowCount).to.equal(0);
      expect(new Set(direct.sent())).to.deep.equal(new Set(subs.map((s) => s.id)));
    });

    it("does not mask a best-time notification's slots when it does not respect them", async () => {
      const job = notification(siteId, subs.map((s) => s.publicId), { bestTime: { withinHours: 3, holdoutPercent: 0 } });
      const recorder = expansionRecorder(t);
      await recorder.dispatch(job, noop);
      const { rows: stages } = await t.pool.query(`SELECT best_time_slot AS slot FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      expect(stages.map((s) => s.slot)).to.deep.equal([0, 1, 2]);
      // No history: everyone in the first slot, now.
      for (let pass = 0; pass < 5; pass++) await recorder.pacer.advanceDue();
      expect(new Set(recorder.sent())).to.deep.equal(new Set(subs.map((s) => s.id)));
    });
  });
});
