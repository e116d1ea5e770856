// Prometheus metrics (prom-client): one registry per running service (never the global one, so
// several services can live in one test process), request rate/latency for HTTP and gRPC, and
// gauges read at scrape time (Kafka lag, database pool, outbox).
//
// Our own service's name is the label `webpush_service`, not `service`: the Prometheus Operator
// sets a target label `service` (the Kubernetes Service) and would rename ours to
// `exported_service`. gRPC codes are their names (OK, UNAVAILABLE…), as in grpc-ecosystem's
// go-grpc-prometheus metrics that community dashboards match.
import * as grpc from '@grpc/grpc-js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from '../log.js';
import { REQUEST_ID_KEY, runWithRequestId } from './request-context.js';

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** Latency buckets in seconds: API calls are tens of milliseconds, audience counts up to seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// Route labels are bounded: a scanner probing random paths must not create unbounded series.
const MAX_ROUTE_LABELS = 100;

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Express middleware: counts and times every request that passes it. */
  http: RequestHandler;
  /**
   * Wraps gRPC handlers: counts and times calls, runs each in its request id's context
   * (x-request-id metadata, or a fresh id) and logs each call at debug level. A unary handler's
   * callback is wrapped; a server-streaming handler gets the same function as its second argument
   * and calls it (with its error, or null) when its stream has ended.
   */
  instrumentGrpc<H extends object>(service: string, handlers: H, log?: Logger): H;
  /** Express handler for GET /metrics. */
  scrape: RequestHandler;
}

/** The label every metric of a service carries with its name (gateway, campaign, delivery). */
export const SERVICE_LABEL = 'webpush_service';

/** `14` → `UNAVAILABLE`; a code outside the enum stays a number, so it is still seen. */
export function grpcCodeName(code: number): string {
  return grpc.status[code] ?? String(code);
}

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ [SERVICE_LABEL]: service });
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests served, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const grpcHandled = new Counter({
    name: 'grpc_server_handled_total',
    help: 'gRPC calls completed, by service, method and status code.',
    labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
    registers: [registry],
  });
  const grpcDuration = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'gRPC call latency in seconds, by service and method.',
    labelNames: ['grpc_service', 'grpc_method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const seenRoutes = new Set<string>();
  const routeOf = (req: Request): string => {
    // A route written as a string names itself; one matched by a pattern (the gateway's routers,
    // gateway/src/http/routing.ts) is named by its path with the ids taken out.
    const written = req.route?.path;
    const label = typeof written === 'string' ? `${req.baseUrl}${written}` : normalizePath(req.originalUrl.split('?')[0]);
    if (seenRoutes.has(label)) return label;
    if (seenRoutes.size >= MAX_ROUTE_LABELS) return 'other';
    seenRoutes.add(label);
    return label;
  };

  return {
    registry,
    http(req: Request, res: Response, next: NextFunction) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
        httpRequests.inc(labels);
        httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    },
    instrumentGrpc<H extends object>(grpcService: string, handlers: H, log?: Logger): H {
      const wrapped: Record<string, unknown> = {};
      for (const [method, handler] of Object.entries(handlers)) {
        if (typeof handler !== 'function') {
          wrapped[method] = handler;
          continue;
        }
        wrapped[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          const started = process.hrtime.bigint();
          const done: grpc.sendUnaryData<unknown> = (err, value, trailer, flags) => {
            const code = err ? ((err as { code?: number }).code ?? 2) : 0;
            const seconds = Number(process.hrtime.bigint() - started) / 1e9;
            grpcHandled.inc({ grpc_service: grpcService, grpc_method: method, grpc_code: grpcCodeName(code) });
            grpcDuration.observe({ grpc_service: grpcService, grpc_method: method }, seconds);
            log?.debug('grpc call', { method, code, ms: Math.round(seconds * 1000) });
            // A server-streaming handler has no callback: it calls this when its stream ended.
            callback?.(err, value, trailer, flags);
          };
          const given = call.metadata?.get(REQUEST_ID_KEY)[0];
          return runWithRequestId(typeof given === 'string' || Buffer.isBuffer(given) ? given.toString() : undefined, () =>
            (handler as (c: unknown, cb: unknown) => unknown)(call, done),
          );
        };
      }
      return wrapped as H;
    },
    async scrape(_req: Request, res: Response) {
      const body = await registry.metrics();
      res.status(200).set('Content-Type', METRICS_CONTENT_TYPE).set('Cache-Control', 'no-store').send(body);
    },
  };
}

