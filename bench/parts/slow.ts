// Delivery to a slow push service: a campaign on a site of its own whose endpoints point at a
// simulator that handles CAPACITY_PER_SECOND pushes a second, one after another, so its latency
// grows with what is queued at it (tools/push-simulator, capacityPerSecond). With no fault at all,
// a sender that keeps more in flight than the service drains within the request timeout gets
// timeouts, retries them, and the service still delivers the first copies: duplicates. Recorded:
// the duplicates the service counted (a message accepted twice), the timeouts and retries the
// delivery log counted, and the rate from the first push to the last against the capacity.
import { waitForPushes } from '../lib/campaign-wait.js';
import type { BenchStack } from '../lib/stack.js';
import { newSiteAt, sendBenchCampaign, settle } from './delivery.js';

export interface SlowPushServiceResult {
  capacityPerSecond: number;
  subscribers: number;
  pushed: number;
  /** Pushes after the first ÷ the seconds from the first to the last, at the service. */
  pushesPerSecond: number;
  /** pushesPerSecond ÷ capacityPerSecond. */
  ratioToCapacity: number;
  seconds: number;
  /** Messages the service accepted a second time for the same subscriber. */
  duplicates: number;
  /** Attempts whose answer never came in time (the delivery log's ambiguous count: timeouts, and resets after the request went out). */
  timeouts: number;
  /** Attempts beyond each push's first (the delivery log). */
  retries: number;
}

export async function runSlow(stack: BenchStack, opts: { subscribers: number }, log: (line: string) => void): Promise<SlowPushServiceResult> {
  const slow = stack.slowSim;
  if (!slow || slow.capacityPerSecond === undefined) throw new Error('the stack has no slow push service (StackOptions.slow)');
  const capacity = slow.capacityPerSecond;
  const n = (x: number) => Math.round(x).toLocaleString('en');
  log(`slow push service: ${n(capacity)} pushes a second, latency growing with its queue; ${n(opts.subscribers)} subscribers (~${Math.round(opts.subscribers / capacity)} s at capacity)`);
  const site = await newSiteAt(stack, { site: 'delivery-bench-slow', subscribers: opts.subscribers, sim: slow }, log);
  await settle(stack, log);
  const before = await slow.stats();
  const t0 = performance.now();
  const campaignId = await sendBenchCampaign(stack, site.apiKey);
  const w = await waitForPushes(stack, {
    label: 'slow: ',
    campaignId,
    expected: opts.subscribers,
    t0,
    base: before.accepted + before.rejected.total,
    stats: () => slow.stats(),
    capMs: 120_000 + (opts.subscribers / capacity) * 3000,
    log,
  });
  const seconds = (w.lastAt - (w.firstAt ?? t0)) / 1000;
  const pushesPerSecond = (w.done - 1) / Math.max(seconds, 0.001);
  // Retries end within the retry budget; the run completes when every push has its outcome.
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    const r = await stack.pool.query<{ state: string }>('SELECT state FROM delivery.campaign_runs WHERE campaign_id = $1', [campaignId]);
    if (r.rows[0]?.state === 'completed' || r.rows[0]?.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const q = await stack.pool.query<{ retries: string; ambiguous: string }>(
    'SELECT coalesce(sum(attempts - 1), 0)::text AS retries, coalesce(sum(ambiguous), 0)::text AS ambiguous FROM delivery.delivery_log WHERE campaign_id = $1',
    [campaignId],
  );
  const row = q.rows[0];
  const after = await slow.stats();
  const duplicates = after.duplicates - before.duplicates;
  const result: SlowPushServiceResult = {
    capacityPerSecond: capacity,
    subscribers: opts.subscribers,
    pushed: w.done,
    pushesPerSecond: Math.round(pushesPerSecond * 10) / 10,
    ratioToCapacity: Math.round((pushesPerSecond / capacity) * 1000) / 1000,
    seconds: Math.round(seconds * 10) / 10,
    duplicates,
    timeouts: Number(row?.ambiguous ?? 0),
    retries: Number(row?.retries ?? 0),
  };
  log(
    `  slow: ${n(w.done)} pushes over ${seconds.toFixed(1)} s = ${result.pushesPerSecond}/s, ${(result.ratioToCapacity * 100).toFixed(1)} % of its capacity; ` +
      `${duplicates} duplicates, ${result.timeouts} timeouts, ${result.retries} retries`,
  );
  return result;
}
