// The campaign service's Kafka wiring: the outbox relay publishes dispatch jobs; the stats
// consumer keeps per-campaign counters; the people consumer applies people's signals to automations. Topic names and message types live in @webpush/contracts/messages.ts.
//
// The two start apart: the producer (all the relay needs) at once; the stats consumer in the
// background, since joining its group can take as long as a rebalance (a restarted instance
// waits for the group to give up its previous self: ~20 s), and counters arriving a little
// later delay nothing, while a dispatch waiting for them would.
import { createMessaging, type ConsumeOptions } from '@webpush/shared/kafka.js';
import type { Logger } from '@webpush/shared/log.js';
import { createCodecs, TOPICS, type PeopleMessage, type StatsMessage } from '@webpush/contracts/messages.js';

export const STATS_GROUP = 'campaign-stats';
export const PEOPLE_GROUP = 'campaign-people';
const STOP_WAIT_MS = 10_000;

export function createCampaignMessaging(opts: { brokers: string[]; prefix: string; chunkPartitions: number; log: Logger; consumerRetryMs?: number; requestQueueFix?: boolean }) {
  const messaging = createMessaging({ brokers: opts.brokers, prefix: opts.prefix, chunkPartitions: opts.chunkPartitions, clientId: 'campaign', log: opts.log, requestQueueFix: opts.requestQueueFix });
  const codecs = createCodecs();
  const retryMs = opts.consumerRetryMs ?? 5000;
  const stopConsumers: (() => Promise<void>)[] = [];
  const consuming: Promise<void>[] = [];
  let stopped = false;
  const wakeRetries = new Set<() => void>();

  /** One consumer joined in the background, retrying while it cannot join. */
  const consumeInBackground = async <T>(name: string, consume: Omit<ConsumeOptions<T>, 'onJoin'>) => {
    let joinedOnce = false;
    // Bounded by stop(): each failed attempt waits retryMs (cut short by stop).
    while (!stopped) {
      try {
        const consumer = await messaging.consume({
          ...consume,
          onJoin: () => {
            if (!joinedOnce) opts.log.info(`${name} consumer joined its group`);
            joinedOnce = true;
          },
        });
        stopConsumers.push(consumer.stop);
        if (stopped) await consumer.stop().catch(() => {});
        return;
      } catch (err) {
        if (stopped) return;
        opts.log.warn(`${name} consumer could not start; retrying`, { err, retryMs });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          const wake = () => {
            clearTimeout(timer);
            resolve();
          };
          wakeRetries.add(wake);
        });
        wakeRetries.clear();
      }
    }
  };
  let statsStarted = false;
  let peopleStarted = false;

  return {
    publish: messaging.publish,
    /** Readiness: a broker answers. */
    ping: messaging.ping,
    /** Stats events not yet applied (metrics). */
    statsLag: () => messaging.consumerLag(STATS_GROUP, TOPICS.stats),
    /** Topics and the producer: all the outbox relay needs. No consumer group is involved. */
    async startProducer() {
      await messaging.ensureTopics();
      await messaging.producer();
    },
    /**
     * Starts the stats consumer in the background and returns at once: it joins its group when
     * it can, retrying while it cannot. Nothing else waits for it.
     */
    startStatsConsumer(applyStats: (messages: StatsMessage[]) => Promise<void>) {
      if (statsStarted) return;
      statsStarted = true;
      consuming.push(
        consumeInBackground('stats', { groupId: STATS_GROUP, topic: TOPICS.stats, codec: codecs.stats, maxBatch: 500, partitionsConsumedConcurrently: 2, handle: (messages) => applyStats(messages.map((m) => m.value)) }),
      );
    },
    /** The same for the people consumer: people's signals, for automations (idempotent: a replay enrols nobody twice). */
    startPeopleConsumer(apply: (messages: PeopleMessage[]) => Promise<void>) {
      if (peopleStarted) return;
      peopleStarted = true;
      consuming.push(consumeInBackground('people', { groupId: PEOPLE_GROUP, topic: TOPICS.people, codec: codecs.people, maxBatch: 200, handle: (messages) => apply(messages.map((m) => m.value)) }));
    },
    /**
     * Stops the consumer (it commits what it applied) and disconnects. A join still under way
     * ends only when the broker answers it (kafkajs waits for requests in flight), so the wait
     * is bounded: stopping never takes longer than STOP_WAIT_MS because of the consumer.
     */
    async stop() {
      stopped = true;
      for (const wake of wakeRetries) wake();
      const done = (async () => {
        await Promise.all(stopConsumers.map((stop) => stop().catch(() => {})));
        await messaging.disconnect();
        await Promise.all(consuming);
      })();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)).unref())]);
      clearTimeout(timer);
    },
  };
}
