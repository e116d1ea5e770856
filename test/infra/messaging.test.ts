// The shared Kafka module: an invalid message goes to the dead-letter topic with its reason,
// and the consumer carries on with the next one instead of crashing or stalling.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { createMessaging } from '../../services/shared/src/kafka.js';
import { createLogger } from '../../services/shared/src/log.js';
import { createCodecs, TOPICS, type StatsMessage } from '../../services/shared/src/messages.js';
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
});
