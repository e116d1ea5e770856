// A site's quiet hours (docs/api-decisions.md "Quiet hours"): the rule (a window wrapping
// midnight, a day the clocks change, its bounds, the site zone for subscribers without one), the
// stages it plans, and a campaign sent at once against a real Postgres — the zones outside the
// window at once, the others only when their window's end is brought forward (as the local-time
// tests control time), each subscriber once; a site without quiet hours sends as before.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { DispatchMessage } from '@webpush/contracts/messages.js';
import { inQuietHours, planZoneGroups, quietHoursRelease, type QuietHours } from '@webpush/contracts/local-time.js';
import { planStages } from '../../src/sending/stages.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const noop = async () => {};
const night: QuietHours = { from: '21:00', to: '08:00' };
const iso = (d: Date) => d.toISOString();

describe('delivery: quiet hours', function () {
  this.timeout(120_000);

  describe('the rule', () => {
    it('holds a time inside a window that wraps midnight until its end, the next day when after from', () => {
      // Lisbon is UTC+0 in December.
      const at = (s: string) => quietHoursRelease(night, 'Europe/Lisbon', new Date(s));
      expect(iso(at('2026-12-07T22:30:00Z'))).to.equal('2026-12-08T08:00:00.000Z');
      expect(iso(at('2026-12-07T03:00:00Z'))).to.equal('2026-12-07T08:00:00.000Z');
      expect(iso(at('2026-12-07T12:00:00Z'))).to.equal('2026-12-07T12:00:00.000Z');
    });

    it('counts from as inside and to as outside, to the minute', () => {
      const zone = 'America/Sao_Paulo'; // UTC-3
      expect(inQuietHours(night, zone, new Date('2026-12-07T23:59:59Z'))).to.equal(false); // 20:59:59
      expect(inQuietHours(night, zone, new Date('2026-12-08T00:00:00Z'))).to.equal(true); // 21:00
      expect(inQuietHours(night, zone, new Date('2026-12-08T10:59:00Z'))).to.equal(true); // 07:59
      expect(inQuietHours(night, zone, new Date('2026-12-08T11:00:00Z'))).to.equal(false); // 08:00
      const lunch: QuietHours = { from: '12:00', to: '14:00' };
      expect(inQuietHours(lunch, zone, new Date('2026-12-08T15:00:00Z'))).to.equal(true); // 12:00
      expect(inQuietHours(lunch, zone, new Date('2026-12-08T17:00:00Z'))).to.equal(false); // 14:00
      expect(inQuietHours(lunch, zone, new Date('2026-12-08T03:00:00Z'))).to.equal(false); // 00:00
      expect(iso(quietHoursRelease(lunch, zone, new Date('2026-12-08T16:30:00Z')))).to.equal('2026-12-08T17:00:00.000Z');
    });

    it('ends a window on a day the clocks change at the wall-clock end, read as local time reads it', () => {
      // Lisbon's clocks go forward 2026-03-29 at 01:00 UTC (01:00 → 02:00): 08:00 that day is 07:00Z.
      expect(iso(quietHoursRelease(night, 'Europe/Lisbon', new Date('2026-03-29T00:30:00Z')))).to.equal('2026-03-29T07:00:00.000Z');
      // And back 2026-10-25 at 01:00 UTC (02:00 → 01:00): 08:00 is 08:00Z.
      expect(iso(quietHoursRelease(night, 'Europe/Lisbon', new Date('2026-10-25T00:30:00Z')))).to.equal('2026-10-25T08:00:00.000Z');
      // An end the change skips (02:30 on 2026-03-08 in New York) lands as far after it (03:30 EDT).
      const early: QuietHours = { from: '00:00', to: '02:30' };
      expect(iso(quietHoursRelease(early, 'America/New_York', new Date('2026-03-08T06:00:00Z')))).to.equal('2026-03-08T07:30:00.000Z');
      expect(quietHoursRelease(null, 'Europe/Lisbon', new Date('2026-12-07T22:30:00Z')).toISOString()).to.equal('2026-12-07T22:30:00.000Z');
    });

    it("moves a local-time group inside the window to the window's end in each of its zones", () => {
      const local = { date: '2026-12-08', time: '22:00' };
      const plan = planZoneGroups(
        local,
        [
          { zone: 'Europe/Lisbon', users: 2 },
          { zone: 'Europe/London', users: 1 },
          { zone: 'UTC', users: 3 },
        ],
        new Date('2026-12-07T12:00:00Z'),
        { from: '21:30', to: '07:00' },
      );
      expect(plan).to.deep.equal([{ sendAt: '2026-12-09T07:00:00.000Z', zones: ['Europe/Lisbon', 'Europe/London', 'UTC'], users: 6, nextDay: false, held: true }]);
      // Without quiet hours: as before.
      expect(planZoneGroups(local, [{ zone: 'UTC', users: 3 }], new Date('2026-12-07T12:00:00Z'))).to.deep.equal([{ sendAt: '2026-12-08T22:00:00.000Z', zones: ['UTC'], users: 3, nextDay: false }]);
    });
  });

  describe('the stages planned', () => {
    const reported = [
      { zone: 'Asia/Tokyo', users: 1 }, // UTC+9
      { zone: 'America/Sao_Paulo', users: 2 }, // UTC-3
      { zone: null, users: 3 },
      { zone: 'Not/AZone', users: 4 },
    ];
    const shape = (stages: ReturnType<typeof planStages>) => stages?.map((s) => ({ at: iso(s.at), zones: s.zones, otherZones: s.otherZones }));

    it('plans a campaign sent at once by zone when some zone is inside the window, the site zone taking the zoneless', () => {
      // 12:00Z: 21:00 in Tokyo (inside), 09:00 in São Paulo (outside), 12:00 in Lisbon, the site's zone.
      const job = dispatchMessage(randomUUID(), ['all']);
      expect(shape(planStages(job, reported, 'Europe/Lisbon', new Date('2026-12-07T12:00:00Z'), night))).to.deep.equal([
        { at: '2026-12-07T12:00:00.000Z', zones: ['Asia/Tokyo'], otherZones: true },
        { at: '2026-12-07T23:00:00.000Z', zones: ['Asia/Tokyo'], otherZones: false },
      ]);
      // 22:00Z: Lisbon (the zoneless and unknown) is inside too, till 08:00Z; São Paulo (19:00) is not.
      expect(shape(planStages(job, reported, 'Europe/Lisbon', new Date('2026-12-07T22:00:00Z'), night))).to.deep.equal([
        { at: '2026-12-07T22:00:00.000Z', zones: ['America/Sao_Paulo'], otherZones: false },
        { at: '2026-12-07T23:00:00.000Z', zones: ['Asia/Tokyo'], otherZones: false },
        { at: '2026-12-08T08:00:00.000Z', zones: ['America/Sao_Paulo', 'Asia/Tokyo'], otherZones: true },
      ]);
    });

    it('sends at once when no zone is inside the window, or the site has none', () => {
      const job = dispatchMessage(randomUUID(), ['all']);
      // 10:00Z: 19:00 in Tokyo, 07:00 in São Paulo, 10:00 in Lisbon: all outside 22:00 to 06:00.
      expect(planStages(job, reported, 'Europe/Lisbon', new Date('2026-12-07T10:00:00Z'), { from: '22:00', to: '06:00' })).to.equal(null);
      expect(planStages(job, reported, 'Europe/Lisbon', new Date('2026-12-07T12:00:00Z'), null)).to.equal(null);
    });
  });

  describe('a campaign sent at once', () => {
    let t: TestDelivery;
    before(async () => {
      t = await startTestDelivery('quiet-hours');
    });
    after(async () => {
      await t?.stop();
    });

    /** Time control: a stage's moment brought to now (the tests cannot wait for hours). */
    const bringForward = async (campaignId: string, stageNo: number) => {
      await t.pool.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2`, [campaignId, stageNo]);
      await t.pool.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [campaignId]);
    };
    /** The site's subscribers in `zone` (or, with `outside`, in no such zone), in id order. */
    const ids = async (siteId: string, zone: string, outside: boolean) =>
      (
        await t.pool.query(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE site_id = $1 AND (time_zone = $2) IS ${outside ? 'NOT TRUE' : 'TRUE'} ORDER BY s.id`, [siteId, zone])
      ).rows.map((r) => r.id as string);

    it("sends the zones outside the window at once and the others at their window's end, each subscriber once", async () => {
      const { siteId } = await newSite(t);
      // A window around the present moment in the zone an hour ahead of UTC, none in the zone 11 hours behind.
      const now = new Date();
      const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
      const inside = 'Etc/GMT-1'; // UTC+1
      const outside = 'Etc/GMT+11'; // UTC-11
      const quiet = { from: hhmm(now.getTime() + 3600_000 - 30 * 60_000), to: hhmm(now.getTime() + 3600_000 + 60 * 60_000) };
      await t.operators.setQuietHours(siteId, quiet);
      await t.operators.setTimeZone(siteId, outside);
      await t.operators.seedSubscribers({ siteId, count: 40, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      await t.pool.query(`UPDATE delivery.subscribers SET time_zone = ($2::text[])[1 + id % 4] WHERE site_id = $1`, [siteId, [inside, outside, null, 'Not/AZone']]);
      const job: DispatchMessage = dispatchMessage(siteId, ['all']);
      const { dispatch, pacer, sent } = expansionRecorder(t);
      await dispatch(job, noop);
      const { rows: stages } = await t.pool.query(`SELECT stage_no, at, zones, other_zones FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [job.campaignId]);
      expect(stages.map((s) => ({ zones: s.zones, other: s.other_zones }))).to.deep.equal([
        { zones: [inside], other: true },
        { zones: [inside], other: false },
      ]);
      // The held group is due when the window ends in its zone: to, an hour ahead of UTC.
      expect(hhmm((stages[1].at as Date).getTime() + 3600_000)).to.equal(quiet.to);
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      expect(sent()).to.deep.equal(await ids(siteId, inside, true));
      await bringForward(job.campaignId, 1);
      for (let pass = 0; pass < 5; pass++) await pacer.advanceDue();
      expect(sent().slice(30)).to.deep.equal(await ids(siteId, inside, false));
      expect(new Set(sent()).size).to.equal(40);
      expect(sent()).to.have.length(40);
    });

    it('sends at once, unstaged, on a site whose quiet hours were lifted', async () => {
      const { siteId } = await newSite(t);
      await t.operators.setQuietHours(siteId, { from: '00:00', to: '23:59' });
      await t.operators.setQuietHours(siteId, null);
      await t.operators.seedSubscribers({ siteId, count: 10, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
      const job = dispatchMessage(siteId, ['all']);
      const { dispatch, sent } = expansionRecorder(t);
      await dispatch(job, noop);
      expect(sent()).to.have.length(10);
      expect((await t.pool.query(`SELECT count(*)::int AS n FROM delivery.run_stages WHERE campaign_id = $1`, [job.campaignId])).rows[0].n).to.equal(0);
    });

    it("refuses a window the operators' rule does not allow, and keeps the one set", async () => {
      const { siteId } = await newSite(t);
      await t.operators.setQuietHours(siteId, night);
      for (const bad of [{ from: '21:00', to: '21:00' }, { from: '24:00', to: '08:00' }, { from: '9:00', to: '10:00' }, { from: '21:00', to: '' }]) {
        await t.operators.setQuietHours(siteId, bad).then(
          () => expect.fail(`accepted ${JSON.stringify(bad)}`),
          (err: Error) => expect(err.message).to.match(/^quiet hours need two different times of day as HH:MM/),
        );
      }
      const { rows } = await t.pool.query(`SELECT quiet_from, quiet_to FROM delivery.sites WHERE site_id = $1`, [siteId]);
      expect(rows[0]).to.deep.equal({ quiet_from: '21:00', quiet_to: '08:00' });
    });
  });
});
