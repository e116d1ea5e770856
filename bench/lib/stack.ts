// The stack under test, started the way production runs it: a throwaway embedded Postgres, a
// throwaway Kafka broker, the three services as separate processes (scripts/lib/services.ts) and
// the push-service simulator in sink mode as a process of its own, so its CPU is not the driver's.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKafka, type RunningKafka } from '../../scripts/lib/kafka-broker.js';
import { ROOT } from '../../scripts/lib/local-env.js';
import { startServices, type RunningServices } from '../../scripts/lib/services.js';
import { freePort } from '@webpush/shared/ports.js';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { startEmbeddedPostgres, type RunningPostgres } from '@webpush/shared/postgres.js';
import { announcedWorkers, findChild } from './proc.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface SimulatorStats {
  accepted: number;
  rejected: { total: number; byReason: Record<string, number> };
  decrypted: number;
  unknownAccepted: number;
  connections: number;
  http2Sessions: number;
  vapid: { verifications: number; distinctAuthorizations: number };
  /** Pushes accepted for a message already accepted (tools/push-simulator). */
  duplicates: number;
  /** Reports its devices made to the tracking endpoint (a device simulator: StackOptions.devices). */
  device: { impressionsSent: number; clicksSent: number; errors: number; dropped: number };
}

export interface Simulator {
  origin: string;
  /** What it was started with (LATENCY_MS, MAX_CONCURRENT_STREAMS); 0 / undefined: the defaults. */
  latencyMs: number;
  maxConcurrentStreams: number | undefined;
  /** CAPACITY_PER_SECOND; undefined: no limit. */
  capacityPerSecond: number | undefined;
  caCertFile: string;
  ca: string;
  pid: number;
  stats(): Promise<SimulatorStats>;
  /** A browser's subscription issued by the simulator (POST /_sim/subscriptions): it can decrypt what is pushed to it. */
  subscribe(applicationServerKey: string): Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; id: string }>;
  /** The last messages it decrypted (every one of a device simulator's; a sink keeps 1,000), with when each was received (its Date.now()). */
  messages(): Promise<{ id: string; subscriptionId: string; payload: string; receivedAt: number }[]>;
  stop(): Promise<void>;
}

export interface BenchStack {
  pg: RunningPostgres;
  databaseUrl: string;
  pool: Pool;
  kafka: RunningKafka;
  services: RunningServices;
  sim: Simulator;
  /** A far push service (latency, a stream limit), when asked for: StackOptions.far. */
  farSim?: Simulator;
  /** A slow push service (a capacity per second), when asked for: StackOptions.slow. */
  slowSim?: Simulator;
  /** A push service whose devices report impressions and clicks, when asked for: StackOptions.devices. */
  deviceSim?: Simulator;
  secrets: { cursorSecret: string; vapidEncryptionKey: string };
  pids: { delivery: number; campaign: number; gateway: number; simulator: number; kafka: number; farSimulator?: number; slowSimulator?: number; deviceSimulator?: number };
  /** Thread ids of `pid` that are worker threads (see proc.ts threadRoleCpu); empty when unknown. */
  workerThreads(pid: number): Set<number>;
  /** Service output lines kept for failure messages. */
  logs: string[];
}

/** Things to stop, newest first; run on success, failure and Ctrl-C alike. */
export class Cleanup {
  private readonly steps: { name: string; fn: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;
  add(name: string, fn: () => Promise<void>): void {
    this.steps.push({ name, fn });
  }
  run(log: (line: string) => void): Promise<void> {
    return (this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.fn();
        } catch (err) {
          log(`cleanup: stopping ${step.name} failed: ${(err as Error).message}`);
        }
      }
    })());
  }
}

