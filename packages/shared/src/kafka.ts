// The project's only kafkajs user: connect/disconnect, topic creation, an idempotent producer,
// and batch consumers that validate every message, send invalid ones to the dead-letter topic
// with the reason, and commit offsets only for messages whose handler finished.
import { createRequire } from 'node:module';
import { fixRequestQueue, KAFKAJS_VERSION } from './kafkajs-request-queue.js';
import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type ICustomPartitioner, type Producer } from 'kafkajs';
import type { Logger } from './log.js';
import { chunkPartition, TOPIC_PARTITIONS, topicPartitions, TOPICS, type DeadLetterMessage, type MessageCodec } from '@webpush/contracts/messages.js';

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  log: Logger;
  /** Prefix for topic and consumer-group names, so several deployments can share a cluster. */
  prefix?: string;
  /** Partitions of the chunk topic (KAFKA_CHUNK_PARTITIONS); default TOPIC_PARTITIONS's. */
  chunkPartitions?: number;
  /** KAFKAJS_REQUEST_QUEUE_FIX: no idle timer loop per connection (kafkajs-request-queue.ts); default true. */
  requestQueueFix?: boolean;
}

export interface Incoming<T> {
  key: string | null;
  value: T;
  partition: number;
  offset: string;
  headers: Record<string, string>;
}

export interface ConsumeOptions<T> {
  groupId: string;
  topic: string;
  codec: MessageCodec<T>;
  /** Called with the valid messages of one fetched batch of one partition, in offset order. */
  handle: (messages: Incoming<T>[], ctx: { heartbeat: () => Promise<void>; isRunning: () => boolean }) => Promise<void>;
  /** Messages handed to `handle` at once (a fetched batch is split). */
  maxBatch?: number;
  partitionsConsumedConcurrently?: number;
  /**
   * The most bytes of one partition a fetch brings (Kafka's default: 1 MB; a first message
   * larger than this still comes). A fetch is held in memory until every partition's part of it
   * is handled: a consumer whose messages are large units of work asks for less.
   */
  maxBytesPerPartition?: number;
  sessionTimeoutMs?: number;
  /** Called each time the consumer has joined its group (after start-up and after every rebalance). */
  onJoin?: () => void;
}

export interface Messaging {
  /**
   * Creates missing topics with their partition counts and grows the chunk topic to its setting;
   * resolves to each topic's partitions as the broker then has them (unprefixed names).
   */
  ensureTopics(): Promise<Record<string, number>>;
  producer(): Promise<Producer>;
  publish(topic: string, messages: { key: string; value: Buffer; headers?: Record<string, string> }[]): Promise<void>;
  consume<T>(opts: ConsumeOptions<T>): Promise<{ stop(): Promise<void> }>;
  /** Resolves when a broker answers (readiness). */
  ping(): Promise<void>;
  /** Messages of `topic` not yet committed by consumer group `groupId` (unprefixed names), summed over partitions. */
  consumerLag(groupId: string, topic: string): Promise<number>;
  disconnect(): Promise<void>;
}

function headerStrings(headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue;
    const first = Array.isArray(v) ? v[0] : v;
    out[k] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return out;
}

const RETRY = { retries: 8, initialRetryTime: 200, maxRetryTime: 5000 };

/** Reads of new topics' metadata at start-up before giving up (250 ms more between each: 11 s in all). */
const METADATA_ATTEMPTS = 10;

/** Kafka's error answers that kafkajs retries by itself (a broker loading, a leader or coordinator being elected). */
const RETRIED_BY_KAFKAJS: ReadonlySet<string> = new Set(
  (createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as { errorCodes: { message: string; retriable: boolean }[] }).errorCodes
    .filter((e) => e.retriable)
    .map((e) => e.message),
);

/**
 * One kafkajs log entry as one of our lines. kafkajs logs every error answer of a broker at
 * error level, also the ones it then retries — a broker still loading its group coordinator says
 * "The coordinator is loading…" a few times on every healthy start — and the request that finally
 * fails reaches our code, which logs it: those are info here. kafkajs passes some failures as an
 * Error object (`error` of "Error when calling eachBatch"), which a JSON line would show as {}:
 * it goes under `err`, serialised with its message and stack.
 */
