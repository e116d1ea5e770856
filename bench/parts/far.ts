// Delivery to a far push service: a second campaign, on a second seeded site whose endpoints
// point at the far simulator (every push answered after LATENCY_MS, MAX_CONCURRENT_STREAMS per
// HTTP/2 connection), timed like the main one (create → last push). A sender that keeps a fixed
// number of pushes in flight per origin is capped at in-flight / latency there; one that sizes its
// connections and in-flight pushes to the latency is not.
//
// Its zero-latency reference is measured right next to it: a campaign of the same size to a
// site of the near simulator just before the far one, and again just after; the ratio divides by
// their mean. This machine's speed swings by a quarter within minutes, and the main campaign ran
// a minute earlier (at 1,000,000, over its first 100,000 pushes only): against it alone the ratio
// read 74-114 % for the same code. That ratio is kept beside the other (ratioToMainCampaign).
import type { BenchStack } from '../lib/stack.js';
import { campaignTo, newSiteAt } from './delivery.js';

/**
 * The far campaign has the main run's size up to this many subscribers: as many as the default
 * 100,000 run, so both campaigns spend the same share of their time starting up (the first push,
 * the first connections, the in-flight limit growing) and the ratio compares steady states. At
 * the zero-latency rate this takes ~10 s; a 1,000,000 run compares its first 100,000.
 */
export const FAR_MAX_SUBSCRIBERS = 100_000;

/** CPU µs per push of one campaign: the platform, and the push service (simulator) it went to. */
export interface CampaignCpu {
  platform: number;
  pushService: number;
}

export interface FarPushServiceResult {
  latencyMs: number;
  maxConcurrentStreams: number;
  /** Subscribers of the far campaign: min(main run, FAR_MAX_SUBSCRIBERS). */
  subscribers: number;
  /** The main run's subscribers, when the far run was capped below it. */
  cappedFrom?: number;
  pushed: number;
  pushesPerSecond: number;
  seconds: number;
  /** far pushes/s ÷ zeroLatencyPushesPerSecond. */
  ratioToZeroLatency: number;
  /** The mean of zeroLatencyRuns: campaigns as large as the far one, to the near simulator, right before and right after it. */
  zeroLatencyPushesPerSecond: number;
  zeroLatencyRuns: [number, number];
  /** far pushes/s ÷ the main campaign's rate over as many pushes (its first ones, when it was larger), measured a minute earlier. */
  ratioToMainCampaign: number;
  mainCampaignPushesPerSecond: number;
  /** CPU per push of the far campaign and of its references (their mean). */
  cpuMicrosPerPush: { far: CampaignCpu; zeroLatency: CampaignCpu };
  toFirstPushMs: number | null;
  /** HTTP/2 sessions the delivery opened to the far service during the campaign. */
  http2Sessions: number;
}

export async function runFar(
  stack: BenchStack,
  opts: { mainSubscribers: number; zeroLatency: { pushes: number; pushesPerSecond: number } },
  log: (line: string) => void,
): Promise<FarPushServiceResult> {
  const far = stack.farSim;
  const farPid = stack.pids.farSimulator;
  if (!far || farPid === undefined) throw new Error('the stack has no far push service (StackOptions.far)');
  const subscribers = Math.min(opts.mainSubscribers, FAR_MAX_SUBSCRIBERS);
  const capped = subscribers < opts.mainSubscribers;
  const n = (x: number) => Math.round(x).toLocaleString('en');
  log(
    `far push service: ${far.latencyMs} ms per push, ${far.maxConcurrentStreams} streams per connection; ` +
      `${n(subscribers)} subscribers${capped ? ` (capped from ${n(opts.mainSubscribers)} at ${n(FAR_MAX_SUBSCRIBERS)} to keep this run short)` : ''}, ` +
      `between two zero-latency campaigns as large`,
  );
  const nearSite = await newSiteAt(stack, { site: 'delivery-bench-far-reference', subscribers, sim: stack.sim }, log);
  const farSite = await newSiteAt(stack, { site: 'delivery-bench-far', subscribers, sim: far }, log);
  const reference = (label: string) =>
    campaignTo(stack, { site: nearSite, subscribers, sim: stack.sim, simPid: stack.pids.simulator, label, capMs: 120_000 + subscribers * 2 }, log);
  const before = await reference('zero latency, before: ');
  // Slower than the zero-latency one by design: at most the latency per in-flight window.
  const c = await campaignTo(stack, { site: farSite, subscribers, sim: far, simPid: farPid, label: 'far: ', capMs: 120_000 + subscribers * 20 }, log);
  const after = await reference('zero latency, after: ');
  const zeroLatency = (before.pushesPerSecond + after.pushesPerSecond) / 2;
  const ratio = c.pushesPerSecond / Math.max(zeroLatency, 1);
  const ratioToMain = c.pushesPerSecond / Math.max(opts.zeroLatency.pushesPerSecond, 1);
  const mean = (k: keyof CampaignCpu) => Math.round(((before.cpuMicrosPerPush[k] + after.cpuMicrosPerPush[k]) / 2) * 10) / 10;
  log(
    `  far: ${n(c.pushed)} pushes in ${c.seconds.toFixed(2)} s = ${n(c.pushesPerSecond)}/s, ` +
      `${(ratio * 100).toFixed(1)} % of the zero-latency ${n(zeroLatency)}/s (${n(before.pushesPerSecond)}/s before it, ${n(after.pushesPerSecond)}/s after); ` +
      `${(ratioToMain * 100).toFixed(1)} % of the main campaign's ${n(opts.zeroLatency.pushesPerSecond)}/s` +
      `${opts.zeroLatency.pushes < opts.mainSubscribers ? ` (its first ${n(opts.zeroLatency.pushes)} pushes)` : ''}; ` +
      `${c.after.http2Sessions - c.before.http2Sessions} HTTP/2 session(s)`,
  );
  log(
    `  CPU µs per push: far ${c.cpuMicrosPerPush.platform} platform + ${c.cpuMicrosPerPush.pushService} push service; ` +
      `zero latency ${mean('platform')} + ${mean('pushService')}`,
  );
  return {
    latencyMs: far.latencyMs,
    maxConcurrentStreams: far.maxConcurrentStreams ?? 0,
    subscribers,
    ...(capped ? { cappedFrom: opts.mainSubscribers } : {}),
    pushed: c.pushed,
    pushesPerSecond: Math.round(c.pushesPerSecond),
    seconds: Math.round(c.seconds * 100) / 100,
    ratioToZeroLatency: Math.round(ratio * 1000) / 1000,
    zeroLatencyPushesPerSecond: Math.round(zeroLatency),
    zeroLatencyRuns: [Math.round(before.pushesPerSecond), Math.round(after.pushesPerSecond)],
    ratioToMainCampaign: Math.round(ratioToMain * 1000) / 1000,
    mainCampaignPushesPerSecond: opts.zeroLatency.pushesPerSecond,
    cpuMicrosPerPush: { far: c.cpuMicrosPerPush, zeroLatency: { platform: mean('platform'), pushService: mean('pushService') } },
    toFirstPushMs: c.toFirstPushMs,
    // Not `connections`: it counts this bench's own stats polls (a TLS connection each) too.
    http2Sessions: c.after.http2Sessions - c.before.http2Sessions,
  };
}
