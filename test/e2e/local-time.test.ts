// Local time through the real stack (issue 13, part 2; docs/api-decisions.md "Local time"):
// simulator browsers subscribe in seven zones (UTC+14 and UTC−11 among them), without a zone and
// with a zone no runtime knows; the site's default zone is set with the operator CLI. A campaign
// created with `localTime` answers a plan that must equal an independent computation (Postgres's
// zone arithmetic: `(date + time)::timestamp AT TIME ZONE zone`, a day later for a zone whose
// moment had passed at creation); its first group is due about a minute after creation and must
// arrive at the push-service simulator at or after its moment, and nobody else. The later groups
// are hours away: the test moves each one's moment to now in the delivery service's table (time
// control only — the pacer, the expansion, the chunks and the pushes are the real path) and checks
// that each group's browsers, exactly those, get exactly one push, in stage order, across a
// restart of the delivery service. A throttled local-time campaign keeps each group's pace.
import { expect } from 'chai';
import pg from 'pg';
import { startPushSimulator, type PushSimulator, type ReceivedMessage } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, sleep, startStack, type Stack } from './support/harness.js';

/** The site's default zone: browsers without a zone, or with an unknown one, are sent at the time there. */
const SITE_ZONE = 'America/Sao_Paulo';
/** The zone whose moment the test makes about a minute after creation (east of UTC, so its date is never before UTC's). */
const DUE_ZONE = 'Asia/Kolkata';
const UNKNOWN_ZONE = 'Mars/Olympus_Mons';
/** A zone no browser had when the campaigns were planned: a browser subscribing with it later is sent with the site default's group. */
const LATE_ZONE = 'Europe/Lisbon';
/**
 * Browsers by the zone they subscribe with (null: none). With the moment a minute ahead in
 * Kolkata (UTC+5:30): Tokyo (+9) and Kiritimati (+14) have passed, so they go the next day;
 * São Paulo (−3, with the no-zone and unknown-zone browsers), Honolulu (−10) and Pago Pago (−11)
 * later the same day — Honolulu's moment being exactly Kiritimati's next-day one: two sends at
 * one instant, one of them nextDay.
 */
const ZONED: [string | null, number][] = [
  [DUE_ZONE, 3],
  [SITE_ZONE, 2],
  ['Pacific/Kiritimati', 2],
  ['Pacific/Honolulu', 1],
  ['Pacific/Pago_Pago', 2],
  ['Asia/Tokyo', 2],
  [null, 2],
  [UNKNOWN_ZONE, 2],
];
const BROWSERS = ZONED.reduce((n, [, k]) => n + k, 0);
const THROTTLE_PER_MINUTE = 60; // one push a second

interface Browser {
  simId: string;
  zone: string | null;
  /** The zone it is sent in: its own, or the site's default. */
  effective: string;
}

interface Send {
  sendAt: string;
  zones: string[];
  users: number;
  nextDay: boolean;
}

interface Created {
  id: string;
  localTime: { date: string; time: string; ifPassed: string; firstSendAt: string; lastSendAt: string; sends: Send[] };
}

