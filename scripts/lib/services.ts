// Starts the three services as separate Node processes (gateway, campaign, delivery) with one
// shared environment, waits until each answers, and stops them in order. Used by `npm start`,
// the end-to-end tests and the bench, so all run exactly the same processes: the compiled
// services in dist/, as the images do (brought up to date first when called from TypeScript,
// see build-output.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { freePort } from '@webpush/shared/ports.js';
import { compiledPath, ensureBuilt } from './build-output.js';
import { stopWithThisProcess } from './exit-reaper.js';
import { ROOT } from './local-env.js';

/**
 * V8 heap flags for the delivery process: its live heap is ≈ 25 MB during a 1,000,000 campaign.
 * Most of what a push allocates dies within a second (requests, results, group-commit batches):
 * large semi-spaces (V8 defaults to 8 MB for a heap capped like this) let it die young instead of
 * being promoted. V8 rounds the semi-space up to a power of two, so the choice is 16 or 32 (a
 * new space of 32 or 64 MB; the 24 set before was 32). At 1,000,000 pushes, 32 against 16 took
 * the garbage-collector threads from ≈ 24 to ≈ 17 µs per push and the main thread from ≈ 49 to
 * ≈ 41–43, for ≈ 35 MB more peak RSS (docs/history/performance-log.md). deploy/docker/delivery.Dockerfile
 * sets the same flags.
 */
export const DELIVERY_HEAP_FLAGS = '--max-old-space-size=256 --max-semi-space-size=32';

/**
 * glibc malloc arenas for the delivery process (MALLOC_ARENA_MAX). By default every thread that
 * allocates may get an arena of its own (up to 8 per core): the encryption workers allocate the
 * push bodies the main thread frees, and each arena keeps its freed memory. With 2, a 1,000,000
 * campaign peaked at 228–232 MB instead of 243–250, at the same throughput (docs/performance.md).
 * deploy/docker/delivery.Dockerfile sets the same.
 */
export const DELIVERY_MALLOC_ARENAS = '2';

export type ServiceName = 'delivery' | 'campaign' | 'gateway';

/** Each service's entry point, run compiled: dist/<path>.js. */
const ENTRY: Record<ServiceName, string> = {
  delivery: compiledPath('services/delivery/src/main.ts'),
  campaign: compiledPath('services/campaign/src/main.ts'),
  gateway: compiledPath('gateway/src/main.ts'),
};

export interface Ports {
  gateway: number;
  campaignGrpc: number;
  deliveryGrpc: number;
  deliveryHttp: number;
}

export interface StartOptions {
  databaseUrl: string;
  cursorSecret: string;
  vapidEncryptionKey: string;
  /** The operators' token for the campaign and delivery services' admin APIs; default a new one per stack. */
  operatorToken?: string;
  /** Extra variables for every service (e.g. PUSH_SERVICE_HOSTS in tests). */
  env?: Record<string, string>;
  /** Fixed ports; free ports are picked for any not given. */
  ports?: Partial<Ports>;
  /** Receives every output line of every service. */
  onLine?: (service: ServiceName, line: string) => void;
  /** How long to wait for all services to answer. */
  readyTimeoutMs?: number;
  /**
   * Restart a service that exits on its own (a crash, not stop()/restart()), with exponential
   * backoff, and say so through onLine. `npm start` supervises; tests that kill a service on
   * purpose and restart it themselves do not.
   */
  supervise?: boolean;
}

/** Backoff of supervised restarts: 0.5 s, doubling to at most 30 s; reset after 60 s of running. */
export const RESTART_BACKOFF = Object.freeze({ firstMs: 500, maxMs: 30_000, stableAfterMs: 60_000 });

export interface RunningServices {
  ports: Ports;
  gatewayUrl: string;
  deliveryHttpUrl: string;
  env: Record<ServiceName, Record<string, string>>;
  /** Sends a signal to one service (SIGKILL to crash it). */
  signal(name: ServiceName, sig: NodeJS.Signals): void;
  /** Starts one service again (after it was stopped or killed) and waits until it answers. */
  /** `env`: variables changed for this service from now on (e.g. other keys). */
  restart(name: ServiceName, env?: Record<string, string>): Promise<void>;
  /** Exit codes so far (undefined while running). */
  exitCode(name: ServiceName): number | null | undefined;
  /** How many times the supervisor restarted a service after it exited on its own. */
  restarts(name: ServiceName): number;
  stop(): Promise<void>;
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

async function httpOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

function grpcReady(target: string, deadlineMs: number): Promise<boolean> {
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.waitForReady(Date.now() + deadlineMs, (err) => {
      client.close();
      resolve(!err);
    });
  });
}