function requestJson<T>(url: string, ca: string, body?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const options = { ca, agent: false, timeout: 10_000, method: payload === undefined ? 'GET' : 'POST', headers: payload === undefined ? {} : { 'content-type': 'application/json' } };
    const req = https.request(url, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as T);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`timeout ${options.method} ${url}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export interface FarOptions {
  latencyMs: number;
  maxConcurrentStreams: number;
}

export interface SlowOptions {
  /** Pushes the service handles a second, one after another (CAPACITY_PER_SECOND). */
  capacityPerSecond: number;
}

export interface DeviceOptions {
  /** Where the devices report: the gateway's origin (its port is fixed before the services start). */
  trackingBaseUrl: string;
  /** Share of decrypted pushes shown (an impression), and of those clicked (IMPRESSION_RATE, CLICK_RATE). */
  impressionRate: number;
  clickRate: number;
}

/**
 * The simulator's own entry point as a process; `far` makes it a distant push service, `slow` one
 * of limited capacity, `devices` one whose subscriptions (issued by it) decrypt every push and
 * report impressions and clicks like service workers.
 */
export async function startSimulator(log: (line: string) => void, name: string, far?: FarOptions, slow?: SlowOptions, devices?: DeviceOptions): Promise<Simulator> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tools/push-simulator/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      MODE: 'sink',
      SINK_SAMPLE_EVERY: '100',
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
      ...(far ? { LATENCY_MS: String(far.latencyMs), MAX_CONCURRENT_STREAMS: String(far.maxConcurrentStreams) } : {}),
      ...(slow ? { CAPACITY_PER_SECOND: String(slow.capacityPerSecond) } : {}),
      ...(devices
        ? { SINK_SAMPLE_EVERY: '1', TRACKING_BASE_URL: devices.trackingBaseUrl, IMPRESSION_RATE: String(devices.impressionRate), CLICK_RATE: String(devices.clickRate), DEVICE_SEED: '365' }
        : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = false;
  const exit = new Promise<void>((r) => child.once('exit', () => ((exited = true), r())));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => log(`[${name}] ${d.trimEnd()}`));
  const info = await new Promise<{ origin: string; caCertFile: string; pid: number }>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within 30 s`));
    }, 30_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(buf.slice(0, nl)));
        } catch (err) {
          reject(err);
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} while starting`));
    });
  });
  const ca = readFileSync(info.caCertFile, 'utf8');
  return {
    origin: info.origin,
    latencyMs: far?.latencyMs ?? 0,
    maxConcurrentStreams: far?.maxConcurrentStreams,
    capacityPerSecond: slow?.capacityPerSecond,
    caCertFile: info.caCertFile,
    ca,
    pid: child.pid!,
    stats: () => requestJson<SimulatorStats>(`${info.origin}/_sim/stats`, ca),
    subscribe: (applicationServerKey) => requestJson(`${info.origin}/_sim/subscriptions`, ca, { applicationServerKey }),
    messages: async () => (await requestJson<{ messages: { id: string; subscriptionId: string; payload: string; receivedAt: number }[] }>(`${info.origin}/_sim/messages`, ca)).messages,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    },
  };
}

export interface StackOptions {
  log: (line: string) => void;
  /** Extra environment for the services. Not NODE_OPTIONS: see nodeOptions. */
  serviceEnv?: Record<string, string>;
  /** Added to every service's NODE_OPTIONS (e.g. the --profile hook); the delivery keeps its heap flags. */
  nodeOptions?: string[];
  /** Also start a far push service (a second simulator) whose origin the delivery trusts. */
  far?: FarOptions;
  /** Also start a slow push service (another simulator) whose origin the delivery trusts. */
  slow?: SlowOptions;
  /** Also start a push service whose devices report impressions and clicks to the gateway. */
  devices?: Omit<DeviceOptions, 'trackingBaseUrl'>;
}

export async function startBenchStack(cleanup: Cleanup, opts: StackOptions): Promise<BenchStack> {
  const { log } = opts;
  const tmp = path.join(os.tmpdir(), `webpush-bench-${process.pid}-${randomBytes(3).toString('hex')}`);
  // Postgres and Kafka remove their own data directories when stopped; this removes their parent, last.
  cleanup.add('bench data directory', async () => rmSync(tmp, { recursive: true, force: true }));
  log('starting Postgres (embedded, throwaway) and Kafka (throwaway)…');
  const [pg, kafka] = await Promise.all([
    startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), persistent: false, settings: ['shared_preload_libraries=pg_stat_statements'] }).then((p) => {
      cleanup.add('postgres', () => p.stop());
      return p;
    }),
    startKafka({ dataDir: path.join(tmp, 'kafka'), persistent: false, heapMb: 512 }).then((k) => {
      cleanup.add('kafka', () => k.stop());
      return k;
    }),
  ]);
  log(`  postgres ${pg.url.replace(/\/\/[^@]+@/, '//')}, kafka ${kafka.brokers}`);
  const databaseUrl = await pg.database('webpush_bench');

  // Thread notes (thread-roles.cjs) and the CA bundle live here; removed last.
  const work = mkdtempSync(path.join(os.tmpdir(), 'webpush-bench-stack-'));
  cleanup.add('bench work directory', async () => rmSync(work, { recursive: true, force: true }));
  const threadsDir = path.join(work, 'threads');
  log(`starting the push-service simulator (sink mode, own process)${opts.far ? ` and a far one (${opts.far.latencyMs} ms, ${opts.far.maxConcurrentStreams} streams per connection)` : ''}…`);
  const sim = await startSimulator(log, 'simulator');
  cleanup.add('push simulator', () => sim.stop());
  log(`  simulator ${sim.origin} (pid ${sim.pid})`);
  let farSim: Simulator | undefined;
  if (opts.far) {
    farSim = await startSimulator(log, 'far simulator', opts.far);
    const far = farSim;
    cleanup.add('far push simulator', () => far.stop());
    log(`  far simulator ${far.origin} (pid ${far.pid}, LATENCY_MS=${opts.far.latencyMs}, MAX_CONCURRENT_STREAMS=${opts.far.maxConcurrentStreams})`);
  }
  let slowSim: Simulator | undefined;
  if (opts.slow) {
    slowSim = await startSimulator(log, 'slow simulator', undefined, opts.slow);
    const slow = slowSim;
    cleanup.add('slow push simulator', () => slow.stop());
    log(`  slow simulator ${slow.origin} (pid ${slow.pid}, CAPACITY_PER_SECOND=${opts.slow.capacityPerSecond})`);
  }
  // The devices report to the gateway, which starts later: its port is chosen now.
  const gatewayPort = opts.devices ? await freePort() : undefined;
  let deviceSim: Simulator | undefined;
  if (opts.devices) {
    deviceSim = await startSimulator(log, 'device simulator', undefined, undefined, { ...opts.devices, trackingBaseUrl: `http://127.0.0.1:${gatewayPort}` });
    const devices = deviceSim;
    cleanup.add('device push simulator', () => devices.stop());
    log(`  device simulator ${devices.origin} (pid ${devices.pid}, impressions ${opts.devices.impressionRate}, clicks ${opts.devices.clickRate} of them)`);
  }
  // PUSH_EXTRA_CA_FILE names one file; each simulator has its own throwaway CA, so the delivery
  // gets them all in one PEM bundle. PUSH_TEST_HOSTS (127.0.0.1, any port) already admits every origin.
  let caFile = sim.caCertFile;
  if (farSim || slowSim || deviceSim) {
    caFile = path.join(work, 'simulators-ca.pem');
    writeFileSync(caFile, [sim, farSim, slowSim, deviceSim].flatMap((s) => (s ? [s.ca] : [])).join('\n'));
  }

  const secrets = { cursorSecret: randomBytes(32).toString('base64'), vapidEncryptionKey: randomBytes(32).toString('base64') };
  const logs: string[] = [];
  log('starting delivery, campaign and gateway…');
  mkdirSync(threadsDir);
  // The thread-roles preload (and opts.nodeOptions) must reach every service without replacing
  // the delivery's heap flags: startServices gives the delivery process.env.NODE_OPTIONS plus
  // DELIVERY_HEAP_FLAGS only when the env it is handed has no NODE_OPTIONS (scripts/lib/services.ts),
  // and the others inherit process.env. So the preloads go into this process's NODE_OPTIONS while
  // the services are spawned, and it is put back afterwards (this process's own options are read
  // once at its start; nothing else is spawned meanwhile).
  const savedNodeOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = [savedNodeOptions, `--require ${path.join(HERE, 'thread-roles.cjs')}`, ...(opts.nodeOptions ?? [])].filter(Boolean).join(' ');
  const startingServices = startServices({
    databaseUrl,
    cursorSecret: secrets.cursorSecret,
    vapidEncryptionKey: secrets.vapidEncryptionKey,
    env: {
      KAFKA_BROKERS: kafka.brokers,
      PUSH_TEST_HOSTS: '127.0.0.1,localhost',
      PUSH_EXTRA_CA_FILE: caFile,
      BENCH_THREADS_DIR: threadsDir,
      // The benchmark drives the API from one address; the limits are for browsers.
      SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
      TRACKING_RATE_LIMIT_PER_MINUTE: '0',
      // …and from one API key: the per-key /v2 limit would cap the throughput it measures.
      API_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...opts.serviceEnv,
    },
    onLine: (name, line) => {
      logs.push(`[${name}] ${line}`);
      if (logs.length > 2000) logs.splice(0, 1000);
      if (process.env.BENCH_VERBOSE) log(`[${name}] ${line}`);
    },
    readyTimeoutMs: 120_000,
    ...(gatewayPort ? { ports: { gateway: gatewayPort } } : {}),
  });
  const services = await startingServices.finally(() => {
    if (savedNodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = savedNodeOptions;
  });
  cleanup.add('services', () => services.stop());
  const pool = createPool(databaseUrl, { max: 8, applicationName: 'webpush-bench' });
  cleanup.add('bench pool', () => pool.end());
  // Where Postgres's time per push goes, by statement (parts/delivery.ts postgresWork).
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');

  // The entry without its extension: the services may run from TypeScript (main.ts under tsx)
  // or compiled (dist/…/main.js).
  const pidOf = (entry: string) => {
    const pid = findChild(process.pid, entry);
    if (!pid) throw new Error(`could not find the process running ${entry}`);
    return pid;
  };
  const pids = {
    delivery: pidOf('services/delivery/src/main.'),
    campaign: pidOf('services/campaign/src/main.'),
    gateway: pidOf('gateway/src/main.'),
    simulator: sim.pid,
    kafka: kafka.pid,
    ...(farSim ? { farSimulator: farSim.pid } : {}),
    ...(slowSim ? { slowSimulator: slowSim.pid } : {}),
    ...(deviceSim ? { deviceSimulator: deviceSim.pid } : {}),
  };
  log(`  gateway ${services.gatewayUrl}; pids delivery ${pids.delivery}, campaign ${pids.campaign}, gateway ${pids.gateway}`);
  return { pg, databaseUrl, pool, kafka, services, sim, farSim, slowSim, deviceSim, secrets, pids, logs, workerThreads: (pid) => announcedWorkers(threadsDir, pid) };
}
