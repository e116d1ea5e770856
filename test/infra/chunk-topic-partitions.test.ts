// The chunk topic's partitions are a setting (KAFKA_CHUNK_PARTITIONS): `cli kafka create-topics`
// and every service's start create the topic with it, grow a topic that has fewer (chunks carry
// no order, so growing is safe while sending), and leave one that has more as it is (Kafka never
// removes partitions), saying so. The other topics keep their fixed counts.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { createKafkaTopics } from '../../scripts/lib/kafka-topics.js';
import { createMessaging } from '@webpush/shared/kafka.js';
import type { Logger } from '@webpush/shared/log.js';
import { TOPIC_PARTITIONS, TOPICS } from '@webpush/contracts/messages.js';
import { testKafkaBrokers } from '../support/kafka.js';

describe('chunk topic partitions (KAFKA_CHUNK_PARTITIONS)', function () {
  this.timeout(60_000);
  const prefix = `chunkparts-${randomBytes(3).toString('hex')}.`;
  let admin: Admin;
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, warn: (msg) => void warnings.push(msg), error() {}, child: () => log };

  const onBroker = async () => {
    const { topics } = await admin.fetchTopicMetadata({ topics: Object.values(TOPICS).map((t) => prefix + t) });
    return Object.fromEntries(topics.map((t) => [t.name.slice(prefix.length), t.partitions.length]));
  };
  const startWith = async (chunkPartitions: number) => {
    const messaging = createMessaging({ brokers: [testKafkaBrokers()], prefix, chunkPartitions, clientId: 'chunk-partitions-test', log });
    try {
      return await messaging.ensureTopics();
    } finally {
      await messaging.disconnect();
    }
  };

  before(async () => {
    admin = new Kafka({ brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  });
  after(() => admin?.disconnect());

  it('when create-topics runs with KAFKA_CHUNK_PARTITIONS, then the chunk topic has that many partitions and the others their fixed counts', async () => {
    const result = await createKafkaTopics({ KAFKA_BROKERS: testKafkaBrokers(), KAFKA_TOPIC_PREFIX: prefix, KAFKA_CHUNK_PARTITIONS: '5' });
    const expected = { ...TOPIC_PARTITIONS, [TOPICS.chunks]: 5 };
    expect(await onBroker()).to.deep.equal(expected);
    // What the command prints is what the broker has.
    expect(Object.fromEntries(result.topics.map((t) => [t.name.slice(prefix.length), t.partitions]))).to.deep.equal(expected);
  });

  it('when a service starts with a higher setting, then the chunk topic grows to it; with a lower one, it keeps its partitions and warns', async () => {
    expect((await startWith(8))[TOPICS.chunks]).to.equal(8);
    expect((await onBroker())[TOPICS.chunks]).to.equal(8);
    expect(warnings).to.deep.equal([]);

    expect((await startWith(3))[TOPICS.chunks]).to.equal(8);
    expect((await onBroker())[TOPICS.chunks]).to.equal(8);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/more partitions than KAFKA_CHUNK_PARTITIONS/);
    // Only the chunk topic follows the setting.
    expect(await onBroker()).to.deep.equal({ ...TOPIC_PARTITIONS, [TOPICS.chunks]: 8 });
  });

  it('when the setting is not a positive integer, then create-topics stops with an error naming it', async () => {
    for (const bad of ['0', '-3', '2.5', 'many']) {
      let err: Error | undefined;
      await createKafkaTopics({ KAFKA_BROKERS: testKafkaBrokers(), KAFKA_TOPIC_PREFIX: prefix, KAFKA_CHUNK_PARTITIONS: bad }).catch((e: Error) => (err = e));
      expect(err?.message, bad).to.match(/KAFKA_CHUNK_PARTITIONS/);
    }
  });
});
