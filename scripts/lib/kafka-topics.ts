// `cli kafka create-topics`: creates the project's Kafka topics with their explicit partition
// counts (services/shared/src/messages.ts) ahead of a deploy — the one-shot job of docker
// compose and Kubernetes. Existing topics are left as they are (partitions are only ever added
// by an operator, see README "Operating it").
import { createMessaging } from '../../services/shared/src/kafka.js';
import { createLogger } from '../../services/shared/src/log.js';
import { TOPIC_PARTITIONS } from '../../services/shared/src/messages.js';

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
  const messaging = createMessaging({ brokers, prefix, clientId: 'webpush-cli', log: createLogger('cli', 'warn') });
  try {
    await messaging.ensureTopics();
  } finally {
    await messaging.disconnect();
  }
  return { brokers, topics: Object.entries(TOPIC_PARTITIONS).map(([name, partitions]) => ({ name: prefix + name, partitions })) };
}
