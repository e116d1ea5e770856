// `cli kafka create-topics`: creates the project's Kafka topics with their explicit partition
// counts (packages/contracts/src/messages.ts; the chunk topic's from KAFKA_CHUNK_PARTITIONS) ahead
// of a deploy — the one-shot job of docker compose and Kubernetes. Existing topics keep their
// partitions, except that the chunk topic grows to its setting (docs/operations.md "Scaling").
import { createMessaging } from '@webpush/shared/kafka.js';
import { createLogger } from '@webpush/shared/log.js';
import { integer } from '@webpush/shared/config.js';
import { TOPIC_PARTITIONS, TOPICS } from '@webpush/contracts/messages.js';

export interface KafkaTopicsResult {
  brokers: string[];
  topics: { name: string; partitions: number }[];
}

export async function createKafkaTopics(env: Record<string, string | undefined> = process.env): Promise<KafkaTopicsResult> {
  const brokers = (env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS is required for kafka create-topics');
  const prefix = env.KAFKA_TOPIC_PREFIX ?? '';
  const messaging = createMessaging({ brokers, prefix, chunkPartitions: integer(env, 'KAFKA_CHUNK_PARTITIONS', TOPIC_PARTITIONS[TOPICS.chunks], { min: 1, max: 1000 }), clientId: 'webpush-cli', log: createLogger('cli', 'warn') });
  try {
    const have = await messaging.ensureTopics();
    return { brokers, topics: Object.entries(have).map(([name, partitions]) => ({ name: prefix + name, partitions })) };
  } finally {
    await messaging.disconnect();
  }
}
