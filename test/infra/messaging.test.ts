// The shared Kafka module: an invalid message goes to the dead-letter topic with its reason,
// and the consumer carries on with the next one instead of crashing or stalling; a consumer's
// fetch brings no more of a partition than it asked for.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { createMessaging } from '@webpush/shared/kafka.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCodecs, TOPICS, type ChunkMessage, type StatsMessage } from '@webpush/contracts/messages.js';
import { testKafkaBrokers } from '../support/kafka.js';

describe('messaging module', function () {
  this.timeout(60_000);
  const prefix = `msg-${randomBytes(3).toString('hex')}.`;
  let messaging: ReturnType<typeof createMessaging>;
  const codecs = createCodecs();

  before(() => {
    messaging = createMessaging({ brokers: [testKafkaBrokers()], clientId: 'messaging-test', log: createLogger('test', 'error'), prefix });
  });
  after(() => messaging?.disconnect());

  it('when a malformed message arrives, then it is dead-lettered with the reason and the next valid one is handled', async () => {
    await messaging.ensureTopics();
    const valid: StatsMessage = { type: 'campaign.stats', version: 1, campaignId: randomUUID(), sent: 1, failed: 0, expired: 0, impressions: 0, clicks: 0, state: 'sending' };
    await messaging.publish(TOPICS.stats, [
      { key: 'a', value: Buffer.from('{not json') },
      { key: 'b', value: Buffer.from(JSON.stringify({ ...valid, sent: -5 })) },
      { key: valid.campaignId, value: codecs.stats.encode(valid) },
    ]);
    const handled: StatsMessage[] = [];
    const consumer = await messaging.consume({
      groupId: 'stats-test',
      topic: TOPICS.stats,
      codec: codecs.stats,
      handle: async (messages) => void handled.push(...messages.map((m) => m.value)),
    });
    const until = Date.now() + 20_000;
    while (handled.length < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await consumer.stop();
    expect(handled).to.deep.equal([valid]);

    const kafka = new Kafka({ brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING });
    const reader = kafka.consumer({ groupId: `dl-${randomBytes(3).toString('hex')}`, maxWaitTimeInMs: 100 });
    const dead: { reason: string; topic: string; value: string }[] = [];
    await reader.connect();
    await reader.subscribe({ topic: prefix + TOPICS.deadLetter, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void dead.push(JSON.parse(message.value!.toString())) });
    const until2 = Date.now() + 20_000;
    while (dead.length < 2 && Date.now() < until2) await new Promise((r) => setTimeout(r, 100));
    await reader.disconnect();
    expect(dead.map((d) => d.reason).sort()).to.deep.equal(['message does not match its schema: /sent must be >= 0', 'message is not valid JSON']);
    expect(dead.every((d) => d.topic === TOPICS.stats)).to.equal(true);
    expect(dead.map((d) => d.value)).to.include('{not json');
  });

  it('when a consumer limits the bytes fetched per partition, then each fetch brings no more of a partition than that', async () => {
    await messaging.ensureTopics();
    // Twelve chunks of about 18 kB on one partition (one key), each in a produce call, hence a
    // record batch, of its own: the broker cuts fetches between record batches.
    const campaignId = randomUUID();
    const sent: ChunkMessage[] = Array.from({ length: 12 }, (_, chunkNo) => ({
      type: 'delivery.chunk', version: 1, campaignId, siteId: randomUUID(), chunkNo,
      subscriberIds: Array.from({ length: 1000 }, (_, i) => String(100_000_000_000_000 + chunkNo * 1000 + i)),
    }));
    for (const chunk of sent) await messaging.publish(TOPICS.chunks, [{ key: `fetch-limit-${campaignId}`, value: codecs.chunk.encode(chunk) }]);

    const handed: number[][] = [];
    const consumer = await messaging.consume({
      groupId: `fetch-limit-${campaignId}`,
      topic: TOPICS.chunks,
      codec: codecs.chunk,
      maxBatch: 1000, // one call per fetched batch, so the calls show the fetches
      maxBytesPerPartition: 40 * 1024,
      handle: async (messages) => void handed.push(messages.filter((m) => m.value.campaignId === campaignId).map((m) => m.value.chunkNo)),
    });
    const until = Date.now() + 30_000;
    while (handed.flat().length < sent.length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await consumer.stop();
    expect(handed.flat()).to.deep.equal(sent.map((c) => c.chunkNo));
    // 40 kB holds two of these chunks; with Kafka's default of 1 MB one fetch brought all twelve.
    expect(Math.max(...handed.map((h) => h.length))).to.be.at.most(2);
  });
});
