// A throttled campaign (docs/api-decisions.md, "Throttling"): a third campaign, on a site of its
// own, created with throttlePerMinute, timed at the simulator from its first push to its last.
// Reported: the rate achieved against the one asked, and the most pushes in any one second (the
// pacer sends about a quarter second's worth at a time, so it should stay near rate ÷ 60).
import { waitForPushes } from '../lib/campaign-wait.js';
import { apiOk, createSite, seed } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN } from './delivery.js';

export interface ThrottledResult {
  subscribers: number;
  requestedPerMinute: number;
  /** Pushes after the first ÷ the time from the first to the last, per minute. */
  achievedPerMinute: number;
  /** achieved ÷ requested: at most about 1 (never faster), near 1 when the platform keeps up. */
  ratio: number;
  seconds: number;
  /** The sampled arrivals per second at their densest (the simulator is read every 100 ms). */
  densestSecond: number;
}

export async function runThrottled(stack: BenchStack, opts: { subscribers: number; perMinute: number }, log: (l: string) => void): Promise<ThrottledResult> {
  const site = await createSite(stack, 'delivery-bench-throttled');
  await seed(stack, site, { count: opts.subscribers, topics: ['bench'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, log);
  const sim = stack.sim;
  const s0 = await sim.stats();
  const base = s0.accepted + s0.rejected.total;
  const t0 = performance.now();
  const created = await apiOk(stack.services.gatewayUrl, site.apiKey, 'POST', '/v2/campaign/create', {
    ...BENCH_CAMPAIGN,
    topics: ['bench'],
    status: 'published',
    scheduleMode: 'now',
    ttl: 3600,
    throttlePerMinute: opts.perMinute,
  });
  // Count per 100 ms sample to find the densest second.
  const samples: { at: number; count: number }[] = [];
  const w = await waitForPushes(stack, {
    label: 'throttled: ',
    campaignId: created.id,
    expected: opts.subscribers,
    t0,
    base,
    stats: async () => {
      const s = await sim.stats();
      samples.push({ at: performance.now(), count: s.accepted + s.rejected.total - base });
      return s;
    },
    capMs: 60_000 + (opts.subscribers / opts.perMinute) * 60_000 * 3,
    log,
  });
  const seconds = (w.lastAt - (w.firstAt ?? t0)) / 1000;
  const achievedPerMinute = ((w.done - 1) / Math.max(seconds, 0.001)) * 60;
  let densestSecond = 0;
  for (let i = 0, j = 0; i < samples.length; i++) {
    while (samples[i].at - samples[j].at > 1000) j++;
    densestSecond = Math.max(densestSecond, samples[i].count - (j > 0 ? samples[j - 1].count : 0));
  }
  const ratio = achievedPerMinute / opts.perMinute;
  log(
    `  throttled: ${w.done.toLocaleString('en')} pushes over ${seconds.toFixed(1)} s = ${Math.round(achievedPerMinute).toLocaleString('en')}/min ` +
      `against ${opts.perMinute.toLocaleString('en')}/min asked (${(ratio * 100).toFixed(1)} %); densest second ${densestSecond} (${Math.round(opts.perMinute / 60)} a second asked)`,
  );
  return { subscribers: opts.subscribers, requestedPerMinute: opts.perMinute, achievedPerMinute: Math.round(achievedPerMinute), ratio: Math.round(ratio * 1000) / 1000, seconds: Math.round(seconds * 10) / 10, densestSecond };
}
