// Throttling through the real stack (docs/api-decisions.md, "Throttling"): a campaign created
// with throttlePerMinute reaches every subscriber once, never faster than the rate, spread over
// the minute (measured from the push-service simulator's arrival times); a site's default applies
// to campaigns created without one, and 0 opts out of it. The bounds checked are the ones a slow
// machine cannot break: never faster than asked, at most 1.15× the rate in any one second (and
// the rig's jitter, RIG_JITTER_MS).
import { expect } from 'chai';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { densestWindow, paceBound, RIG_JITTER_MS } from '../../tools/push-simulator/src/arrivals.js';
import { ALL, siteWithPermissions, subscribeSimulated, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const BROWSERS = 90;
const PER_MINUTE = 1200; // 20 a second: the 90 take at least 4.5 s

describe('e2e: throttling', function () {
  this.timeout(180_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;

  before(async () => {
    sim = await startPushSimulator({ seed: 29 });
    stack = await startStack('e2e_throttle', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await siteWithPermissions(stack, ALL, 'throttled');
    await subscribeSimulated(stack, sim, site, BROWSERS, () => ({ topics: ['slow'] }));
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });

  async function sendAndWatch(extra: Record<string, unknown>) {
    const created = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ status: 'published', topics: ['slow'], ...extra }) });
    expect(created.status, created.text).to.equal(200);
    const id = created.body.id as string;
    const arrivals = () => sim.received().filter((m) => JSON.parse(m.payload).id === id);
    await eventually(async () => (arrivals().length >= BROWSERS ? true : undefined), 120_000, 100);
    const shown = await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey });
    return { id, arrivals: arrivals(), shown: shown.body };
  }

  const densest = (times: number[]) => densestWindow(times, 1000).count;

  it(`when a campaign asks for ${PER_MINUTE} pushes per minute, then all ${BROWSERS} arrive once, no faster than that and without bursts`, async () => {
    const { arrivals, shown } = await sendAndWatch({ throttlePerMinute: PER_MINUTE });
    expect(shown.throttlePerMinute).to.equal(PER_MINUTE);
    expect(new Set(arrivals.map((m) => m.subscriptionId)).size).to.equal(BROWSERS);
    const times = arrivals.map((m) => m.receivedAt);
    const spanMs = Math.max(...times) - Math.min(...times);
    const perSecond = PER_MINUTE / 60;
    // 90 at 20/s take 4.45 s from the first to the last, less 10 % of clock slack.
    expect(spanMs, `span ${spanMs} ms`).to.be.at.least(((BROWSERS - 1) / perSecond) * 1000 * 0.9);
    // The pace within any second: at most 1.15× the rate (docs/api-decisions.md "Throttling"), and the rig's jitter.
    expect(densest(times), 'pushes in the densest second').to.be.at.most(paceBound(PER_MINUTE, RIG_JITTER_MS));
    console.log(`      ${BROWSERS} pushes at ${PER_MINUTE}/min over ${(spanMs / 1000).toFixed(1)} s; densest second ${densest(times)}`);
  });

  it("when the site has a default, then a campaign without throttlePerMinute takes it, and 0 sends at full speed", async () => {
    expect(await stack.cli('sites', 'set-throttle', site.publicId, String(PER_MINUTE * 2))).to.deep.equal({ id: site.id, defaultThrottlePerMinute: PER_MINUTE * 2 });
    const byDefault = await sendAndWatch({});
    expect(byDefault.shown.throttlePerMinute).to.equal(PER_MINUTE * 2);
    expect(densest(byDefault.arrivals.map((m) => m.receivedAt))).to.be.at.most(paceBound(PER_MINUTE * 2, RIG_JITTER_MS));
    const unthrottled = await sendAndWatch({ throttlePerMinute: 0 });
    expect(unthrottled.shown).to.not.have.property('throttlePerMinute');
    expect(new Set(unthrottled.arrivals.map((m) => m.subscriptionId)).size).to.equal(BROWSERS);
    expect(await stack.cli('sites', 'set-throttle', site.publicId, 'none')).to.deep.equal({ id: site.id, defaultThrottlePerMinute: null });
  });

  it('when throttlePerMinute is not a whole number from 0 to 1000000, then 400 says so', async () => {
    for (const bad of [-1, 1.5, '60', 1_000_001]) {
      const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ throttlePerMinute: bad }) });
      expect(res.status, String(bad)).to.equal(400);
      expect(res.body.message).to.equal('throttlePerMinute must be a whole number from 0 (no limit) to 1000000');
    }
  });
});