/** Keeps words of a path, replaces anything id-like (uuids, public ids, tokens, numbers) by `:id`. */
export function normalizePath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  const kept = segments.slice(0, 6).map((s) => (/^(v\d{1,2}|[a-z][a-z-]{0,23})(\.(js|json|yaml))?$/.test(s) ? s : ':id'));
  return '/' + kept.join('/');
}

/**
 * A gauge value computed at scrape time from something slow (a database count, Kafka offsets):
 * bounded by `timeoutMs`, and the last good value is kept when a computation fails.
 */
export function cachedSample<T>(compute: () => Promise<T>, timeoutMs = 2000): () => Promise<T | undefined> {
  let last: T | undefined;
  let inFlight: Promise<void> | undefined;
  return async () => {
    inFlight ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        last = await Promise.race([
          compute(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
          }),
        ]);
      } catch {
        // keep the last good value; the scrape must not fail because one source is slow
      } finally {
        clearTimeout(timer);
        inFlight = undefined;
      }
    })();
    await inFlight;
    return last;
  };
}

export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

/**
 * A gauge read at scrape time from `sample` (bounded by `timeoutMs`; on failure or timeout the
 * last good values stay). Nothing runs between scrapes.
 */
export function sampledGauge(
  registry: Registry,
  opts: { name: string; help: string; labelNames?: readonly string[]; timeoutMs?: number },
  sample: () => Promise<Sample[]>,
): Gauge<string> {
  const read = cachedSample(sample, opts.timeoutMs);
  return new Gauge({
    name: opts.name,
    help: opts.help,
    labelNames: opts.labelNames ?? [],
    registers: [registry],
    async collect() {
      const samples = await read();
      for (const s of samples ?? []) {
        if (s.labels) this.set(s.labels, s.value);
        else this.set(s.value);
      }
    },
  });
}

/**
 * A label value from an open set (push-service hosts) capped at `max` distinct values: the first
 * `max` seen keep their name, later ones share `other`, so a flood of new hosts cannot create
 * unbounded series.
 */
export function boundedLabel(max: number, other = 'other'): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return other;
    seen.add(value);
    return value;
  };
}

/** The pg.Pool counters read at scrape time (pg exposes them as properties). */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

/**
 * A service's Postgres pools, labelled `pool` by use (interactive, bulk, readiness and the
 * delivery service's notifications: shared/db.ts): connections open (`db_pool_connections`), of them idle
 * (`db_pool_idle_connections`), queries waiting for a connection (`db_pool_waiting_clients`,
 * saturation: above 0 for long means the pool is too small or queries too slow) and the cap
 * (`db_pool_max_connections`). Read from the pools at scrape time; nothing runs in between.
 */
export function dbPoolGauges(registry: Registry, pools: Readonly<Record<'interactive' | 'bulk' | 'readiness', PoolStats> & { notifications?: PoolStats }>): void {
  const uses = (['interactive', 'bulk', 'readiness', 'notifications'] as const).filter((use) => pools[use] !== undefined);
  const gauge = (name: string, help: string, read: (pool: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        for (const use of uses) this.set({ pool: use }, read(pools[use]!));
      },
    });
  gauge('db_pool_connections', 'Postgres connections open in the pool (idle or in use).', (pool) => pool.totalCount);
  gauge('db_pool_idle_connections', 'Postgres connections open and idle in the pool.', (pool) => pool.idleCount);
  gauge('db_pool_waiting_clients', 'Queries waiting for a pool connection (all are in use).', (pool) => pool.waitingCount);
  gauge('db_pool_max_connections', 'The most connections the pool opens.', (pool) => pool.options.max ?? 10);
}

/** Kafka consumer lag per group and topic, as `kafka_consumer_group_lag`. */
export function kafkaLagGauge(registry: Registry, groups: readonly { group: string; topic: string }[], lag: (group: string, topic: string) => Promise<number>) {
  return sampledGauge(
    registry,
    { name: 'kafka_consumer_group_lag', help: 'Messages not yet committed by the consumer group, summed over partitions.', labelNames: ['group', 'topic'], timeoutMs: 3000 },
    async () => Promise.all(groups.map(async (g) => ({ labels: { group: g.group, topic: g.topic }, value: await lag(g.group, g.topic) }))),
  );
}