export function bridgeLog(log: Logger, level: logLevel, entry: { message: string; namespace?: string; error?: unknown; groupId?: string; topic?: string; partition?: number }): void {
  const { message, namespace, error, groupId, topic, partition } = entry;
  const fields = { namespace, ...(error instanceof Error ? { err: error } : error !== undefined ? { error } : {}), groupId, topic, partition };
  const retried = namespace === 'Connection' && message.startsWith('Response ') && typeof error === 'string' && RETRIED_BY_KAFKAJS.has(error);
  if (retried) log.info(`kafka: ${message}`, fields);
  else if (level <= logLevel.ERROR) log.error(`kafka: ${message}`, fields);
  else log.warn(`kafka: ${message}`, fields);
}

type OutgoingMessage = Parameters<Messaging['publish']>[1][number];

/**
 * The bytes of values one coalesced send carries at most (a publish larger than this goes alone):
 * well inside the broker's 1 MB record batch of a partition, which a campaign's chunk groups
 * (≈ 200 KB) joined together could pass.
 */
export const COALESCED_SEND_BYTES = 512 * 1024;

/**
 * Publishes that arrive while a send is in flight go together in the next one, each call
 * answered when the send carrying its messages is acknowledged (acks all, as alone). The
 * idempotent producer has one request in flight, so one send per call capped a process at one
 * publish per round trip: beside a sending campaign on a loaded machine the notification lane's
 * 50 chunk publishes a second queued behind each other, a dispatch's publish taking 0.6–1.2 s
 * of its 0.7–1.9 s at p50; coalesced, 30 ms (docs/performance.md, "Notifications beside a
 * campaign"). A producer of the lane's own did not help: it queued its own publishes the same
 * way. Calls keep their order, so a partition's messages do too.
 */
