// Throttled campaigns (docs/api-decisions.md, "Throttling"), each on a site of its own, watched at
// the simulator: a fast one (120,000/min, 20,000 subscribers) for the rate the platform can keep
// when asked for a lot; one of 3,000/min over more than a minute for the pace itself — the rate
// over its first minute against the one asked (target ±10 %) and its densest one-second window
// (target ≤ 1.15×); and one of 3,000/min whose delivery service is killed with SIGKILL at 40 %
// and started again, for the densest second around a restart. The simulator (sink mode, its own
// process) is read every 10 ms, each count placed at the middle of its read's round trip.
import { waitForPushes } from '../lib/campaign-wait.js';
import { findChild } from '../lib/proc.js';
import { apiOk, createSite, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN, settle } from './delivery.js';

export interface ThrottledRun {
  subscribers: number;
  requestedPerMinute: number;
  /** Pushes after the first ÷ the time from the first to the last, per minute. */
  achievedPerMinute: number;
  /** achieved ÷ requested: at most about 1 (never faster), near 1 when the platform keeps up. */
  ratio: number;
  seconds: number;
  /** The most pushes in any one-second window (from reads every 10 ms, see above). */
  densestSecond: number;
  /** densestSecond ÷ the rate asked per second. */
  densestRatio: number;
  /** Pushes in the minute from the first push ÷ the rate asked, less 1 (runs of more than a minute). */
  minuteRateError?: number;
  /** The delivery service was killed with SIGKILL at this many pushes and started again. */
  killedAt?: number;
}

export interface ThrottledResult {
  fast: ThrottledRun;
  paced: ThrottledRun;
  afterKill: ThrottledRun;
  measuredAt: string;
}

/** The campaigns: the fast one's 20,000 at 2,000 a second take 10 s; the paced one's 3,300 at 50 a second 66 s. */
const FAST = { subscribers: 20_000, perMinute: 120_000 };
const PACED = { subscribers: 3_300, perMinute: 3_000 };
const KILLED = { subscribers: 1_500, perMinute: 3_000, killAt: 0.4 };

interface Read {
  /** performance.now() before the request and after the answer: the count was taken in between. */
  before: number;
  after: number;
  count: number;
}

/**
 * The most pushes in any one-second window, each read's count placed at the middle of its round
 * trip: a window's count is the difference of two reads about a second apart (the later read at
 * most a second after the earlier), interpolated to exactly one second.
 */
function densestSecond(reads: Read[]): number {
  const at = (r: Read) => (r.before + r.after) / 2;
  let most = 0;
  for (let j = 0, i = 0; j < reads.length; j++) {
    while (i + 1 < reads.length && at(reads[i + 1]) - at(reads[j]) <= 1000) i++;
    const span = at(reads[i]) - at(reads[j]);
    if (span < 900) continue; // reads too far apart (a stalled driver) say nothing about one second
    most = Math.max(most, ((reads[i].count - reads[j].count) * 1000) / span);
  }
  return Math.round(most);
}

async function runOne(stack: BenchStack, o: { label: string; subscribers: number; perMinute: number; killAt?: number }, log: (l: string) => void): Promise<ThrottledRun> {
  const site = await createSite(stack, `delivery-bench-throttled-${o.label}`);
  await seed(stack, site, { count: o.subscribers, topics: ['bench'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, log);
  await settle(stack, log);
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
    throttlePerMinute: o.perMinute,
  });
  const reads: Read[] = [];
  let reading = true;
  let killedAt: number | undefined;
  let killing: Promise<void> | undefined;
  const reader = (async () => {
    while (reading) {
      const before = performance.now();
      const s = await sim.stats();
      const count = s.accepted + s.rejected.total - base;
      reads.push({ before, after: performance.now(), count });
      if (o.killAt !== undefined && killedAt === undefined && count >= o.killAt * o.subscribers) {
        killedAt = count;
        log(`  throttled ${o.label}: SIGKILL to the delivery service at ${count} pushes, then started again`);
        stack.services.signal('delivery', 'SIGKILL');
        killing = stack.services.restart('delivery').then(() => {
          stack.pids.delivery = findChild(process.pid, 'services/delivery/src/main.') ?? stack.pids.delivery;
        });
      }
      await sleep(10);
    }
  })();
  let w;
  try {
    w = await waitForPushes(stack, {
      label: `throttled ${o.label}: `,
      campaignId: created.id,
      expected: o.subscribers,
      t0,
      base,
      stats: () => sim.stats(),
      capMs: 90_000 + (o.subscribers / o.perMinute) * 60_000 * 3,
      log,
    });
  } finally {
    reading = false;
    await reader;
    await killing;
  }
  const seconds = (w.lastAt - (w.firstAt ?? t0)) / 1000;
  const achievedPerMinute = ((w.done - 1) / Math.max(seconds, 0.001)) * 60;
  const densest = densestSecond(reads);
  const perSecond = o.perMinute / 60;
  // The minute from the first read that saw a push: what arrived within it against the rate asked.
  const first = reads.find((r) => r.count > 0);
  const minuteEnd = first && reads.find((r) => r.after >= first.before + 60_000);
  const minuteRateError = o.killAt === undefined && first && minuteEnd && seconds > 60 ? (minuteEnd.count - (first.count - 1)) / o.perMinute - 1 : undefined;
  const ratio = achievedPerMinute / o.perMinute;
  log(
    `  throttled ${o.label}: ${w.done.toLocaleString('en')} pushes over ${seconds.toFixed(1)} s = ${Math.round(achievedPerMinute).toLocaleString('en')}/min ` +
      `against ${o.perMinute.toLocaleString('en')}/min asked (${(ratio * 100).toFixed(1)} %); densest second ${densest} (${(densest / perSecond).toFixed(2)}× the ${perSecond} a second asked)` +
      (minuteRateError === undefined ? '' : `; first minute ${(minuteRateError * 100).toFixed(1)} % off the rate`),
  );
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    subscribers: o.subscribers,
    requestedPerMinute: o.perMinute,
    achievedPerMinute: Math.round(achievedPerMinute),
    ratio: round3(ratio),
    seconds: Math.round(seconds * 10) / 10,
    densestSecond: densest,
    densestRatio: round3(densest / perSecond),
    ...(minuteRateError === undefined ? {} : { minuteRateError: round3(minuteRateError) }),
    ...(killedAt === undefined ? {} : { killedAt }),
  };
}

export async function runThrottled(stack: BenchStack, log: (l: string) => void): Promise<ThrottledResult> {
  const fast = await runOne(stack, { label: 'fast', ...FAST }, log);
  const paced = await runOne(stack, { label: 'paced', ...PACED }, log);
  const afterKill = await runOne(stack, { label: 'killed', ...KILLED }, log);
  return { fast, paced, afterKill, measuredAt: new Date().toISOString() };
}
