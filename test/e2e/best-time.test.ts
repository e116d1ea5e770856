// Best time through the real stack (issue 40; docs/api-decisions.md "Best time"): simulator
// browsers subscribe, each with a history whose engagement is in one hour a few hours ahead (its
// weights stored as the tracking trigger stores them); a campaign created with `sendTime` (6 h
// window, 25 % holdout, throttled) sends the holdout at once and each subscriber in the slot of
// its hour. The later slots are hours away: the test moves each one's moment to now in the
// delivery service's table (time control only — the plan, the pacer, the chunks, the pushes and
// the devices' reports are the real path) and checks that each slot's browsers, exactly those,
// get exactly one push; then the campaign shows its results by hour, the holdout's and the lift.
// A notification with `sendTime` takes the same path to the browsers it names, without a holdout.
import { expect } from 'chai';
import pg from 'pg';
import { freePort } from '@webpush/shared/ports.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const BROWSERS = 40;

describe('e2e: best time per subscriber', function () {
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let db: pg.Pool;
  /** Simulator subscription id by the subscribe answer's id (the subscriber's public id). */
  const simIdOfPublic = new Map<string, string>();
  /** Simulator subscription id by subscriber id (the delivery service's key). */
  const simIdOf = new Map<string, string>();

  before(async () => {
    const gatewayPort = await freePort();
    sim = await startPushSimulator({ trackingBaseUrl: `http://127.0.0.1:${gatewayPort}`, device: { impressionRate: 1, clickRate: 0.5, seed: 40 }, seed: 41 });
    stack = await startStack(
      'e2e_best_time',
      { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', TRACKING_RATE_LIMIT_PER_MINUTE: '0', STATS_PUBLISH_INTERVAL_MS: '200' },
      { gateway: gatewayPort },
    );
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 3 });
    site = await siteWithPermissions(stack, ALL, 'best-time');
    for (const b of await subscribeSimulated(stack, sim, site, BROWSERS, () => ({ topics: ['bt'] }))) simIdOfPublic.set(b.subscriberId, b.simId);
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
  });

  const pushesOf = (id: string) => sim.received().filter((m) => JSON.parse(m.payload).id === id);

  it('sends the holdout at once and each subscriber once in the slot of its best hour, then shows results by hour and the lift', async () => {
    // Each subscriber's history: engagement in UTC hour now+1 … now+4 (inside a 6 h window that starts this hour or the next).
    const { rows: subs } = await db.query(`SELECT id::text AS id, public_id::text FROM delivery.subscribers WHERE site_id = $1 ORDER BY id`, [site.id]);
    expect(subs).to.have.length(BROWSERS);
    for (const s of subs) simIdOf.set(s.id, simIdOfPublic.get(s.public_id)!);
    const hour = new Date().getUTCHours();
    const hourOf = new Map<string, number>();
    for (const [i, s] of subs.entries()) {
      const h = (hour + 1 + (i % 4)) % 24;
      hourOf.set(s.id, h);
      await db.query(
        `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
         VALUES ($1, ARRAY(SELECT CASE WHEN g = $2 THEN 12 ELSE 0.5 END::real FROM generate_series(0, 23) g ORDER BY g), now())`,
        [s.id, h],
      );
    }
    const created = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: validCampaign({ status: 'published', topics: ['bt'], ttl: 3600, throttlePerMinute: 600, sendTime: { mode: 'bestTime', within: '6h', holdout: 25 } }),
    });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    // Planned once every subscriber's slot is frozen (the stages are stored first, the slots in batches after).
    const stages = await eventually(async () => {
      const { rows } = await db.query(
        `SELECT stage_no, best_time_slot AS slot, at FROM delivery.run_stages
          WHERE campaign_id = $1 AND EXISTS (SELECT 1 FROM delivery.best_time_plans p WHERE p.campaign_id = $1 AND p.done) ORDER BY stage_no`,
        [id],
      );
      return rows.length > 0 ? rows : undefined;
    }, 60_000, 100);
    expect(stages.map((s) => s.slot)).to.deep.equal([-1, 0, 1, 2, 3, 4, 5]);
    const start = (stages[0].at as Date).getTime();
    for (const s of stages) expect((s.at as Date).getTime() - start).to.be.within(0, 6 * 3600_000 - 1);
    const { rows: frozen } = await db.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1`, [id]);
    expect(frozen).to.have.length(BROWSERS);
    const slotHour = new Map(stages.filter((s) => s.slot >= 0).map((s) => [s.slot as number, (s.at as Date).getUTCHours()]));
    for (const f of frozen) if (f.slot >= 0) expect(slotHour.get(f.slot), `subscriber ${f.id}`).to.equal(hourOf.get(f.id));
    const simIds = (slot: number) => frozen.filter((f) => f.slot === slot).map((f) => simIdOf.get(f.id)!).sort();
    const holdout = simIds(-1);
    expect(holdout.length).to.be.within(1, BROWSERS - 1);

    // The holdout (and the first slot, if anyone's best hour is this one) at once.
    const atOnce = [...holdout, ...simIds(0)].sort();
    await eventually(async () => (pushesOf(id).length >= atOnce.length ? true : undefined), 60_000, 100);
    expect(pushesOf(id).map((m) => m.subscriptionId).sort()).to.deep.equal(atOnce);
    // Each later slot only when its moment comes (brought to now), and exactly its browsers.
    for (const stage of stages.filter((s) => s.slot > 0)) {
      const before = pushesOf(id).length;
      await db.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2`, [id, stage.stage_no]);
      await db.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [id]);
      const expected = simIds(stage.slot);
      await eventually(async () => (pushesOf(id).length >= before + expected.length ? true : undefined), 60_000, 100);
      expect(pushesOf(id).slice(before).map((m) => m.subscriptionId).sort(), `slot ${stage.slot}`).to.deep.equal(expected);
    }
    const all = pushesOf(id).map((m) => m.subscriptionId);
    expect(all).to.have.length(BROWSERS);
    expect(new Set(all).size).to.equal(BROWSERS);

    // Results: every push sent and seen, by hour, the holdout apart, with the lift.
    await sim.whenDeviceIdle(30_000);
    const shown = await eventually(async () => {
      const c = (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
      const r = c.sendTime?.results;
      return r && r.holdout.sent + r.bestTime.sent === BROWSERS && r.holdout.impressions + r.bestTime.impressions === BROWSERS ? c : undefined;
    }, 60_000, 200);
    const t = shown.sendTime;
    expect(t).to.deep.include({ mode: 'bestTime', within: '6h', holdout: 25 });
    expect(t.results.holdout).to.deep.include({ planned: holdout.length, sent: holdout.length, impressions: holdout.length, impressionRate: 100 });
    expect(t.results.byHour.map((h: { planned: number }) => h.planned).reduce((a: number, b: number) => a + b, 0)).to.equal(BROWSERS - holdout.length);
    for (const h of t.results.byHour) expect(h.sent).to.equal(h.planned);
    expect(t.results.lift.impressionRate).to.deep.equal({ difference: 0, low: t.results.lift.impressionRate.low, high: t.results.lift.impressionRate.high, relative: 0 });
    expect(t.results.lift.clickRate.low).to.be.a('number');
    expect(shown.throttlePerMinute).to.equal(600);
  });

  it("sends a notification with sendTime to each named browser once, in the slot of its best hour; it stays sending, the later ones pending, until their hour", async () => {
    // Fresh histories (the campaign's own reports moved the weights): engagement in UTC hour now+1 … now+3, inside a 4 h window.
    const { rows: subs } = await db.query(`SELECT id::text AS id, public_id::text FROM delivery.subscribers WHERE site_id = $1 ORDER BY id`, [site.id]);
    for (const s of subs) simIdOf.set(s.id, simIdOfPublic.get(s.public_id)!);
    const named = subs.slice(0, 20);
    const hour = new Date().getUTCHours();
    const hourOf = new Map<string, number>();
    for (const [i, s] of named.entries()) {
      const h = (hour + 1 + (i % 3)) % 24;
      hourOf.set(s.id, h);
      await db.query(
        `INSERT INTO delivery.subscriber_hours (subscriber_id, weights, weighed_at)
         VALUES ($1, ARRAY(SELECT CASE WHEN g = $2 THEN 50 ELSE 0 END::real FROM generate_series(0, 23) g ORDER BY g), now())
         ON CONFLICT (subscriber_id) DO UPDATE SET weights = excluded.weights, weighed_at = excluded.weighed_at`,
        [s.id, h],
      );
    }
    const created = await stack.api.request('POST', '/v2/notifications', {
      key: site.apiKey,
      body: { subscriptionIds: named.map((s) => s.public_id), title: 'Your picks are ready', body: 'Five new arrivals chosen for you', link: 'https://shop.example/picks', sendTime: { mode: 'bestTime', within: '4h' } },
    });
    expect(created.status, created.text).to.equal(202);
    const id = created.body.id as string;
    const stages = await eventually(async () => {
      const { rows } = await db.query(
        `SELECT stage_no, best_time_slot AS slot, at FROM delivery.run_stages
          WHERE campaign_id = $1 AND EXISTS (SELECT 1 FROM delivery.best_time_plans p WHERE p.campaign_id = $1 AND p.done) ORDER BY stage_no`,
        [id],
      );
      return rows.length > 0 ? rows : undefined;
    }, 60_000, 100);
    // No holdout: the window's four hours.
    expect(stages.map((s) => s.slot)).to.deep.equal([0, 1, 2, 3]);
    const { rows: frozen } = await db.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1`, [id]);
    expect(frozen.map((f) => f.id).sort()).to.deep.equal(named.map((s) => s.id).sort());
    const slotHour = new Map(stages.map((s) => [s.slot as number, (s.at as Date).getUTCHours()]));
    for (const f of frozen) expect(slotHour.get(f.slot), `subscriber ${f.id}`).to.equal(hourOf.get(f.id));
    // Nobody's hour is this one (the window may have started in the next hour if the job was taken at its turn).
    const firstSlot = frozen.filter((f) => f.slot === 0).length;
    const read = await stack.api.request('GET', `/v2/notifications/${id}`, { key: site.apiKey });
    expect(read.body).to.deep.include({ sendTime: { mode: 'bestTime', within: '4h' }, respectQuietHours: true });
    if (firstSlot === 0) {
      expect(read.body.status).to.equal('sending');
      expect(read.body.counts).to.deep.include({ pending: named.length, sent: 0 });
    }
    const simIds = (slot: number) => frozen.filter((f) => f.slot === slot).map((f) => simIdOf.get(f.id)!).sort();
    await eventually(async () => (pushesOf(id).length >= firstSlot ? true : undefined), 60_000, 100);
    for (const stage of stages.filter((s) => s.slot > 0)) {
      const before = pushesOf(id).length;
      await db.query(`UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2`, [id, stage.stage_no]);
      await db.query(`UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1`, [id]);
      const expected = simIds(stage.slot);
      await eventually(async () => (pushesOf(id).length >= before + expected.length ? true : undefined), 60_000, 100);
      expect(pushesOf(id).slice(before).map((m) => m.subscriptionId).sort(), `slot ${stage.slot}`).to.deep.equal(expected);
    }
    const all = pushesOf(id).map((m) => m.subscriptionId);
    expect(all).to.have.length(named.length);
    expect(new Set(all).size).to.equal(named.length);
    const done = await eventually(async () => {
      const n = (await stack.api.request('GET', `/v2/notifications/${id}`, { key: site.apiKey })).body;
      return n.status === 'completed' ? n : undefined;
    }, 60_000, 200);
    expect(done.counts).to.deep.include({ sent: named.length, pending: 0 });
  });

  it('when sendTime is wrong, then 400 says why and nothing is created', async () => {
    for (const [sendTime, message] of [
      [{ mode: 'soon' }, 'sendTime.mode must be bestTime'],
      [{ mode: 'bestTime', within: '0h' }, 'sendTime.within must be a whole number of hours from 1h to 72h (e.g. 24h)'],
      [{ mode: 'bestTime', holdout: 60 }, 'sendTime.holdout must be a whole percent from 0 to 50'],
      ['bestTime', 'sendTime must be an object: {"mode": "bestTime", "within", "holdout"}'],
    ] as const) {
      const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['bt'], sendTime }) });
      expect(res.status, JSON.stringify(sendTime)).to.equal(400);
      expect(res.body.message).to.equal(message);
    }
  });
});
