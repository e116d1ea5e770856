// Liveness and readiness. Liveness says only "the process answers" (no dependencies, so a
// database outage never gets pods restarted in a loop); readiness runs the service's checks
// (Postgres, Kafka, gRPC peers) with a short deadline each. HTTP services answer /healthz and
// /readyz; gRPC servers publish the same through the standard grpc.health.v1 service.
import type * as grpc from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import type { Logger } from '../log.js';

export type Check = () => Promise<unknown>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failing'>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** After this, every check reports not ready (shutdown has begun). */
  drain(): void;
}

/** gRPC health service name that reports SERVING while the process runs (liveness probes). */
export const LIVENESS_SERVICE = 'liveness';

export function createReadiness(checks: Record<string, Check>, opts: { timeoutMs?: number; log?: Logger } = {}): Readiness {
  const timeoutMs = opts.timeoutMs ?? 2000;
  let draining = false;
  const lastFailure = new Map<string, string>();
  const run = async (name: string, check: Check): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      if (lastFailure.delete(name)) opts.log?.info('readiness check recovered', { check: name });
      return true;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      // Logged when it changes, not on every probe.
      if (lastFailure.get(name) !== reason) opts.log?.warn('readiness check failing', { check: name, reason });
      lastFailure.set(name, reason);
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async check() {
      const names = Object.keys(checks);
      const results = draining ? names.map(() => false) : await Promise.all(names.map((n) => run(n, checks[n])));
      const report: ReadinessReport = { ready: !draining && results.every(Boolean), checks: {} };
      names.forEach((n, i) => (report.checks[n] = results[i] ? 'ok' : 'failing'));
      return report;
    },
    drain() {
      draining = true;
    },
  };
}

export function healthzHandler(_req: Request, res: Response): void {
  res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' });
}

/**
 * The grpc.health.v1 service on `server`: `''` and each of `services` follow readiness,
 * re-checked every `intervalMs`; `liveness` is SERVING while the process runs.
 */
export function addGrpcHealth(server: grpc.Server, services: readonly string[], readiness: Readiness, intervalMs = 5000) {
  const health = new HealthImplementation({ '': 'NOT_SERVING', [LIVENESS_SERVICE]: 'SERVING', ...Object.fromEntries(services.map((s) => [s, 'NOT_SERVING'])) });
  health.addToServer(server);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const set = (status: ServingStatus) => {
    for (const name of ['', ...services]) health.setStatus(name, status);
  };
  const refresh = async () => {
    const report = await readiness.check();
    if (!stopped) set(report.ready ? 'SERVING' : 'NOT_SERVING');
  };
  const loop = () => {
    timer = setTimeout(() => {
      void refresh().finally(() => {
        if (!stopped) loop();
      });
    }, intervalMs);
    timer.unref();
  };
  return {
    /** Checks once now, then keeps the status fresh. */
    async start() {
      await refresh();
      if (!stopped) loop();
    },
    /** Shutdown: NOT_SERVING for readiness (liveness stays SERVING until exit), no more checks. */
    stop() {
      stopped = true;
      clearTimeout(timer);
      readiness.drain();
      set('NOT_SERVING');
    },
  };
}