describe('e2e: sending at the subscribers\' local time', function () {
  this.timeout(600_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let db: pg.Pool;
  const browsers: Browser[] = [];
  /** Browsers that subscribed after the plans were made: one in LATE_ZONE, one in the first group's (already sent) zone. */
  const late: Browser[] = [];
  /** The campaign under test, and a throttled one created with it. */
  let main: Created;
  let throttled: Created;

  before(async () => {
    sim = await startPushSimulator({ seed: 37, keepReplaced: true });
    stack = await startStack('e2e_local_time', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', STATS_PUBLISH_INTERVAL_MS: '200' });
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 3 });
    site = await siteWithPermissions(stack, ALL, 'local-time');
    expect(await stack.cli('sites', 'set-time-zone', site.publicId, SITE_ZONE)).to.deep.equal({ siteId: site.id, timeZone: SITE_ZONE });
    const zones = ZONED.flatMap(([zone, n]) => Array.from({ length: n }, () => zone));
    const subscribed = await subscribeSimulated(stack, sim, site, zones.length, (i) => ({ topics: ['local'], ...(zones[i] ? { timeZone: zones[i] } : {}) }));
    subscribed.forEach((b, i) => {
      const zone = zones[i];
      browsers.push({ simId: b.simId, zone, effective: zone && zone !== UNKNOWN_ZONE ? zone : SITE_ZONE });
    });
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
  });

  const pushesOf = (id: string): ReceivedMessage[] => sim.received().filter((m) => JSON.parse(m.payload).id === id);
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const listed = async (status: string): Promise<string[]> =>
    (await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { status: [status], limit: 60 } })).body.items.map((c: { id: string }) => c.id);
  const utcSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

  /**
   * The plan by Postgres's zone arithmetic (the oracle, independent of the product's Intl-based
   * rule): each effective zone's moment on the date, or the next day's when it was before the
   * campaign's creation; zones with the same moment (and the same nextDay) in one send.
   */
  async function oraclePlan(date: string, time: string, createdAt: Date, users = usersByZone()): Promise<Send[]> {
    const { rows } = await db.query(
      `SELECT z AS zone, (($1::date + $2::time)::timestamp AT TIME ZONE z) AS same_day, ((($1::date + 1) + $2::time)::timestamp AT TIME ZONE z) AS next_day
         FROM unnest($3::text[]) AS t(z)`,
      [date, time, [...users.keys()]],
    );
    const groups = new Map<string, Send>();
    for (const r of rows) {
      const nextDay = (r.same_day as Date).getTime() < createdAt.getTime();
      const at = nextDay ? (r.next_day as Date) : (r.same_day as Date);
      const key = `${at.getTime()}:${nextDay}`;
      const g = groups.get(key) ?? { sendAt: utcSeconds(at), zones: [], users: 0, nextDay };
      g.zones.push(r.zone);
      g.users += users.get(r.zone)!;
      groups.set(key, g);
    }
    for (const g of groups.values()) g.zones.sort();
    return [...groups.values()].sort((a, b) => a.sendAt.localeCompare(b.sendAt) || Number(a.nextDay) - Number(b.nextDay));
  }

  function usersByZone(): Map<string, number> {
    const users = new Map<string, number>();
    for (const b of browsers) users.set(b.effective, (users.get(b.effective) ?? 0) + 1);
    return users;
  }

  /**
   * The browsers a send reaches: those planned in its zones (by their effective zone), and for
   * the site default's group also a browser that subscribed later in a zone of no group.
   */
  const groupOf = (send: Send) =>
    [
      ...browsers.filter((b) => send.zones.includes(b.effective)),
      ...(send.zones.includes(SITE_ZONE) ? late.filter((b) => !browsers.some((p) => p.effective === b.effective)) : []),
    ]
      .map((b) => b.simId)
      .sort();

  /**
   * Time control: a later group is due hours (up to a day) from now; the test cannot wait for it,
   * so the stage's moment is moved to now and the run is made due, exactly as the pacer would
   * find it when the moment came. Nothing else is touched.
   */
  async function fastForward(campaignId: string, stageNo: number): Promise<void> {
    const moved = await db.query('UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = $2 AND NOT done', [campaignId, stageNo]);
    expect(moved.rowCount, `stage ${stageNo} of ${campaignId} not found or already done`).to.equal(1);
    await db.query('UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1', [campaignId]);
  }

  const stagesOf = async (campaignId: string) =>
    (await db.query('SELECT stage_no, at, zones, other_zones, ab_group, done FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no', [campaignId])).rows;

  /** Pushes per simulator subscription of one campaign. */
  const countsOf = (id: string) => {
    const counts = new Map<string, number>();
    for (const m of pushesOf(id)) counts.set(m.subscriptionId, (counts.get(m.subscriptionId) ?? 0) + 1);
    return counts;
  };

  /** Each of `expected` got exactly one push of the campaign, and nobody else got any. */
  function expectExactlyOnce(id: string, expected: string[], label: string) {
    const counts = countsOf(id);
    expect([...counts.keys()].sort(), `${label}: who was pushed`).to.deep.equal([...expected].sort());
    const repeated = [...counts].filter(([, n]) => n !== 1);
    expect(repeated, `${label}: pushed more than once`).to.deep.equal([]);
  }

  it('when a local-time campaign is created, then it answers the plan Postgres\'s zone arithmetic gives, the campaign shows it, scheduleDate is its first send and the list reads it scheduled', async () => {
    // The due zone's wall clock at the next whole minute at least 70 s from now: about a minute after creation.
    const target = Math.ceil((Date.now() + 70_000) / 60_000) * 60_000;
    const { rows } = await db.query(
      `SELECT to_char(to_timestamp($1::float8 / 1000) AT TIME ZONE $2, 'YYYY-MM-DD') AS d, to_char(to_timestamp($1::float8 / 1000) AT TIME ZONE $2, 'HH24:MI') AS t`,
      [target, DUE_ZONE],
    );
    const date = rows[0].d as string;
    const time = rows[0].t as string;
    // The date is scheduleDate's UTC date; its time of day is not used (noon here, whatever the moment).
    const body = (extra: Record<string, unknown>) =>
      validCampaign({ status: 'published', topics: ['local'], scheduleMode: 'scheduled', scheduleDate: `${date}T12:00:00Z`, localTime: time, ...extra });
    const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: body({ title: 'At nine, wherever you are' }) });
    expect(res.status, res.text).to.equal(200);
    main = res.body;
    // A second one with a throttle, created now so its first group is due at the same minute (checked below).
    const res2 = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: body({ title: 'Slowly, at local time', throttlePerMinute: THROTTLE_PER_MINUTE }) });
    expect(res2.status, res2.text).to.equal(200);
    throttled = res2.body;

    for (const created of [main, throttled]) {
      expect(Object.keys(created)).to.deep.equal(['id', 'localTime']);
      const createdAt = (await db.query('SELECT created_at FROM campaign.campaigns WHERE id = $1', [created.id])).rows[0].created_at as Date;
      const sends = await oraclePlan(date, time, createdAt);
      expect(created.localTime).to.deep.equal({ date, time, ifPassed: 'nextDay', firstSendAt: sends[0].sendAt, lastSendAt: sends[sends.length - 1].sendAt, sends });
      const shown = await get(created.id);
      expect(shown.localTime).to.deep.equal(created.localTime);
      expect(shown.scheduleDate).to.equal(created.localTime.firstSendAt);
      expect(shown.status).to.equal('published');
    }
    const sends = main.localTime.sends;
    // The shape the zones were chosen for: six sends, the due zone first, a minute or two after creation.
    expect(sends.map((s) => s.zones)).to.deep.equal([[DUE_ZONE], [SITE_ZONE], ['Pacific/Honolulu'], ['Pacific/Kiritimati'], ['Pacific/Pago_Pago'], ['Asia/Tokyo']]);
    expect(sends.map((s) => s.nextDay)).to.deep.equal([false, false, false, true, false, true]);
    expect(sends.map((s) => s.users)).to.deep.equal([3, 6, 1, 2, 2, 2]);
    expect(sends[2].sendAt, "Honolulu's moment is Kiritimati's next day").to.equal(sends[3].sendAt);
    expect(Date.parse(sends[0].sendAt)).to.equal(target);
    // Every send after creation, none more than a day and a bit away.
    for (const s of sends) expect(Date.parse(s.sendAt) - Date.now()).to.be.within(0, 26 * 3600_000);
    // Not sent yet: scheduled, not sent.
    const scheduled = await listed('scheduled');
    expect(scheduled).to.include.members([main.id, throttled.id]);
    expect(await listed('sent')).to.not.include.members([main.id]);
    console.log(`      localTime ${date} ${time}: ${sends.map((s) => `${s.sendAt} ${s.zones.join('+')} (${s.users}${s.nextDay ? ', next day' : ''})`).join('; ')}`);
  });

  it('when the first group\'s moment comes, then exactly its browsers get the push, at or after its sendAt, and nobody else; the campaign can no longer be deleted', async () => {
    expect(main, 'created by the previous test').to.not.equal(undefined);
    const first = main.localTime.sends[0];
    const due = groupOf(first);
    expect(due).to.have.length(3);
    const waitMs = Date.parse(first.sendAt) - Date.now() + 60_000;
    await eventually(async () => (pushesOf(main.id).length >= due.length ? true : undefined), waitMs, 200);
    // Anything else would come with them (one expansion per stage): give it a moment.
    await sleep(3000);
    expectExactlyOnce(main.id, due, 'first group');
    for (const m of pushesOf(main.id)) expect(m.receivedAt, 'arrived before its moment').to.be.at.least(Date.parse(first.sendAt));
    const latency = Math.max(...pushesOf(main.id).map((m) => m.receivedAt)) - Date.parse(first.sendAt);
    console.log(`      first group: ${due.length} pushes, the last ${(latency / 1000).toFixed(1)} s after ${first.sendAt}`);

    // The delivery service planned the same groups at the same moments: one stage per send.
    const stages = await stagesOf(main.id);
    expect(stages.map((s) => utcSeconds(s.at))).to.deep.equal(main.localTime.sends.map((s) => s.sendAt));
    expect(stages.map((s) => s.done)).to.deep.equal([true, false, false, false, false, false]);
    expect(stages.map((s) => s.other_zones)).to.deep.equal([false, true, false, false, false, false]);

    const del = await stack.api.request('DELETE', `/v2/campaign/${main.id}`, { key: site.apiKey });
    expect([del.status, del.body]).to.deep.equal([409, { message: 'Cannot delete a campaign that has already been sent' }]);
    // Its last send is still to come: the list reads it scheduled, not sent.
    expect(await listed('scheduled')).to.include(main.id);
    expect(await listed('sent')).to.not.include(main.id);
    const c = await eventually(async () => {
      const got = await get(main.id);
      return got.delivery.sent === due.length ? got : undefined;
    }, 20_000, 200);
    expect(c.localTime).to.deep.equal(main.localTime);
  });

  it('when the later groups come due one by one (the delivery service restarted between two), then each group\'s browsers, exactly those, get one push each, in stage order; nothing is repeated or lost; a browser subscribed since in a new zone goes with the site default\'s group, one in a sent group\'s zone not at all', async () => {
    expect(main, 'created by the first test').to.not.equal(undefined);
    const sends = main.localTime.sends;
    const sentSoFar = groupOf(sends[0]);
    // Subscribed after the plans (and after the first group went out).
    const lateZones = [LATE_ZONE, DUE_ZONE];
    const subscribed = await subscribeSimulated(stack, sim, site, lateZones.length, (i) => ({ topics: ['local'], timeZone: lateZones[i] }));
    subscribed.forEach((b, i) => late.push({ simId: b.simId, zone: lateZones[i], effective: lateZones[i] }));
    let lastArrival = Math.max(...pushesOf(main.id).map((m) => m.receivedAt));
    for (let k = 1; k < sends.length; k++) {
      const group = groupOf(sends[k]);
      expect(group.length, `group ${k}`).to.equal(sends[k].users + (sends[k].zones.includes(SITE_ZONE) ? 1 : 0));
      // Nothing of this group has come before its stage is brought forward.
      expectExactlyOnce(main.id, sentSoFar, `before stage ${k}`);
      const t0 = Date.now();
      if (k === 4) {
        // Between two stages: the delivery service is stopped, the stage comes due while it is
        // down, and the service started again must send it once (and nothing sent before again).
        stack.services.signal('delivery', 'SIGTERM');
        await eventually(async () => (stack.services.exitCode('delivery') !== undefined ? true : undefined), 30_000, 50);
        await fastForward(main.id, k);
        await stack.services.restart('delivery');
      } else {
        await fastForward(main.id, k);
      }
      sentSoFar.push(...group);
      await eventually(async () => (pushesOf(main.id).length >= sentSoFar.length ? true : undefined), 90_000, 200);
      await sleep(2000);
      expectExactlyOnce(main.id, sentSoFar, `after stage ${k}`);
      const fresh = pushesOf(main.id).filter((m) => group.includes(m.subscriptionId));
      for (const m of fresh) expect(m.receivedAt, `stage ${k}: arrived before it was due`).to.be.at.least(t0);
      expect(Math.min(...fresh.map((m) => m.receivedAt)), `stage ${k} after stage ${k - 1}`).to.be.greaterThan(lastArrival);
      lastArrival = Math.max(...fresh.map((m) => m.receivedAt));
      expect((await stagesOf(main.id)).map((s) => s.done)).to.deep.equal(sends.map((_, i) => i <= k));
    }
    // Everyone planned, and the late browser in a new zone; not the late one whose zone's group had gone.
    expect(sentSoFar).to.have.length(BROWSERS + 1);
    expect(sentSoFar).to.include(late[0].simId).and.not.include(late[1].simId);
    // Every group sent: the run is complete and the campaign counts each browser once.
    const run = await eventually(async () => {
      const r = (await db.query('SELECT state, sent::int FROM delivery.campaign_runs WHERE campaign_id = $1', [main.id])).rows[0];
      return r.state === 'completed' ? r : undefined;
    }, 30_000, 200);
    expect(run.sent).to.equal(BROWSERS + 1);
    const c = await eventually(async () => {
      const got = await get(main.id);
      return got.delivery.sent === BROWSERS + 1 && got.delivery.pending === 0 ? got : undefined;
    }, 30_000, 200);
    expect(c.analytics.totalUsers).to.equal(BROWSERS);
    // The list follows the plan's lastSendAt (hours away), not the fast-forwarded run.
    expect(await listed('scheduled')).to.include(main.id);
  });

  it('when a local-time campaign has throttlePerMinute, then each group is still paced at the simulator', async () => {
    expect(throttled, 'created by the first test').to.not.equal(undefined);
    const perPushMs = 60_000 / THROTTLE_PER_MINUTE;
    const timesOf = (simIds: string[]) =>
      pushesOf(throttled.id)
        .filter((m) => simIds.includes(m.subscriptionId))
        .map((m) => m.receivedAt)
        .sort((a, b) => a - b);
    const gapsOf = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);
    /**
     * The pace, as the pacer keeps it: a group's k-th push (from 0) leaves no earlier than k
     * intervals after the group's moment. (The pace is counted from the moment, not from when
     * the first push actually left, so the first gap may be shorter by however late the run
     * started — the dispatch of a scheduled campaign takes a moment.)
     */
    const expectPaced = (times: number[], moment: number, label: string) => {
      times.forEach((t, k) => expect(t, `${label}: push ${k} only ${t - moment} ms after the moment (gaps ${gapsOf(times)})`).to.be.at.least(moment + k * perPushMs - 10));
    };
    // Its first group came due with the main campaign's.
    const first = groupOf(throttled.localTime.sends[0]);
    await eventually(async () => (pushesOf(throttled.id).length >= first.length ? true : undefined), 60_000, 200);
    await sleep(1500);
    expectExactlyOnce(throttled.id, first, 'throttled, first group');
    const a = timesOf(first);
    expectPaced(a, Date.parse(throttled.localTime.sends[0].sendAt), 'first group');

    // The site default's group (6 browsers and the late one in a new zone), brought forward (time control, as above).
    const k = throttled.localTime.sends.findIndex((s) => s.zones.includes(SITE_ZONE));
    const group = groupOf(throttled.localTime.sends[k]);
    expect(group).to.have.length(7);
    const t0 = Date.now();
    await fastForward(throttled.id, k);
    await eventually(async () => (pushesOf(throttled.id).length >= first.length + group.length ? true : undefined), 60_000, 200);
    await sleep(1500);
    expectExactlyOnce(throttled.id, [...first, ...group], 'throttled, default group');
    const b = timesOf(group);
    expectPaced(b, t0, 'default group');
    expect(b[b.length - 1] - b[0], `default group gaps ${gapsOf(b)}`).to.be.at.least((group.length - 2) * perPushMs);
    // Never a burst: any one second holds at most two seconds' worth (the throttle suite's bound).
    const densest = (times: number[]) => {
      let most = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i] - times[j] >= 1000) j++;
        most = Math.max(most, i - j + 1);
      }
      return most;
    };
    expect(densest([...a, ...b]), `gaps ${gapsOf(a)} / ${gapsOf(b)}`).to.be.at.most((2 * 1000) / perPushMs);
    console.log(`      throttled at ${THROTTLE_PER_MINUTE}/min: first group ${a[0] - Date.parse(throttled.localTime.sends[0].sendAt)} ms after its moment, gaps ${gapsOf(a).join(', ')} ms; default group gaps ${gapsOf(b).join(', ')} ms`);
  });

  it('when a local-time campaign\'s audience is empty, then its plan is one send of 0 users in the site\'s default zone', async () => {
    const date = new Date().toISOString().slice(0, 10);
    const res = await stack.api.request('POST', '/v2/campaign/create', {
      key: site.apiKey,
      body: validCampaign({ status: 'draft', topics: ['nobody-here'], scheduleMode: 'scheduled', scheduleDate: `${date}T00:00:00Z`, localTime: '12:00' }),
    });
    expect(res.status, res.text).to.equal(200);
    const createdAt = (await db.query('SELECT created_at FROM campaign.campaigns WHERE id = $1', [res.body.id])).rows[0].created_at as Date;
    const sends = await oraclePlan(date, '12:00', createdAt, new Map([[SITE_ZONE, 0]]));
    expect(res.body.localTime).to.deep.equal({ date, time: '12:00', ifPassed: 'nextDay', firstSendAt: sends[0].sendAt, lastSendAt: sends[0].sendAt, sends });
    expect((await get(res.body.id)).totalUsers).to.equal(0);
  });

  it('when localTime is wrong, then 400 gives its message', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string][] = [
      [{ scheduleMode: 'scheduled', scheduleDate: '2099-01-01T00:00:00Z', localTime: '9:00' }, 'localTime must be a time of day as HH:MM (00:00 to 23:59)'],
      [{ scheduleMode: 'scheduled', scheduleDate: '2099-01-01T00:00:00Z', localTime: '24:00' }, 'localTime must be a time of day as HH:MM (00:00 to 23:59)'],
      [{ scheduleMode: 'now', localTime: '09:00' }, 'localTime requires scheduleMode scheduled'],
      [{ scheduleMode: 'scheduled', scheduleDate: `${yesterday}T23:00:00Z`, localTime: '09:00' }, "localTime's date must be today or later (UTC)"],
    ];
    for (const [extra, message] of cases) {
      const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ topics: ['local'], ...extra }) });
      expect([res.status, res.body.message], JSON.stringify(extra)).to.deep.equal([400, message]);
    }
  });
});
