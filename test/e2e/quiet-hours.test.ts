// Quiet hours through the real stack (issue 38; docs/api-decisions.md "Quiet hours"): the
// operators set a window that holds Tokyo now and not São Paulo nor the site's zone (UTC), with
// the CLI. A campaign sent now reaches the São Paulo and zoneless browsers at once, Tokyo's none;
// Tokyo's group is due at the window's end there — the test moves that moment to now in the
// delivery service's table (time control only, as the local-time test does) and Tokyo's browsers
// then get exactly one push each. A local-time campaign whose time falls in the window answers a
// plan whose sends are held to the window's end in their zones (Postgres's zone arithmetic is the
// oracle). An urgent campaign (ignoreQuietHours) is held nowhere. Lifted with `off`, a campaign
// goes to everyone at once again.
import { expect } from 'chai';
import pg from 'pg';
import { startPushSimulator, type PushSimulator, type ReceivedMessage } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, sleep, startStack, type Stack } from './support/harness.js';

const HELD_ZONE = 'Asia/Tokyo'; // UTC+9
const OPEN_ZONE = 'America/Sao_Paulo'; // UTC−3

describe('e2e: quiet hours', function () {
  this.timeout(600_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let db: pg.Pool;
  const held: string[] = [];
  const open: string[] = [];
  let quiet: { from: string; to: string };

  before(async () => {
    sim = await startPushSimulator({ seed: 38 });
    stack = await startStack('e2e_quiet_hours', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', STATS_PUBLISH_INTERVAL_MS: '200' });
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 3 });
    site = await siteWithPermissions(stack, ALL, 'quiet-hours');
    const zones = [HELD_ZONE, HELD_ZONE, OPEN_ZONE, OPEN_ZONE, null];
    const subscribed = await subscribeSimulated(stack, sim, site, zones.length, (i) => ({ topics: ['quiet'], ...(zones[i] ? { timeZone: zones[i] } : {}) }));
    subscribed.forEach((b, i) => (zones[i] === HELD_ZONE ? held : open).push(b.simId));
    // From half an hour ago to two hours on, on Tokyo's clock: São Paulo (12 hours behind) and UTC (9) are outside.
    const tokyo = (ms: number) => new Date(ms + 9 * 3600_000).toISOString().slice(11, 16);
    quiet = { from: tokyo(Date.now() - 30 * 60_000), to: tokyo(Date.now() + 2 * 3600_000) };
    expect(await stack.cli('sites', 'set-quiet-hours', site.publicId, quiet.from, quiet.to)).to.deep.equal({ siteId: site.id, quietHours: quiet });
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
  });

  const pushesOf = (id: string): ReceivedMessage[] => sim.received().filter((m) => JSON.parse(m.payload).id === id);
  const create = async (extra: Record<string, unknown>) => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['quiet'], ...extra }) });
    expect(res.status, res.text).to.equal(200);
    return res.body as { id: string; localTime?: { sends: { sendAt: string; zones: string[]; users: number; nextDay: boolean; held?: true }[] } };
  };
  /** Each of `expected` got exactly one push of the campaign, and nobody else got any. */
  const expectExactlyOnce = (id: string, expected: string[], label: string) => {
    const by = pushesOf(id).map((m) => m.subscriptionId);
    expect([...by].sort(), label).to.deep.equal([...expected].sort());
  };
  const stagesOf = async (campaignId: string) =>
    (await db.query('SELECT stage_no, at, zones, other_zones, done FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no', [campaignId])).rows;

  it("when a campaign is sent now with Tokyo in its quiet hours, then the others get it at once and Tokyo at the window's end, each browser once", async () => {
    const { id } = await create({ title: 'Now, but not at night', scheduleMode: 'now' });
    await eventually(async () => (pushesOf(id).length >= open.length ? true : undefined), 60_000, 200);
    // Tokyo's would come with them if it were not held: give it a moment.
    await sleep(3000);
    expectExactlyOnce(id, open, 'outside the window');
    const stages = await stagesOf(id);
    expect(stages.map((s) => [s.zones, s.other_zones, s.done])).to.deep.equal([
      [[HELD_ZONE], true, true],
      [[HELD_ZONE], false, false],
    ]);
    // Its moment: the window's end on Tokyo's clock (Postgres's zone arithmetic), within the next two hours.
    const { rows } = await db.query(`SELECT to_char($1::timestamptz AT TIME ZONE $2, 'HH24:MI') AS t`, [stages[1].at, HELD_ZONE]);
    expect(rows[0].t).to.equal(quiet.to);
    expect((stages[1].at as Date).getTime() - Date.now()).to.be.within(0, 2 * 3600_000 + 60_000);
    // The campaign counts Tokyo's as still to come.
    const shown = (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
    expect(shown.delivery.pending, JSON.stringify(shown.delivery)).to.equal(held.length);

    // Time control: the held stage's moment brought to now.
    await db.query('UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND stage_no = 1', [id]);
    await db.query('UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1', [id]);
    await eventually(async () => (pushesOf(id).length >= open.length + held.length ? true : undefined), 60_000, 200);
    await sleep(2000);
    expectExactlyOnce(id, [...open, ...held], 'after the window');
  });

  it("when a local-time campaign's time falls in the window, then its plan holds each send to the window's end in its zones", async () => {
    // Ten minutes from now on Tokyo's clock, on Tokyo's date (never before UTC's): inside the window in every zone.
    const at = new Date(Date.now() + 10 * 60_000 + 9 * 3600_000);
    const date = at.toISOString().slice(0, 10);
    const time = at.toISOString().slice(11, 16);
    const created = await create({ title: 'At local time, after the night', scheduleMode: 'scheduled', scheduleDate: `${date}T12:00:00Z`, localTime: time });
    const sends = created.localTime!.sends;
    expect(sends.map((s) => s.held)).to.deep.equal(sends.map(() => true));
    expect(sends.flatMap((s) => s.zones).sort()).to.deep.equal([OPEN_ZONE, HELD_ZONE, 'UTC'].sort());
    for (const s of sends) {
      for (const zone of s.zones) {
        const { rows } = await db.query(`SELECT to_char($1::timestamptz AT TIME ZONE $2, 'HH24:MI') AS t`, [s.sendAt, zone]);
        expect(rows[0].t, `${zone}'s send`).to.equal(quiet.to);
      }
    }
    const shown = (await stack.api.request('GET', `/v2/campaign/${created.id}`, { key: site.apiKey })).body;
    expect(shown.localTime).to.deep.equal(created.localTime);
  });

  it('when an urgent campaign is created with ignoreQuietHours, then everyone gets it at once, it shows the flag, and its local-time plan holds nothing', async () => {
    const { id } = await create({ title: 'Urgent, whatever the hour', scheduleMode: 'now', ignoreQuietHours: true });
    await eventually(async () => (pushesOf(id).length >= open.length + held.length ? true : undefined), 60_000, 200);
    expectExactlyOnce(id, [...open, ...held], 'everyone');
    expect(await stagesOf(id)).to.deep.equal([]);
    const shown = (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
    expect(shown.ignoreQuietHours).to.equal(true);
    const at = new Date(Date.now() + 10 * 60_000 + 9 * 3600_000);
    const local = await create({ title: 'Urgent, at local time', scheduleMode: 'scheduled', scheduleDate: `${at.toISOString().slice(0, 10)}T12:00:00Z`, localTime: at.toISOString().slice(11, 16), ignoreQuietHours: true });
    expect(local.localTime!.sends.filter((s) => s.held)).to.deep.equal([]);
    const refused = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ topics: ['quiet'], ignoreQuietHours: 'yes' }) });
    expect([refused.status, refused.body]).to.deep.equal([400, { message: 'ignoreQuietHours must be a boolean' }]);
  });

  it('when the quiet hours are lifted, then a campaign goes to everyone at once', async () => {
    expect(await stack.cli('sites', 'set-quiet-hours', site.publicId, 'off')).to.deep.equal({ siteId: site.id, quietHours: null });
    const { id } = await create({ title: 'Any time', scheduleMode: 'now' });
    await eventually(async () => (pushesOf(id).length >= open.length + held.length ? true : undefined), 60_000, 200);
    expectExactlyOnce(id, [...open, ...held], 'everyone');
    expect(await stagesOf(id)).to.deep.equal([]);
  });
});
