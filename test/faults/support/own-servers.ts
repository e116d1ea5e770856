// A Postgres server and a Kafka broker of a fault file's own, for the faults that stop them (the
// shared test servers must not be stopped). Both keep their data across a restart (persistent)
// and stay on fixed ports, so the stack started on them keeps using them.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startKafka, type RunningKafka } from '../../../scripts/lib/kafka-broker.js';
import { freePort } from '@webpush/shared/ports.js';
import { startOwnPostgres, type OwnPostgres } from './postgres.js';

export interface OwnServers {
  /** A database on the own Postgres, for startRig's `stack.database` (kept: the server goes with close()). */
  database: { url: string; drop(): Promise<void> };
  kafkaBrokers: string;
  /** SIGKILL to the broker's JVM. */
  killBroker(): void;
  startBroker(): Promise<void>;
  /** A fast shutdown (SIGINT: every connection cut, nothing lost). */
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  close(): Promise<void>;
}

export async function startOwnServers(databaseName: string): Promise<OwnServers> {
  const tag = randomBytes(4).toString('hex');
  const pgDir = path.join(os.tmpdir(), `webpush-faults-pg-${tag}`);
  const kafkaDir = path.join(os.tmpdir(), `webpush-faults-kafka-${tag}`);
  const pgPort = await freePort();
  const kafkaPort = await freePort();
  const startPostgres = () => startOwnPostgres(pgDir, pgPort);
  const startBroker = () => startKafka({ dataDir: kafkaDir, persistent: true, port: kafkaPort, heapMb: 384 });
  let postgres: OwnPostgres | undefined;
  let kafka: RunningKafka | undefined;
  const close = async () => {
    await kafka?.stop().catch(() => {});
    await postgres?.stop().catch(() => {});
    await rm(pgDir, { recursive: true, force: true });
    await rm(kafkaDir, { recursive: true, force: true });
  };
  try {
    [postgres, kafka] = await Promise.all([startPostgres(), startBroker()]);
    const url = await postgres.database(databaseName);
    return {
      database: { url, drop: async () => {} },
      kafkaBrokers: kafka.brokers,
      killBroker: () => process.kill(kafka!.pid, 'SIGKILL'),
      async startBroker() {
        kafka = await startBroker();
      },
      stopPostgres: () => postgres!.stop(),
      async startPostgres() {
        postgres = await startPostgres();
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
