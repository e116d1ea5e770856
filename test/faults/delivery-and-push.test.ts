// Faults of the sending path (issue 11, docs/reliability.md) on one shared stack, one campaign
// each: the delivery service killed -9 (also while a throttled campaign sends: it keeps its pace,
// issue 34), its Postgres connections dropped between claim and send, a push-service 503 storm,
// a push service that resets the connection after accepting, and retention dropping pieces of
// detail while a campaign sends.
// Each prints lost / duplicated / ambiguous as counts of N and holds the platform to: lost = 0,
// duplicated ≤ ambiguous, counters equal to what the push service accepted, and a run that
// completes on its own within a bounded wait.
import { sleep } from '../e2e/support/harness.js';
import { densestWindow, paceBound, RIG_JITTER_MS } from '../../tools/push-simulator/src/arrivals.js';
import { createRetention } from '../../services/delivery/src/retention/retention.js';
import { acceptedOf, CLAIM_BATCH, dropReadAfterClaim, expectNoProblems, LATENCY_MS, N, runScenario, seedExpirableDetail, startRig, STORM_SEC, type Rig } from './support/faults.js';

/** The throttled campaign's rate: 50 a second, the one the issue found at 1.56× in its densest second. */
const PER_MINUTE = 3000;

describe('faults: the sending path (delivery killed, connections dropped, push-service outages)', function () {
  this.timeout(600_000);
  let rig: Rig;

  before(async () => {
    rig = await startRig('faults_send');
  });
  after(async () => {
    await rig?.stop();
  });

  it(`when the push service answers 503 to everything for ${STORM_SEC} s mid-campaign, then the delivery waits it out within its retry budget: nothing failed, nothing lost`, async () => {
    const f = await runScenario(rig, `503 storm ${STORM_SEC} s`, async (ctx) => {
      const at = await ctx.waitForProgress(0.3);
      rig.sim.clearBehaviours();
      rig.sim.setBehaviour({ status: 503, latencyMs: 10 });
      const from = Date.now();
      await sleep(STORM_SEC * 1000);
      rig.sim.clearBehaviours();
      rig.sim.setBehaviour({ latencyMs: LATENCY_MS });
      const refused = rig.sim.stats().byStatus['503'] ?? 0;
      return `503 from ${at}/${N} for ${((Date.now() - from) / 1000).toFixed(1)} s, ${refused} requests refused`;
    });
    expectNoProblems(rig, f);
  });

  it('when the push service resets the connection after accepting 10 % of requests, then every repeat is counted as ambiguous', async () => {
    const f = await runScenario(
      rig,
      'accept-then-reset 10 %',
      async () => {
        return 'resetAfterAccept 0.1 for the whole campaign';
      },
      { behaviour: { latencyMs: LATENCY_MS, resetAfterAccept: 0.1 } },
    );
    const resets = rig.sim.stats().resets.afterAccept;
    console.log(`        (${resets} connections reset after accepting; claim batch ${CLAIM_BATCH})`);
    expectNoProblems(rig, f);
  });
  it("when the delivery service's connection drops between a claim and the send, then the claimed pushes are still sent and every row gets an outcome", async () => {
    const f = await runScenario(rig, 'connection dropped between claim and send', async (ctx) => {
      await ctx.waitForProgress(0.1);
      const hits: string[] = [];
      for (let attempt = 0; attempt < 8 && hits.length < 2 && ctx.progress() < 0.95 * N; attempt++) {
        const hit = await dropReadAfterClaim(rig, ctx.campaignId);
        if (hit) hits.push(hit);
        await sleep(200);
      }
      return hits.length > 0 ? `dropped ${hits.length}× after a claim (${hits.join('; ')})` : 'the drop never landed';
    });
    if (f.fault.includes('never landed')) f.problems.push('the fault did not land: no read after a claim was caught');
    expectNoProblems(rig, f);
  });

  it('when retention runs during a campaign (an old piece dropped, the rows from before pieces truncated), then the campaign is untouched: nothing lost, nothing repeated', async () => {
    const f = await runScenario(rig, 'retention passes mid-campaign', async (ctx) => {
      const old = await seedExpirableDetail(rig);
      const at = await ctx.waitForProgress(0.1);
      // Every finished run expirable at once (no retention, no grace): only the campaign's own
      // run, still sending, and its week's piece must be left alone.
      const retention = createRetention(rig.db, { deliveryLogDays: 0, trackingDays: 0, capHistoryDays: 30, dropGraceSeconds: 0 });
      const dropped: string[] = [];
      let truncated = false;
      let passes = 0;
      for (; passes < 20 && ctx.progress() < 0.9 * N; passes++) {
        const report = await retention.pass();
        dropped.push(...(report?.logDropped ?? []));
        truncated ||= report?.legacyLogTruncated === true;
        await sleep(100);
      }
      if (!dropped.includes(old) || !truncated) throw new Error(`in ${passes} passes the old piece ${old} was ${dropped.includes(old) ? '' : 'not '}dropped, the parent ${truncated ? '' : 'not '}truncated`);
      return `${passes} retention passes from ${at}/${N}: dropped ${dropped.join(', ')}, rows from before pieces truncated`;
    });
    expectNoProblems(rig, f);
  });

  it('when the delivery service is killed with SIGKILL at 30 % and restarted by its supervisor, then nothing is lost and repeats stay within the ambiguous', async () => {
    const f = await runScenario(rig, 'kill -9 delivery', async (ctx) => {
      const at = await ctx.waitForProgress(0.3);
      rig.stack.services.signal('delivery', 'SIGKILL');
      return `killed at ${at}/${N}`;
    });
    expectNoProblems(rig, f);
  });

  it(`when a campaign throttled to ${PER_MINUTE}/min is sending and the delivery service is killed with SIGKILL and restarted, then no second at the push service holds more than 1.15× the rate (and the rig's jitter)`, async () => {
    let killedAt = 0;
    const f = await runScenario(
      rig,
      `kill -9 delivery, throttled ${PER_MINUTE}/min`,
      async (ctx) => {
        const at = await ctx.waitForProgress(0.3, 120_000);
        killedAt = Date.now();
        rig.stack.services.signal('delivery', 'SIGKILL');
        return `killed at ${at}/${N}`;
      },
      { campaign: { throttlePerMinute: PER_MINUTE } },
    );
    // Every copy the push service accepted counts (a repeat of an ambiguous push is a push too),
    // by the simulator's receive times: how fast the run went is not asserted, only how dense.
    const times = acceptedOf(rig.sim, f.campaignId).map((m) => m.receivedAt);
    const densest = densestWindow(times, 1000);
    const spanSec = (Math.max(...times) - Math.min(...times)) / 1000;
    const first = Math.min(...times);
    console.log(
      `        densest second ${densest.count} of ${PER_MINUTE / 60} asked (bound ${paceBound(PER_MINUTE, RIG_JITTER_MS)}) from ${((densest.startsAt! - first) / 1000).toFixed(1)} s (killed at ${((killedAt - first) / 1000).toFixed(1)} s); ` +
        `${times.length} pushes over ${spanSec.toFixed(1)} s = ${((times.length - 1) / spanSec).toFixed(1)} a second`,
    );
    if (densest.count > paceBound(PER_MINUTE, RIG_JITTER_MS)) f.problems.push(`${densest.count} pushes in the second from ${new Date(densest.startsAt!).toISOString()}: above ${paceBound(PER_MINUTE, RIG_JITTER_MS)} (1.15× ${PER_MINUTE / 60} and ${RIG_JITTER_MS} ms of it for the rig's jitter)`);
    expectNoProblems(rig, f);
  });
});
