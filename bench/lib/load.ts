// autocannon runs reduced to the numbers the report keeps.
import autocannon, { type RequestSpec } from 'autocannon';

export interface LoadResult {
  name: string;
  connections: number;
  seconds: number;
  requests: number;
  reqPerSec: number;
  p50: number;
  p97_5: number;
  p99: number;
  avg: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU milliseconds per request, by process group, when a meter was given. */
  cpuMsPerRequest?: Record<string, number>;
}

export interface LoadSpec {
  name: string;
  url: string;
  connections: number;
  seconds: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A new body per request (cursor pages, ids); default none. */
  body?: () => string;
  /** Headers of each request's own, beside `headers` (an Idempotency-Key). */
  headersFor?: () => Record<string, string>;
  /** A new path per request; default `path`. */
  pathFor?: () => string;
  /** CPU seconds by process group since it was made (see proc.ts meterCpu). */
  meter?: () => { read(): Record<string, number> };
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const request: RequestSpec = {
    method: spec.method ?? 'GET',
    path: spec.path,
    headers: { ...(spec.body ? { 'content-type': 'application/json' } : {}), ...spec.headers },
  };
  if (spec.body || spec.pathFor || spec.headersFor) {
    request.setupRequest = (req) => ({
      ...req,
      ...(spec.body ? { body: spec.body() } : {}),
      ...(spec.pathFor ? { path: spec.pathFor() } : {}),
      ...(spec.headersFor ? { headers: { ...req.headers, ...spec.headersFor() } } : {}),
    });
  }
  const meter = spec.meter?.();
  const r = await autocannon({ url: spec.url, connections: spec.connections, duration: spec.seconds, timeout: 10, requests: [request] });
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  return {
    name: spec.name,
    connections: spec.connections,
    seconds: spec.seconds,
    requests: total,
    reqPerSec: Math.round(total / Math.max(r.duration, 0.001)),
    p50: r.latency.p50,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    avg: Math.round(r.latency.average * 100) / 100,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    ...(meter
      ? { cpuMsPerRequest: Object.fromEntries(Object.entries(meter.read()).map(([k, v]) => [k, Math.round(((v * 1000) / Math.max(total, 1)) * 100) / 100])) }
      : {}),
  };
}
