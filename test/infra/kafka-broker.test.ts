// The project's own Kafka broker bootstrap (scripts/lib/kafka-broker.ts): the run's broker
// answers, topics come with the partition counts asked for, messages go round, and a persistent
// broker keeps its data and cluster id across a restart.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Kafka, logLevel, Partitioners, type Admin } from 'kafkajs';
import { ensureTopics, resolveKafkaJars, startKafka, type RunningKafka } from '../../scripts/lib/kafka-broker.js';
import { testKafkaBrokers } from '../support/kafka.js';

function client(brokers: string): Kafka {
  return new Kafka({ clientId: 'infra-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 200 } });
}

function unique(label: string): string {
  return `infra-${label}-${randomBytes(4).toString('hex')}`;
}

async function withAdmin<T>(brokers: string, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = client(brokers).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

async function partitionCounts(brokers: string, topics: string[]): Promise<Record<string, number>> {
  const meta = await withAdmin(brokers, (a) => a.fetchTopicMetadata({ topics }));
  return Object.fromEntries(meta.topics.map((t) => [t.name, t.partitions.length]));
}

async function produce(brokers: string, topic: string, messages: { key: string; value: string }[]): Promise<void> {
  const producer = client(brokers).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({ topic, messages });
  } finally {
    await producer.disconnect();
  }
}

/** Reads `count` messages of a topic from the beginning with a fresh group; bounded. */
async function consume(brokers: string, topic: string, count: number, timeoutMs = 60_000): Promise<{ key: string; value: string }[]> {
  const consumer = client(brokers).consumer({ groupId: unique('group'), sessionTimeout: 10_000 });
  // Distinct messages: Kafka is at least once at both ends — a produce retried after a timeout
  // writes a message again, and a rebalance while the group forms (the run's shared broker is
  // busy) hands a partition over before its offsets are committed — so one may come twice.
  // Counting repeats cut the read short of the others (CI failed on it twice).
  const seen = new Map<string, { key: string; value: string }>();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let done!: () => void;
    const enough = new Promise<void>((resolve) => (done = resolve));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const m = { key: message.key?.toString() ?? '', value: message.value?.toString() ?? '' };
        seen.set(JSON.stringify(m), m);
        if (seen.size >= count) done();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([enough, timeout]);
    clearTimeout(timer);
    return [...seen.values()];
  } finally {
    await consumer.disconnect();
  }
}

describe('infra: the project\'s own Kafka broker', function () {
  this.timeout(180_000);

  describe('the test run\'s broker', () => {
    let brokers: string;
    before(() => {
      brokers = testKafkaBrokers();
    });

    it('answers admin requests', async () => {
      const cluster = await withAdmin(brokers, (a) => a.describeCluster());
      expect(cluster.brokers).to.have.length(1);
      expect(cluster.clusterId).to.be.a('string').and.not.empty;
    });

    it('when topics are ensured, then they exist with the requested partition counts, and ensuring again changes nothing', async () => {
      const topics = [
        { topic: unique('dispatch'), numPartitions: 6 },
        { topic: unique('chunks'), numPartitions: 12 },
        { topic: unique('dead'), numPartitions: 1 },
      ];
      const names = topics.map((t) => t.topic);
      await ensureTopics(brokers, topics);
      const expected = Object.fromEntries(topics.map((t) => [t.topic, t.numPartitions]));
      expect(await partitionCounts(brokers, names)).to.deep.equal(expected);

      await ensureTopics(brokers, topics);
      expect(await partitionCounts(brokers, names)).to.deep.equal(expected);
      const listed = await withAdmin(brokers, (a) => a.listTopics());
      expect(listed.filter((n) => names.includes(n))).to.have.members(names);
    });

    it('when a topic exists with fewer partitions than asked for, then it is grown', async () => {
      const topic = unique('grow');
      await ensureTopics(brokers, [{ topic, numPartitions: 2 }]);
      await ensureTopics(brokers, [{ topic, numPartitions: 5 }]);
      expect(await partitionCounts(brokers, [topic])).to.deep.equal({ [topic]: 5 });
    });

    it('does not create topics on first use (auto-creation is off)', async () => {
      const topic = unique('auto');
      const producer = client(brokers).producer({ createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 1, initialRetryTime: 100 } });
      await producer.connect();
      try {
        const err = await producer.send({ topic, messages: [{ value: 'x' }] }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, 'send to an unknown topic').to.be.instanceOf(Error);
      } finally {
        await producer.disconnect();
      }
      expect(await withAdmin(brokers, (a) => a.listTopics())).to.not.include(topic);
    });

    it('when messages are produced, then a consumer group reads them back with their keys', async () => {
      const topic = unique('roundtrip');
      await ensureTopics(brokers, [{ topic, numPartitions: 3 }]);
      const sent = Array.from({ length: 20 }, (_, i) => ({ key: `campaign-${i % 4}`, value: `message ${i}` }));
      await produce(brokers, topic, sent);
      const got = await consume(brokers, topic, sent.length);
      expect(got).to.have.deep.members(sent);
    });
  });

  describe('a broker of its own', () => {
    let dir: string;
    let broker: RunningKafka | undefined;

    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'webpush-infra-kafka-'));
    });
    after(async () => {
      await broker?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('when a persistent broker is stopped and started again, then it keeps its cluster id and the messages produced before', async () => {
      const dataDir = path.join(dir, 'persistent');
      const topic = unique('durable');
      broker = await startKafka({ dataDir, persistent: true, heapMb: 256 });
      await ensureTopics(broker.brokers, [{ topic, numPartitions: 2 }]);
      const before = await withAdmin(broker.brokers, (a) => a.describeCluster());
      await produce(broker.brokers, topic, [{ key: 'k', value: 'kept across restarts' }]);
      await broker.stop();
      broker = undefined;
      expect(existsSync(dataDir), 'data dir kept').to.equal(true);

      broker = await startKafka({ dataDir, persistent: true, heapMb: 256 });
      const after = await withAdmin(broker.brokers, (a) => a.describeCluster());
      expect(after.clusterId).to.equal(before.clusterId);
      expect(await partitionCounts(broker.brokers, [topic])).to.deep.equal({ [topic]: 2 });
      expect(await consume(broker.brokers, topic, 1)).to.deep.equal([{ key: 'k', value: 'kept across restarts' }]);
      await broker.stop();
      broker = undefined;
    });

    it('when a throwaway broker stops, then its data dir is gone', async () => {
      const dataDir = path.join(dir, 'throwaway');
      broker = await startKafka({ dataDir, persistent: false, heapMb: 256 });
      expect(existsSync(path.join(dataDir, 'data', 'meta.properties'))).to.equal(true);
      await broker.stop();
      broker = undefined;
      expect(existsSync(dataDir)).to.equal(false);
    });
  });

  describe('resolving the jars', () => {
    const saved = process.env.KAFKA_CACHE_DIR;
    let dir: string;
    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'webpush-infra-jars-'));
      process.env.KAFKA_CACHE_DIR = dir;
    });
    after(async () => {
      if (saved === undefined) delete process.env.KAFKA_CACHE_DIR;
      else process.env.KAFKA_CACHE_DIR = saved;
      await rm(dir, { recursive: true, force: true });
    });

    it('when two runs resolve into an empty cache at once, then both get the same complete folder and no partial one is left', async () => {
      // Parallel test runs on one machine do this; one used to remove the jars under the other.
      const [a, b] = await Promise.all([resolveKafkaJars(), resolveKafkaJars()]);
      expect(a).to.equal(b);
      expect((await readdir(a)).some((f) => f.startsWith('kafka_2.13-') && f.endsWith('.jar'))).to.equal(true);
      expect((await readdir(dir)).filter((f) => f.startsWith('libs'))).to.deep.equal([path.basename(a)]);
      expect(await resolveKafkaJars()).to.equal(a);
    });
  });

  describe('missing tools', () => {
    const saved = { JAVA_HOME: process.env.JAVA_HOME, PATH: process.env.PATH, KAFKA_CACHE_DIR: process.env.KAFKA_CACHE_DIR };
    let dir: string;
    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'webpush-infra-tools-'));
    });
    afterEach(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('when Java cannot be found, then starting fails with a message saying what to install', async () => {
      process.env.JAVA_HOME = path.join(dir, 'no-java');
      const err = await startKafka({ dataDir: path.join(dir, 'k1'), persistent: false }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message).to.match(/Java \(17 or newer\) is needed/).and.match(/install/i).and.match(/KAFKA_BROKERS/);
    });

    it('when the jars are not cached and Maven cannot be found, then starting fails with a message saying what to install', async function () {
      // `java -XshowSettings` prints to stderr.
      const settings = spawnSync('java', ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
      const home = /java\.home = (.+)/.exec(settings.stderr ?? '')?.[1]?.trim();
      if (!home) this.skip();
      process.env.JAVA_HOME = home;
      process.env.PATH = path.join(dir, 'empty-path');
      process.env.KAFKA_CACHE_DIR = path.join(dir, 'cache');
      const err = await startKafka({ dataDir: path.join(dir, 'k2'), persistent: false }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message).to.match(/Maven \(`mvn`\) is needed/).and.match(/install/i);
    });
  });
});