export function coalescedSends(send: (topicMessages: { topic: string; messages: OutgoingMessage[] }[]) => Promise<void>) {
  const queued: { topic: string; messages: OutgoingMessage[]; bytes: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let sending = false;
  const drain = async () => {
    sending = true;
    while (queued.length > 0) {
      const batch = [queued.shift()!];
      let bytes = batch[0].bytes;
      while (queued.length > 0 && bytes + queued[0].bytes <= COALESCED_SEND_BYTES) {
        bytes += queued[0].bytes;
        batch.push(queued.shift()!);
      }
      try {
        await send(batch.map((b) => ({ topic: b.topic, messages: b.messages })));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    sending = false;
  };
  return (topic: string, messages: OutgoingMessage[]): Promise<void> => {
    if (messages.length === 0) return Promise.resolve();
    const bytes = messages.reduce((n, m) => n + m.value.length + (m.key?.length ?? 0), 0);
    return new Promise<void>((resolve, reject) => {
      queued.push({ topic, messages, bytes, resolve, reject });
      if (!sending) void drain();
    });
  };
}

export function createMessaging(opts: KafkaOptions): Messaging {
  // Before the client exists. A process-wide switch: a process has one setting.
  if (opts.requestQueueFix !== false && !fixRequestQueue()) {
    opts.log.warn('kafkajs request-queue fix not applied: it patches another kafkajs version; running kafkajs as released', { kafkajs: KAFKAJS_VERSION });
  }
  const prefix = opts.prefix ?? '';
  const named = (name: string) => prefix + name;
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    connectionTimeout: 5000,
    retry: RETRY,
    logLevel: logLevel.WARN,
    logCreator: () => ({ namespace, level, log }) => bridgeLog(opts.log, level, { ...log, namespace }),
  });
  let producerPromise: Promise<Producer> | undefined;
  const consumers: { consumer: Consumer; stop(): Promise<void> }[] = [];
  // One long-lived admin client for readiness and lag, connected on first use.
  let adminPromise: Promise<Admin> | undefined;
  const admin = () => {
    adminPromise ??= (async () => {
      const a = kafka.admin({ retry: { retries: 1 } });
      await a.connect();
      return a;
    })();
    adminPromise.catch(() => (adminPromise = undefined));
    return adminPromise;
  };

  // Chunks are spread evenly over their topic's partitions (chunkPartition); every other message
  // goes where kafkajs's default puts its key.
  const partitioner: ICustomPartitioner = () => {
    const byKey = Partitioners.DefaultPartitioner();
    const chunks = named(TOPICS.chunks);
    return (args) => {
      const key = args.message.key;
      const spread = args.topic === chunks && key != null ? chunkPartition(key.toString(), args.partitionMetadata.length) : null;
      return spread ?? byKey(args);
    };
  };

  const producer = () => {
    producerPromise ??= (async () => {
      const p = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: partitioner });
      await p.connect();
      return p;
    })();
    return producerPromise;
  };

  const publish: Messaging['publish'] = coalescedSends(async (topicMessages) => {
    await (await producer()).sendBatch({ acks: -1, topicMessages: topicMessages.map((t) => ({ topic: named(t.topic), messages: t.messages })) });
  });

  const deadLetter = async (topic: string, partition: number, offset: string, key: string | null, value: Buffer | null, reason: string) => {
    const dl: DeadLetterMessage = {
      reason,
      topic,
      partition,
      offset,
      key,
      value: (value ?? Buffer.alloc(0)).toString('utf8').slice(0, 10_000),
      at: new Date().toISOString(),
    };
    opts.log.warn('message sent to the dead-letter topic', { topic, partition, offset, reason });
    await publish(TOPICS.deadLetter, [{ key: `${topic}:${partition}:${offset}`, value: Buffer.from(JSON.stringify(dl)) }]);
  };

  return {
    async ensureTopics() {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const wanted = topicPartitions(opts.chunkPartitions ?? TOPIC_PARTITIONS[TOPICS.chunks]);
        const existing = new Set(await admin.listTopics());
        const missing = Object.entries(wanted)
          .filter(([topic]) => !existing.has(named(topic)))
          .map(([topic, numPartitions]) => ({ topic: named(topic), numPartitions, replicationFactor: -1 }));
        if (missing.length > 0) {
          // Another service may create the same topics at the same moment; what matters is that they exist.
          await admin.createTopics({ topics: missing, waitForLeaders: true }).catch(async (err: Error) => {
            const now = new Set(await admin.listTopics());
            if (!missing.every((t) => now.has(t.topic))) throw err;
          });
        }
        const partitions = async () => {
          // Just created, a topic can be unknown to the broker that answers for a moment ("This
          // server does not host this topic-partition", retriable): a busy broker took longer than
          // kafkajs's own retries, and the service failed to start. Asked again, bounded.
          for (let attempt = 1; ; attempt++) {
            try {
              const { topics } = await admin.fetchTopicMetadata({ topics: Object.keys(wanted).map(named) });
              return Object.fromEntries(Object.keys(wanted).map((t) => [t, topics.find((m) => m.name === named(t))?.partitions.length ?? 0]));
            } catch (err) {
              if (attempt >= METADATA_ATTEMPTS || !(err as { retriable?: boolean }).retriable) throw err;
              await new Promise((r) => setTimeout(r, 250 * attempt));
            }
          }
        };
        let have = await partitions();
        // The chunk topic grows to its setting. Chunks carry no order between them, so this is
        // safe while campaigns send: running consumers rejoin their group when their metadata
        // shows the new partitions, and read those from the start (nothing published there is
        // skipped). Kafka never removes partitions: a topic with more keeps them.
        const chunks = TOPICS.chunks;
        if (have[chunks] < wanted[chunks]) {
          // The brokers' metadata shows new partitions a moment after the call returns: wait
          // for it (bounded), so that this service's producer and consumers start with them.
          const grown = async () => {
            for (let i = 0; i < 50; i++) {
              have = await partitions();
              if (have[chunks] >= wanted[chunks]) return true;
              await new Promise((r) => setTimeout(r, 200));
            }
            return false;
          };
          const from = have[chunks];
          await admin.createPartitions({ topicPartitions: [{ topic: named(chunks), count: wanted[chunks] }] }).catch(async (err: Error) => {
            // Another service may have grown it at the same moment (or further).
            if (!(await grown())) throw err;
          });
          if (!(await grown())) throw new Error(`${named(chunks)} did not show ${wanted[chunks]} partitions within 10 s of growing it`);
          opts.log.info('chunk topic grown to its setting', { topic: named(chunks), from, to: have[chunks] });
        } else if (have[chunks] > wanted[chunks]) {
          opts.log.warn('the chunk topic has more partitions than KAFKA_CHUNK_PARTITIONS; Kafka never removes partitions, so it keeps them', {
            topic: named(chunks),
            partitions: have[chunks],
            setting: wanted[chunks],
          });
        }
        return have;
      } finally {
        await admin.disconnect();
      }
    },
    producer,
    publish,
    async consume<T>(c: ConsumeOptions<T>) {
      // kafkajs restarts a crashed consumer (a join cut short included) unless told not to: one
      // that is being stopped must stay stopped.
      let stopping = false;
      const consumer = kafka.consumer({
        groupId: named(c.groupId),
        sessionTimeout: c.sessionTimeoutMs ?? 30_000,
        heartbeatInterval: 3000,
        // How long the broker holds a fetch that finds nothing. Data arriving answers it at once
        // (minBytes 1), so this bounds no latency; it sets the idle polling (three consumers at
        // 100 ms kept an idle broker at 6 % of a core, 4 % at 500) and how long a consumer's stop
        // waits for its fetch in flight.
        maxWaitTimeInMs: 500,
        maxBytesPerPartition: c.maxBytesPerPartition, // undefined: kafkajs's default
        allowAutoTopicCreation: false,
        retry: { ...RETRY, restartOnFailure: async () => !stopping },
      });
      const entry = {
        consumer,
        stop: async () => {
          stopping = true;
          await consumer.disconnect();
        },
      };
      consumers.push(entry);
      if (c.onJoin) consumer.on(consumer.events.GROUP_JOIN, () => c.onJoin?.());
      const maxBatch = c.maxBatch ?? 50;
      try {
        await consumer.connect();
        await consumer.subscribe({ topic: named(c.topic), fromBeginning: true });
        await consumer.run({
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: c.partitionsConsumedConcurrently ?? 1,
          eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
            let pending: Incoming<T>[] = [];
            const flush = async () => {
              if (pending.length === 0) return;
              const done = pending;
              pending = [];
              await c.handle(done, { heartbeat, isRunning });
              resolveOffset(done[done.length - 1].offset);
              await commitOffsetsIfNecessary();
            };
            for (const m of batch.messages) {
              if (!isRunning() || isStale()) break;
              const key = m.key ? m.key.toString('utf8') : null;
              let value: T;
              try {
                value = c.codec.decode(m.value);
              } catch (err) {
                await flush();
                await deadLetter(c.topic, batch.partition, m.offset, key, m.value, (err as Error).message);
                resolveOffset(m.offset);
                continue;
              }
              pending.push({ key, value, partition: batch.partition, offset: m.offset, headers: headerStrings(m.headers) });
              if (pending.length >= maxBatch) await flush();
              await heartbeat();
            }
            if (isRunning() && !isStale()) await flush();
          },
        });
      } catch (err) {
        consumers.splice(consumers.indexOf(entry), 1);
        await entry.stop().catch(() => {});
        throw err;
      }
      return { stop: entry.stop };
    },
    async ping() {
      await (await admin()).describeCluster();
    },
    async consumerLag(groupId, topic) {
      const a = await admin();
      const [ends, committed] = await Promise.all([a.fetchTopicOffsets(named(topic)), a.fetchOffsets({ groupId: named(groupId), topics: [named(topic)] })]);
      const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      let lag = 0;
      for (const p of ends) {
        const at = done.get(p.partition) ?? -1;
        // -1: the group has committed nothing there yet, so everything still retained is pending.
        lag += Math.max(0, Number(p.high) - (at < 0 ? Number(p.low) : at));
      }
      return lag;
    },
    async disconnect() {
      if (adminPromise) await (await adminPromise.catch(() => undefined))?.disconnect().catch(() => {});
      await Promise.all(consumers.map((c) => c.stop().catch(() => {})));
      if (producerPromise) await (await producerPromise).disconnect().catch(() => {});
    },
  };
}
