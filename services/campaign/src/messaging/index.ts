// The campaign service's Kafka wiring: the outbox relay publishes dispatch jobs; the stats
// consumer keeps per-campaign counters. Topic names and message types live in shared/messages.ts.
import { createMessaging } from '../../../shared/src/kafka.js';
import type { Logger } from '../../../shared/src/log.js';
import { createCodecs, TOPICS, type StatsMessage } from '../../../shared/src/messages.js';

export const STATS_GROUP = 'campaign-stats';

export function createCampaignMessaging(opts: { brokers: string[]; prefix: string; log: Logger }) {
  const messaging = createMessaging({ brokers: opts.brokers, prefix: opts.prefix, clientId: 'campaign', log: opts.log });
  const codecs = createCodecs();
  let stopConsumer: (() => Promise<void>) | undefined;
  return {
    publish: messaging.publish,
    /** Readiness: a broker answers. */
    ping: messaging.ping,
    /** Stats messages not yet applied (metrics). */
    statsLag: () => messaging.consumerLag(STATS_GROUP, TOPICS.stats),
    async start(applyStats: (messages: StatsMessage[]) => Promise<void>) {
      await messaging.ensureTopics();
      await messaging.producer();
      const consumer = await messaging.consume({
        groupId: STATS_GROUP,
        topic: TOPICS.stats,
        codec: codecs.stats,
        maxBatch: 500,
        partitionsConsumedConcurrently: 2,
        handle: (messages) => applyStats(messages.map((m) => m.value)),
      });
      stopConsumer = consumer.stop;
    },
    async stop() {
      await stopConsumer?.().catch(() => {});
      await messaging.disconnect();
    },
  };
}
