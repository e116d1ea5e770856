// Progress that tells the truth (issue 34; docs/api-decisions.md "Delivery counts"): a published
// campaign's `delivery.pending` counts every planned push without an outcome yet, from create to
// the last push — sent + failed + expired + capped + pending is `totalUsers` — also while pushes
// are still to come: a throttled campaign's audience not yet taken, an A/B test's rest waiting
// for its winner (whose window end the campaign shows), local-time groups whose moment has not
// come. Once the send has finished, nothing is pending. The later local-time group is a day
// away: the test brings its moment (and the campaign's first) to now in the stored tables (time
// control only — the scheduler, pacer, expansion and pushes are the real path).
import { expect } from 'chai';
import pg from 'pg';
import { testThreshold } from '@webpush/contracts/ab-test.js';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, DATE_RE, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const BROWSERS = 24;
/** Half the browsers in each zone: a local-time campaign sends them at two moments, 19 hours apart. */
const ZONES = ['Asia/Tokyo', 'Pacific/Honolulu'];
const PER_MINUTE = 120; // two pushes a second: the 24 take about 12 s

interface Delivery {
  sent: number;
  failed: number;
  expired: number;
  pending: number;
  capped?: number;
}

const finished = (d: Delivery) => d.sent + d.failed + d.expired + (d.capped ?? 0);

describe('e2e: delivery progress (pending) while pushes are still to come', function () {
  this.timeout(300_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let db: pg.Pool;

  before(async () => {
    sim = await startPushSimulator({ seed: 43 });
    stack = await startStack('e2e_progress', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', STATS_PUBLISH_INTERVAL_MS: '200' });
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    site = await siteWithPermissions(stack, ALL, 'progress');
    await subscribeSimulated(stack, sim, site, BROWSERS, (i) => ({ topics: ['progress'], timeZone: ZONES[i % ZONES.length] }));
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
  });

  const create = async (extra: Record<string, unknown>): Promise<string> => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['progress'], ...extra }) });
    expect(res.status, res.text).to.equal(200);
    return res.body.id as string;
  };
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const arrived = (id: string) => sim.received().filter((m) => JSON.parse(m.payload).id === id);

  /** The campaign as read once at least one push had an outcome and, after the read, some had still not arrived. */
  async function midway(id: string) {
    return eventually(async () => {
      const c = await get(id);
      return finished(c.delivery) >= 1 && arrived(id).length < BROWSERS ? c : undefined;
    }, 60_000, 50);
  }

  /** The campaign once every browser got its push and nothing is pending. */
  async function settled(id: string) {
    await eventually(async () => (arrived(id).length >= BROWSERS ? true : undefined), 120_000, 100);
    return eventually(async () => {
      const c = await get(id);
      return c.delivery.sent === BROWSERS && c.delivery.pending === 0 ? c : undefined;
    }, 30_000, 100);
  }

  it('when a throttled campaign sends, then pending counts the audience still to be taken until the last push', async () => {
    const id = await create({ throttlePerMinute: PER_MINUTE });
    const c = await midway(id);
    expect(c.delivery.pending, JSON.stringify(c.delivery)).to.equal(BROWSERS - finished(c.delivery));
    expect(c.delivery.pending).to.be.greaterThan(0);
    await settled(id);
  });

  it("when an A/B test's rest waits for its winner, then pending counts the rest and the campaign shows when the window ends", async () => {
    const createdAt = Date.now();
    const id = await create({ abTest: { variants: [{}, { title: 'Other title' }], testPercent: 50, winnerMetric: 'ctr', windowMinutes: 10080 } });
    // The rest: the audience's subscribers outside the test share (the delivery service's assignment).
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM delivery.subscribers s WHERE s.site_id = $1 AND delivery.ab_bucket($2::uuid, s.id) >= $3`,
      [site.id, id, testThreshold(50)],
    );
    const rest = rows[0].n as number;
    expect(rest, 'the rest of 24 browsers at 50 %').to.be.within(1, BROWSERS - 1);
    const c = await eventually(async () => {
      const got = await get(id);
      return finished(got.delivery) === BROWSERS - rest && got.abTest.windowEndsAt !== null ? got : undefined;
    }, 60_000, 100);
    expect(c.delivery.pending, JSON.stringify(c.delivery)).to.equal(rest);
    expect(c.abTest.winner).to.equal(null);
    expect(c.abTest.windowEndsAt).to.match(DATE_RE);
    // The window started between the create and the first push's arrival (to the second).
    const started = Date.parse(c.abTest.windowEndsAt) - 10080 * 60_000;
    expect(started).to.be.within(Math.floor(createdAt / 1000) * 1000 - 1000, Math.max(...arrived(id).map((m) => m.receivedAt)));

    const picked = await stack.api.request('POST', `/v2/campaign/${id}/winner`, { key: site.apiKey, body: { variant: 1 } });
    expect(picked.status, picked.text).to.equal(200);
    const done = await settled(id);
    expect(done.abTest.windowEndsAt).to.equal(c.abTest.windowEndsAt);
  });

  it('when local-time groups are still to come, then pending counts them from create until the last group is sent', async () => {
    // Tomorrow (UTC) at noon: Tokyo's noon is 03:00Z, Honolulu's 22:00Z, both in the future.
    const date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const id = await create({ scheduleMode: 'scheduled', scheduleDate: `${date}T00:00:00Z`, localTime: '12:00' });
    const created = await get(id);
    expect(created.localTime.sends.map((x: { users: number }) => x.users).filter((n: number) => n > 0)).to.deep.equal([BROWSERS / 2, BROWSERS / 2]);
    // Planned from create on, though nothing is due for hours.
    expect(created.delivery).to.include({ sent: 0, pending: BROWSERS });

    // Time control: the campaign is due now, and its first group's moment too once planned.
    await db.query('UPDATE campaign.campaigns SET schedule_date = now() WHERE id = $1', [id]);
    // The stages are planned earliest first (the site default zone's, empty here, among them).
    const bringForward = async (stages: 'first' | 'rest') => {
      await eventually(async () => {
        const moved = await db.query(
          `UPDATE delivery.run_stages SET at = now() WHERE campaign_id = $1 AND NOT done AND ($2 = 'rest' OR stage_no = 0)`,
          [id, stages],
        );
        return (moved.rowCount ?? 0) > 0 ? true : undefined;
      }, 30_000, 100);
      await db.query('UPDATE delivery.campaign_runs SET next_expand_at = now() WHERE campaign_id = $1', [id]);
    };
    await bringForward('first');
    const half = BROWSERS / ZONES.length;
    await eventually(async () => (arrived(id).length >= half ? true : undefined), 60_000, 100);
    const between = await eventually(async () => {
      const c = await get(id);
      return c.delivery.sent === half ? c : undefined;
    }, 30_000, 100);
    expect(between.delivery.pending, JSON.stringify(between.delivery)).to.equal(BROWSERS - half);
    expect(arrived(id)).to.have.length(half);

    await bringForward('rest');
    await settled(id);
  });
});