export async function startServices(opts: StartOptions): Promise<RunningServices> {
  await ensureBuilt();
  const fixed = opts.ports ?? {};
  const ports: Ports = {
    gateway: fixed.gateway ?? (await freePort()),
    campaignGrpc: fixed.campaignGrpc ?? (await freePort()),
    deliveryGrpc: fixed.deliveryGrpc ?? (await freePort()),
    deliveryHttp: fixed.deliveryHttp ?? (await freePort()),
  };
  // The ports each service listens on, re-picked (unless the caller fixed them) when another
  // process took one between picking and binding.
  const ownPorts: Record<ServiceName, (keyof Ports)[]> = {
    delivery: ['deliveryGrpc', 'deliveryHttp'],
    campaign: ['campaignGrpc'],
    gateway: ['gateway'],
  };
  const common = {
    DATABASE_URL: opts.databaseUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // The services' tokens for calling each other: new for every stack, known only to its processes.
    GATEWAY_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
    CAMPAIGN_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
    ...opts.env,
  };
  // The operator CLI's token, for the admin APIs: given to their services only, not the gateway.
  const operatorToken = opts.operatorToken ?? randomBytes(32).toString('base64');
  const envFor = (): Record<ServiceName, Record<string, string>> => ({
    delivery: {
      ...common,
      // The same V8 heap sizing as the delivery image (deploy/docker/delivery.Dockerfile): without
      // a memory limit V8 sizes the heap for the whole machine and lets it grow to ~4x the live
      // set (docs/history/performance-log.md, "What the remaining RSS is").
      NODE_OPTIONS: opts.env?.NODE_OPTIONS ?? [process.env.NODE_OPTIONS, DELIVERY_HEAP_FLAGS].filter(Boolean).join(' '),
      MALLOC_ARENA_MAX: opts.env?.MALLOC_ARENA_MAX ?? process.env.MALLOC_ARENA_MAX ?? DELIVERY_MALLOC_ARENAS,
      DELIVERY_GRPC_PORT: String(ports.deliveryGrpc),
      DELIVERY_HTTP_PORT: String(ports.deliveryHttp),
      // Ops listeners (/readyz, /metrics): like CAMPAIGN_METRICS_PORT, fixed ports would clash between stacks.
      DELIVERY_OPS_PORT: process.env.DELIVERY_OPS_PORT ?? opts.env?.DELIVERY_OPS_PORT ?? '0',
      VAPID_ENCRYPTION_KEY: opts.vapidEncryptionKey,
      OPERATOR_INTERNAL_TOKEN: operatorToken,
    },
    campaign: {
      ...common,
      CAMPAIGN_GRPC_PORT: String(ports.campaignGrpc),
      // A fixed metrics port would clash between stacks; operators set it explicitly.
      CAMPAIGN_METRICS_PORT: process.env.CAMPAIGN_METRICS_PORT ?? opts.env?.CAMPAIGN_METRICS_PORT ?? '0',
      AUDIENCE_GRPC_TARGET: `127.0.0.1:${ports.deliveryGrpc}`,
      CURSOR_SECRET: opts.cursorSecret,
      OPERATOR_INTERNAL_TOKEN: operatorToken,
    },
    gateway: {
      ...common,
      GATEWAY_PORT: String(ports.gateway),
      GATEWAY_OPS_PORT: process.env.GATEWAY_OPS_PORT ?? opts.env?.GATEWAY_OPS_PORT ?? '0',
      CAMPAIGN_GRPC_TARGET: `127.0.0.1:${ports.campaignGrpc}`,
      AUDIENCE_GRPC_TARGET: `127.0.0.1:${ports.deliveryGrpc}`,
      DELIVERY_HTTP_URL: `http://127.0.0.1:${ports.deliveryHttp}`,
    },
  });
  let env = envFor();
  const procs = new Map<ServiceName, ChildProcess>();
  const codes = new Map<ServiceName, number | null>();
  const onLine = opts.onLine ?? (() => {});
  const readyTimeoutMs = opts.readyTimeoutMs ?? 60_000;

  const addrInUse = new Set<ServiceName>();
  // Supervision state: services being stopped on purpose, restart counts and the next backoff.
  const stopping = new Set<ServiceName>();
  const restartCount = new Map<ServiceName, number>();
  const backoff = new Map<ServiceName, number>();
  const restartTimers = new Set<NodeJS.Timeout>();
  let supervising = false;
  const spawnOne = (name: ServiceName) => {
    addrInUse.delete(name);
    const child = spawn(process.execPath, [ENTRY[name]], {
      cwd: ROOT,
      env: { ...process.env, ...env[name] },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stopWithThisProcess(child);
    codes.delete(name);
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          if (buf.slice(0, i).includes('EADDRINUSE')) addrInUse.add(name);
          onLine(name, buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
    }
    const startedAt = Date.now();
    child.on('exit', (code, sig) => {
      codes.set(name, code ?? (sig ? -1 : null));
      if (supervising && !stopping.has(name) && procs.get(name) === child) supervisedRestart(name, code, sig, Date.now() - startedAt);
    });
    procs.set(name, child);
  };

  const supervisedRestart = (name: ServiceName, code: number | null, sig: NodeJS.Signals | null, ranMs: number) => {
    const delay = ranMs >= RESTART_BACKOFF.stableAfterMs ? RESTART_BACKOFF.firstMs : (backoff.get(name) ?? RESTART_BACKOFF.firstMs);
    backoff.set(name, Math.min(delay * 2, RESTART_BACKOFF.maxMs));
    const n = (restartCount.get(name) ?? 0) + 1;
    restartCount.set(name, n);
    onLine(name, `exited unexpectedly (${sig ? `signal ${sig}` : `code ${code}`}); restarting in ${(delay / 1000).toFixed(1)} s (restart ${n})`);
    const timer = setTimeout(() => {
      restartTimers.delete(timer);
      if (!supervising || stopping.has(name)) return;
      spawnOne(name);
      // A restart that fails to become ready exits again and comes back here, backing off further.
      waitReady(name).then(
        () => onLine(name, `restarted and ready (restart ${n})`),
        (err: Error) => onLine(name, `restart ${n} not ready yet: ${err.message}`),
      );
    }, delay);
    restartTimers.add(timer);
  };

  const ready: Record<ServiceName, () => Promise<boolean>> = {
    delivery: () => httpOk(`http://127.0.0.1:${ports.deliveryHttp}/healthz`).then((ok) => ok && grpcReady(`127.0.0.1:${ports.deliveryGrpc}`, 500)),
    campaign: () => grpcReady(`127.0.0.1:${ports.campaignGrpc}`, 500),
    gateway: () => httpOk(`http://127.0.0.1:${ports.gateway}/healthz`),
  };

  const waitReady = async (name: ServiceName) => {
    const until = Date.now() + readyTimeoutMs;
    while (Date.now() < until) {
      if (codes.has(name)) throw new Error(`${name} exited with code ${codes.get(name)} while starting`);
      if (await ready[name]()) return;
      await sleep(150);
    }
    throw new Error(`${name} did not become ready within ${readyTimeoutMs} ms`);
  };

  const stopOne = async (name: ServiceName, graceMs = 10_000) => {
    const child = procs.get(name);
    if (!child || codes.has(name)) return;
    stopping.add(name);
    try {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    } finally {
      stopping.delete(name);
    }
  };

  const order: ServiceName[] = ['delivery', 'campaign', 'gateway'];
  const stop = async () => {
    supervising = false;
    for (const timer of restartTimers) clearTimeout(timer);
    restartTimers.clear();
    for (const name of [...order].reverse()) await stopOne(name);
  };
  try {
    // The delivery service first: campaign asks it for audience counts; gateway needs both.
    for (const name of order) {
      for (let attempt = 1; ; attempt++) {
        env = envFor();
        spawnOne(name);
        try {
          await waitReady(name);
          break;
        } catch (err) {
          const movable = ownPorts[name].filter((p) => fixed[p] === undefined);
          if (!codes.has(name) || !addrInUse.has(name) || movable.length === 0 || attempt >= 3) throw err;
          // Another process bound one of its ports after we picked it: pick again.
          for (const p of movable) ports[p] = await freePort();
          onLine(name, `port taken by another process; retrying on new ports (attempt ${attempt + 1})`);
        }
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  supervising = opts.supervise === true;

  return {
    ports,
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    deliveryHttpUrl: `http://127.0.0.1:${ports.deliveryHttp}`,
    env,
    signal: (name, sig) => procs.get(name)?.kill(sig),
    restart: async (name, changes) => {
      if (changes) Object.assign(env[name], changes);
      await stopOne(name);
      spawnOne(name);
      await waitReady(name);
    },
    exitCode: (name) => (codes.has(name) ? codes.get(name) : undefined),
    restarts: (name) => restartCount.get(name) ?? 0,
    stop,
  };
}
