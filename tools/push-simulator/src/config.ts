// The only reader of process.env and argv for the stand-alone simulator. Flags (--port=8443)
// override variables (PORT=8443).
import type { PushSimulatorOptions } from './types.js';

export class SimulatorConfigError extends Error {}

/** Bounds shared with startPushSimulator's own checks. */
export const MAX_LATENCY_MS = 600_000;
export const MAX_STREAMS = 2 ** 32 - 1;
export const MAX_CAPACITY = 1_000_000;

const NAMES = {
  HOST: 'host', PORT: 'port', TLS: 'tls', MODE: 'mode', SINK_SAMPLE_EVERY: 'sink-sample-every',
  TRACKING_BASE_URL: 'tracking-base-url', IMPRESSION_RATE: 'impression-rate', CLICK_RATE: 'click-rate',
  DEVICE_DELAY_MS: 'device-delay-ms', DEVICE_SEED: 'device-seed', SEED: 'seed', MAX_VAPID_TTL_SEC: 'max-vapid-ttl-sec',
  LATENCY_MS: 'latency-ms', CAPACITY_PER_SECOND: 'capacity-per-second', MAX_CONCURRENT_STREAMS: 'max-concurrent-streams', LOG_LEVEL: 'log-level',
} as const;
type Name = keyof typeof NAMES;

export interface SimulatorConfig {
  options: PushSimulatorOptions;
  verbose: boolean;
}

export function loadSimulatorConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv.slice(2)): SimulatorConfig {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (!m || !Object.values(NAMES).includes(m[1] as (typeof NAMES)[Name])) {
      throw new SimulatorConfigError(`unknown argument ${arg}; use --name=value with one of ${Object.values(NAMES).join(', ')}`);
    }
    flags.set(m[1], m[2]);
  }
  const read = (name: Name): string | undefined => {
    const value = flags.get(NAMES[name]) ?? env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const number = (name: Name, fallback: number | undefined, ok: (n: number) => boolean): number | undefined => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || !ok(n)) throw new SimulatorConfigError(`${name} is not valid: ${raw}`);
    return n;
  };
  const probability = (n: number) => n >= 0 && n <= 1;

  const mode = read('MODE') ?? 'record';
  if (mode !== 'record' && mode !== 'sink') throw new SimulatorConfigError(`MODE must be record or sink, got ${mode}`);
  const tlsRaw = (read('TLS') ?? 'true').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(tlsRaw)) throw new SimulatorConfigError(`TLS must be true or false, got ${tlsRaw}`);
  const trackingBaseUrl = read('TRACKING_BASE_URL');
  if (trackingBaseUrl !== undefined) {
    try {
      new URL(trackingBaseUrl);
    } catch {
      throw new SimulatorConfigError(`TRACKING_BASE_URL is not a URL: ${trackingBaseUrl}`);
    }
  }

  const options: PushSimulatorOptions = {
    host: read('HOST') ?? '127.0.0.1',
    port: number('PORT', 0, (n) => Number.isInteger(n) && n >= 0 && n <= 65535),
    tls: tlsRaw === 'true' || tlsRaw === '1',
    mode,
    sinkSampleEvery: number('SINK_SAMPLE_EVERY', 100, (n) => Number.isInteger(n) && n >= 1),
    trackingBaseUrl,
    maxVapidTtlSec: number('MAX_VAPID_TTL_SEC', 86_400, (n) => Number.isInteger(n) && n > 0),
    seed: number('SEED', undefined, Number.isInteger),
    latencyMs: number('LATENCY_MS', 0, (n) => n >= 0 && n <= MAX_LATENCY_MS),
  };
  const capacity = number('CAPACITY_PER_SECOND', undefined, (n) => n > 0 && n <= MAX_CAPACITY);
  if (capacity !== undefined) options.capacityPerSecond = capacity;
  const streams = number('MAX_CONCURRENT_STREAMS', undefined, (n) => Number.isInteger(n) && n >= 1 && n <= MAX_STREAMS);
  if (streams !== undefined) options.maxConcurrentStreams = streams;
  // Devices report only when there is somewhere to report to.
  if (trackingBaseUrl !== undefined) {
    options.device = {
      impressionRate: number('IMPRESSION_RATE', 1, probability)!,
      clickRate: number('CLICK_RATE', 0.1, probability)!,
      delayMs: number('DEVICE_DELAY_MS', 0, (n) => n >= 0),
      seed: number('DEVICE_SEED', undefined, Number.isInteger),
    };
  }
  return { options, verbose: read('LOG_LEVEL') === 'debug' };
}
