// A campaign's chunks are spread evenly over the chunk topic's partitions (messages.ts
// chunkPartition), by the function and through the producer to a real broker: each partition —
// each delivery instance — gets the same share of a campaign, give or take one chunk.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { Kafka, logLevel } from 'kafkajs';
import { createMessaging } from '@webpush/shared/kafka.js';
import { createLogger } from '@webpush/shared/log.js';
import { chunkKey, chunkPartition, TOPIC_PARTITIONS, TOPICS } from '@webpush/contracts/messages.js';
import { testKafkaBrokers } from '../../../../test/support/kafka.js';

const spreadOf = (counts: number[]) => Math.max(...counts) - Math.min(...counts);

describe('chunk partitions', () => {
  it('consecutive chunks of a campaign cover every partition in turn, whatever the campaign id, partition count and chunk count', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 500 }), (campaignId, partitions, chunks) => {
        const counts = new Array<number>(partitions).fill(0);
        for (let chunkNo = 0; chunkNo < chunks; chunkNo++) {
          const p = chunkPartition(chunkKey(campaignId, chunkNo), partitions);
          expect(p).to.be.a('number');
          expect(p! >= 0 && p! < partitions && Number.isInteger(p)).to.equal(true);
          counts[p!] += 1;
        }
        expect(spreadOf(counts)).to.be.at.most(1);
      }),
    );
  });

  it('campaigns start on different partitions', () => {
    const firsts = new Set(Array.from({ length: 48 }, () => chunkPartition(chunkKey(randomUUID(), 0), 12)));
    expect(firsts.size).to.be.greaterThan(4);
  });

  it('a key of another shape is left to the default partitioner', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (key) => {
        fc.pre(!/^.+:(0|[1-9]\d{0,8})$/.test(key));
        expect(chunkPartition(key, 12)).to.equal(null);
      }),
    );
    expect(chunkPartition(chunkKey(randomUUID(), 3), 0)).to.equal(null);
  });

  it('the producer puts 5 chunks of a campaign on each of the 12 partitions of the chunk topic, and other topics keep hashing their keys', async function () {
    this.timeout(60_000);
    const prefix = `chunk-partitions-${randomBytes(3).toString('hex')}.`;
    const log = createLogger('chunk-partitions-test', 'error');
    const messaging = createMessaging({ brokers: [testKafkaBrokers()], prefix, clientId: 'chunk-partitions-test', log });
    const admin = new Kafka({ brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING }).admin();
    try {
      await messaging.ensureTopics();
      await admin.connect();
      const partitions = TOPIC_PARTITIONS[TOPICS.chunks];
      const campaignId = randomUUID();
      const chunks = Array.from({ length: 5 * partitions }, (_, chunkNo) => ({ key: chunkKey(campaignId, chunkNo), value: Buffer.from('{}') }));
      await messaging.publish(TOPICS.chunks, chunks);
      const offsets = await admin.fetchTopicOffsets(prefix + TOPICS.chunks);
      expect(offsets.map((o) => Number(o.high)).sort()).to.deep.equal(new Array(partitions).fill(5));
      // The same keys on another topic: hashed, so one key always lands on one partition.
      await messaging.publish(TOPICS.stats, [{ key: chunks[0].key, value: Buffer.from('{}') }, { key: chunks[0].key, value: Buffer.from('{}') }]);
      const stats = await admin.fetchTopicOffsets(prefix + TOPICS.stats);
      expect(stats.map((o) => Number(o.high)).filter((n) => n > 0)).to.deep.equal([2]);
    } finally {
      await admin.disconnect();
      await messaging.disconnect();
    }
  });
});
