// The browsers behind the push service: a service worker shows the notification (impression)
// and the user sometimes clicks it; both are reported to the public tracking endpoint.
import { setMaxListeners } from 'node:events';
import { Delays } from './delays.js';
import { engagementFactor } from './hourly.js';
import { seededRandom } from './random.js';
import type { DeviceOptions, DeviceStats } from './types.js';

const QUEUE_LIMIT = 10_000;
const REQUEST_TIMEOUT_MS = 10_000;

interface Report {
  token: string;
  click: boolean;
}

export interface Device {
  /** Draws impression/click for one decrypted payload to `subscriptionId` and queues the reports. */
  deliver(payload: string, subscriptionId: string): void;
  stats(): DeviceStats;
  resetStats(): void;
  whenIdle(timeoutMs: number): Promise<void>;
  stop(): void;
}

export function createDevice(
  options: DeviceOptions,
  trackingBaseUrl: string,
  log: (msg: string, fields?: Record<string, unknown>) => void,
): Device {
  for (const name of ['impressionRate', 'clickRate'] as const) {
    const p = options[name];
    if (!(typeof p === 'number' && p >= 0 && p <= 1)) throw new Error(`push simulator: device.${name} must be between 0 and 1`);
  }
  const hourly = options.hourly;
  if (hourly) {
    if (hourly.offPeak !== undefined && !(typeof hourly.offPeak === 'number' && hourly.offPeak >= 0 && hourly.offPeak <= 1)) throw new Error('push simulator: device.hourly.offPeak must be between 0 and 1');
    if (!(hourly.width === undefined || (Number.isInteger(hourly.width) && hourly.width >= 1 && hourly.width <= 24))) throw new Error('push simulator: device.hourly.width must be a whole number of hours from 1 to 24');
  }
  const eventsUrl = trackingBaseUrl.replace(/\/+$/, '') + '/public/v1/events';
  const random = seededRandom(options.seed);
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const delayMs = options.delayMs ?? 0;
  const abort = new AbortController();
  // Each report in flight waits on this signal (its request): up to `concurrency` listeners at
  // once, by design, not a leak.
  setMaxListeners(concurrency + 10, abort.signal);
  const delays = new Delays();
  const queue: Report[] = [];
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  const counters: DeviceStats = { impressionsSent: 0, clicksSent: 0, errors: 0, dropped: 0 };

  const post = async (type: 'impression' | 'click', token: string): Promise<boolean> => {
    try {
      const res = await fetch(eventsUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type, token }),
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      await res.arrayBuffer();
      if (!res.ok) {
        counters.errors++;
        log('device report refused', { type, status: res.status });
        return false;
      }
      if (type === 'impression') counters.impressionsSent++;
      else counters.clicksSent++;
      return true;
    } catch (err) {
      if (abort.signal.aborted) return false;
      counters.errors++;
      log('device report failed', { type, error: (err as Error).message });
      return false;
    }
  };

  const pump = (): void => {
    while (inFlight < concurrency && queue.length > 0 && !abort.signal.aborted) {
      const report = queue.shift()!;
      inFlight++;
      void (async () => {
        if (delayMs > 0) await delays.wait(delayMs);
        const shown = !abort.signal.aborted && (await post('impression', report.token));
        if (shown && report.click) await post('click', report.token);
      })().finally(() => {
        inFlight--;
        pump();
        if (inFlight === 0 && queue.length === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const w of waiters) w();
        }
      });
    }
  };

  return {
    deliver(payload, subscriptionId) {
      // Draw before anything can fail so the sequence depends only on arrival order.
      const factor = hourly ? engagementFactor(hourly, subscriptionId, new Date()) : 1;
      const impression = random() < options.impressionRate * factor;
      const click = impression && random() < options.clickRate * factor;
      if (!impression) return;
      const token = tokenOf(payload);
      if (token === undefined) {
        counters.errors++;
        log('device got a payload without a token');
        return;
      }
      if (queue.length >= QUEUE_LIMIT) {
        counters.dropped++;
        return;
      }
      queue.push({ token, click });
      pump();
    },
    stats: () => ({ ...counters }),
    resetStats() {
      counters.impressionsSent = 0;
      counters.clicksSent = 0;
      counters.errors = 0;
      counters.dropped = 0;
    },
    whenIdle(timeoutMs) {
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          idleWaiters = idleWaiters.filter((w) => w !== done);
          reject(new Error(`push simulator: device reports still pending after ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        idleWaiters.push(done);
      });
    },
    stop() {
      abort.abort();
      delays.close();
      queue.length = 0;
    },
  };
}

function tokenOf(payload: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    const token = (parsed as { token?: unknown } | null)?.token;
    return typeof token === 'string' && token.length > 0 ? token : undefined;
  } catch {
    return undefined;
  }
}
