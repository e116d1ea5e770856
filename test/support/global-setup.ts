// Mocha global fixture: one Postgres server and one Kafka broker for the whole test run.
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { startEmbeddedPostgres, type RunningPostgres } from '@webpush/shared/postgres.js';
import { startKafka, type RunningKafka } from '../../scripts/lib/kafka-broker.js';
import { TEST_SERVER_URL_VAR } from './postgres.js';
import { TEST_KAFKA_BROKERS_VAR } from './kafka.js';

/**
 * Property tests are reproducible: a run uses one fast-check seed for every property that does
 * not name its own, fixed unless `FC_SEED` names another (`FC_SEED=random` picks one and prints
 * it), so CI fails the same way every time and a failure found while exploring can be replayed.
 */
const FIXED_FC_SEED = 20261204;
const fcSeed = process.env.FC_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FC_SEED ?? FIXED_FC_SEED);
if (!Number.isSafeInteger(fcSeed)) throw new Error(`FC_SEED must be an integer or "random", got ${process.env.FC_SEED}`);
fc.configureGlobal({ seed: fcSeed });

let embedded: RunningPostgres | undefined;
let kafka: RunningKafka | undefined;

async function setupPostgres(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env[TEST_SERVER_URL_VAR] = process.env.DATABASE_URL;
    return;
  }
  const dataDir = path.join(os.tmpdir(), `webpush-test-pg-${randomBytes(4).toString('hex')}`);
  embedded = await startEmbeddedPostgres({ dataDir, persistent: false });
  process.env[TEST_SERVER_URL_VAR] = embedded.url;
}

async function setupKafka(): Promise<void> {
  if (process.env.KAFKA_BROKERS) {
    process.env[TEST_KAFKA_BROKERS_VAR] = process.env.KAFKA_BROKERS;
    return;
  }
  const started = Date.now();
  const dataDir = path.join(os.tmpdir(), `webpush-test-kafka-${randomBytes(4).toString('hex')}`);
  kafka = await startKafka({ dataDir, persistent: false, heapMb: 384, log: (line) => console.log(line) });
  process.env[TEST_KAFKA_BROKERS_VAR] = kafka.brokers;
  console.log(`kafka: started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * A run stopped by a signal (Ctrl-C, `timeout`, a CI limit) would leave the broker and the
 * database server running: mocha's own process forwards SIGINT and then SIGTERM to this one,
 * whose default is to die at once. Both are stopped first (for at most STOP_ON_SIGNAL_MS), then
 * the run exits as the signal would have; exiting stops the services and simulators the suites
 * started (scripts/lib/exit-reaper.ts).
 */
const STOP_ON_SIGNAL_MS = 20_000;
let stopOnSignalsInstalled = false;

function stopOnSignals(): void {
  if (stopOnSignalsInstalled) return;
  stopOnSignalsInstalled = true;
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const code = 128 + os.constants.signals[signal];
      console.error(`\ntest run stopped by ${signal}: stopping the test Postgres and Kafka…`);
      setTimeout(() => process.exit(code), STOP_ON_SIGNAL_MS).unref();
      void mochaGlobalTeardown()
        .catch((err: unknown) => console.error(`stopping them failed: ${(err as Error).message}`))
        .finally(() => process.exit(code));
    });
  }
}

export async function mochaGlobalSetup(): Promise<void> {
  stopOnSignals();
  console.log(`fast-check seed ${fcSeed} (FC_SEED=<n> replays a run, FC_SEED=random explores)`);
  // Both servers start side by side; if one fails, the other is stopped before reporting.
  const results = await Promise.allSettled([setupPostgres(), setupKafka()]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await mochaGlobalTeardown().catch(() => {});
    throw failed.reason;
  }
}

export async function mochaGlobalTeardown(): Promise<void> {
  await Promise.all([embedded?.stop(), kafka?.stop()]);
  embedded = undefined;
  kafka = undefined;
}
