// Delivery to a far push service: a second campaign, on a second seeded site whose endpoints
// point at the far simulator (every push answered after LATENCY_MS, MAX_CONCURRENT_STREAMS per
// HTTP/2 connection), timed like the main one (create → last push). A sender that keeps a fixed
// number of pushes in flight per origin is capped at in-flight / latency there; one that sizes its
// connections and in-flight pushes to the latency is not.
import type { BenchStack } from '../lib/stack.js';
import { campaignToNewSite } from './delivery.js';

/**
 * The far campaign has the main run's size up to this many subscribers: as many as the default
 * 100,000 run, so both campaigns spend the same share of their time starting up (the first push,
 * the first connections, the in-flight limit growing) and the ratio compares steady states. At
 * the zero-latency rate this takes ~20 s; a 1,000,000 run compares its first 100,000.
 */
export const FAR_MAX_SUBSCRIBERS = 100_000;

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
  /** The same run's zero-latency campaign over as many pushes as this one (its first ones, when it was larger). */
  zeroLatencyPushesPerSecond?: number;
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
  if (!far) throw new Error('the stack has no far push service (StackOptions.far)');
  const subscribers = Math.min(opts.mainSubscribers, FAR_MAX_SUBSCRIBERS);
  const capped = subscribers < opts.mainSubscribers;
  log(
    `far push service: ${far.latencyMs} ms per push, ${far.maxConcurrentStreams} streams per connection; ` +
      `${subscribers.toLocaleString('en')} subscribers${capped ? ` (capped from ${opts.mainSubscribers.toLocaleString('en')} at ${FAR_MAX_SUBSCRIBERS.toLocaleString('en')} to keep this run short)` : ''}`,
  );
  // Slower than the main run by design: at most the latency per in-flight window.
  const c = await campaignToNewSite(stack, { site: 'delivery-bench-far', subscribers, sim: far, label: 'far: ', capMs: 120_000 + subscribers * 20 }, log);
  const { pushed, seconds, pushesPerSecond } = c;
  const ratio = pushesPerSecond / Math.max(opts.zeroLatency.pushesPerSecond, 1);
  log(
    `  far: ${pushed.toLocaleString('en')} pushes in ${seconds.toFixed(2)} s = ${Math.round(pushesPerSecond).toLocaleString('en')}/s, ` +
      `${(ratio * 100).toFixed(1)} % of the zero-latency ${Math.round(opts.zeroLatency.pushesPerSecond).toLocaleString('en')}/s` +
      `${opts.zeroLatency.pushes < opts.mainSubscribers ? ` (its first ${opts.zeroLatency.pushes.toLocaleString('en')} pushes)` : ''}; ` +
      `${c.after.http2Sessions - c.before.http2Sessions} HTTP/2 session(s)`,
  );
  return {
    latencyMs: far.latencyMs,
    maxConcurrentStreams: far.maxConcurrentStreams ?? 0,
    subscribers,
    ...(capped ? { cappedFrom: opts.mainSubscribers } : {}),
    pushed,
    pushesPerSecond: Math.round(pushesPerSecond),
    seconds: Math.round(seconds * 100) / 100,
    ratioToZeroLatency: Math.round(ratio * 1000) / 1000,
    zeroLatencyPushesPerSecond: opts.zeroLatency.pushesPerSecond,
    toFirstPushMs: c.toFirstPushMs,
    // Not `connections`: it counts this bench's own stats polls (a TLS connection each) too.
    http2Sessions: c.after.http2Sessions - c.before.http2Sessions,
  };
}
