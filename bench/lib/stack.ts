// The stack under test, started the way production runs it: a throwaway embedded Postgres, a
// throwaway Kafka broker, the three services as separate processes (scripts/lib/services.ts) and
// the push-service simulator in sink mode as a process of its own, so its CPU is not the driver's.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { startKafka, type RunningKafka } from '../../scripts/lib/kafka-broker.js';
import { ROOT } from '../../scripts/lib/local-env.js';
import { startServices, type RunningServices } from '../../scripts/lib/services.js';
import { createPool, type Pool } from '../../services/shared/src/db.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../../services/shared/src/postgres.js';
import { findChild } from './proc.js';

export interface SimulatorStats {
  accepted: number;
  rejected: { total: number; byReason: Record<string, number> };
  decrypted: number;
  unknownAccepted: number;
  connections: number;
  http2Sessions: number;
  vapid: { verifications: number; distinctAuthorizations: number };
}

export interface Simulator {
  origin: string;
  caCertFile: string;
  ca: string;
  pid: number;
  stats(): Promise<SimulatorStats>;
  stop(): Promise<void>;
}

export interface BenchStack {
  pg: RunningPostgres;
  databaseUrl: string;
  pool: Pool;
  kafka: RunningKafka;
  services: RunningServices;
  sim: Simulator;
  secrets: { cursorSecret: string; vapidEncryptionKey: string };
  pids: { delivery: number; campaign: number; gateway: number; simulator: number; kafka: number };
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

function getJson<T>(url: string, ca: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, agent: false, timeout: 10_000 }, (res) => {
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
    req.on('timeout', () => req.destroy(new Error(`timeout GET ${url}`)));
    req.on('error', reject);
  });
}

async function startSimulator(log: (line: string) => void): Promise<Simulator> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tools/push-simulator/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, MODE: 'sink', SINK_SAMPLE_EVERY: '100', LOG_LEVEL: 'info', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = false;
  const exit = new Promise<void>((r) => child.once('exit', () => ((exited = true), r())));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => log(`[simulator] ${d.trimEnd()}`));
  const info = await new Promise<{ origin: string; caCertFile: string; pid: number }>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('push simulator did not start within 30 s')), 30_000);
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
      reject(new Error(`push simulator exited with code ${code} while starting`));
    });
  });
  const ca = readFileSync(info.caCertFile, 'utf8');
  return {
    origin: info.origin,
    caCertFile: info.caCertFile,
    ca,
    pid: child.pid!,
    stats: () => getJson<SimulatorStats>(`${info.origin}/_sim/stats`, ca),
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
  /** Extra environment for the services (e.g. NODE_OPTIONS=--cpu-prof). */
  serviceEnv?: Record<string, string>;
}

export async function startBenchStack(cleanup: Cleanup, opts: StackOptions): Promise<BenchStack> {
  const { log } = opts;
  const tmp = path.join(os.tmpdir(), `webpush-bench-${process.pid}-${randomBytes(3).toString('hex')}`);
  log('starting Postgres (embedded, throwaway) and Kafka (throwaway)…');
  const [pg, kafka] = await Promise.all([
    startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), persistent: false }).then((p) => {
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

  log('starting the push-service simulator (sink mode, own process)…');
  const sim = await startSimulator(log);
  cleanup.add('push simulator', () => sim.stop());
  log(`  simulator ${sim.origin} (pid ${sim.pid})`);

  const secrets = { cursorSecret: randomBytes(32).toString('base64'), vapidEncryptionKey: randomBytes(32).toString('base64') };
  const logs: string[] = [];
  log('starting delivery, campaign and gateway…');
  const services = await startServices({
    databaseUrl,
    cursorSecret: secrets.cursorSecret,
    vapidEncryptionKey: secrets.vapidEncryptionKey,
    env: {
      KAFKA_BROKERS: kafka.brokers,
      PUSH_TEST_HOSTS: '127.0.0.1,localhost',
      PUSH_EXTRA_CA_FILE: sim.caCertFile,
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
  });
  cleanup.add('services', () => services.stop());
  const pool = createPool(databaseUrl, { max: 8, applicationName: 'webpush-bench' });
  cleanup.add('bench pool', () => pool.end());

  const pidOf = (entry: string) => {
    const pid = findChild(process.pid, entry);
    if (!pid) throw new Error(`could not find the process running ${entry}`);
    return pid;
  };
  const pids = {
    delivery: pidOf('services/delivery/src/main.ts'),
    campaign: pidOf('services/campaign/src/main.ts'),
    gateway: pidOf('gateway/src/main.ts'),
    simulator: sim.pid,
    kafka: kafka.pid,
  };
  log(`  gateway ${services.gatewayUrl}; pids delivery ${pids.delivery}, campaign ${pids.campaign}, gateway ${pids.gateway}`);
  return { pg, databaseUrl, pool, kafka, services, sim, secrets, pids, logs };
}
