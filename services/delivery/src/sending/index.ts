// The delivery service's sending side, assembled: Kafka consumers for dispatch jobs and audience
// chunks, the push sender, the tracking recorder, and this instance's heartbeat (which lets
// another instance take over claims of a dead one).
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { findRun, type RunRow } from '../db/runs.js';
import { trackingTokensFor } from '../domain/tracking-token.js';
import { createDeliveryMessaging } from '../messaging/index.js';
import { createEncryptPool } from '../push/encrypt-pool.js';
import { createPushSender } from '../push/sender.js';
import { createChunkWorker, type ChunkDeps } from './chunk-worker.js';
import { createDispatchHandler } from './dispatch.js';
import { createLeases } from './leases.js';
import { createPushGateway } from './push-gateway.js';
import { createCounterPublisher } from './counter-publisher.js';
import { createTrackingRecorder } from './tracking.js';

export interface SendingConfig {
  kafkaBrokers: readonly string[];
  topicPrefix: string;
  sessionTimeoutMs: number;
  /** Changed campaign counters are published from what is stored this often (counter-publisher.ts). */
  statsPublishIntervalMs?: number;
  vapidEncryptionKey: Buffer;
  /** VAPID_ENCRYPTION_KEY_PREVIOUS: still decrypt stored keys and verify tracking tokens (rotation). */
  vapidEncryptionKeysPrevious?: readonly Buffer[];
  vapidSubject: string;
  chunkSize: number;
  chunkConcurrency: number;
  claimBatch: number;
  push: {
    concurrencyPerOrigin: number;
    timeoutMs: number;
    /** PUSH_RETRY_BUDGET_SEC: a push is retried this long (never past the campaign's TTL). */
    retryBudgetSec?: number;
    maxAttempts: number;
    extraCa?: string;
    /** PUSH_TEST_HOSTS: local test push services, exempt from the destination rules (https, 443, public addresses). */
    testHosts: readonly string[];
  };
  instanceDeadAfterSec: number;
  /** DELIVERY_LOG_RETRY_SEC: how long a delivery-log write is retried while Postgres is unreachable. */
  deliveryLogRetrySec?: number;
}

export async function startSending(config: SendingConfig, deps: { pool: Pool; log: Logger; onPushed?: ChunkDeps['onPushed'] }) {
  const { pool, log } = deps;
  const instanceId = randomUUID();
  const vapidKeys = { current: config.vapidEncryptionKey, previous: config.vapidEncryptionKeysPrevious ?? [] };
  const tokens = trackingTokensFor(vapidKeys);
  const messaging = config.kafkaBrokers.length > 0 ? createDeliveryMessaging({ brokers: [...config.kafkaBrokers], prefix: config.topicPrefix, log, chunkConcurrency: config.chunkConcurrency, sessionTimeoutMs: config.sessionTimeoutMs }) : undefined;
  const counters = messaging
    ? createCounterPublisher({ pool, log, publish: messaging.publishStats }, { intervalMs: config.statsPublishIntervalMs ?? 1000, batchSize: 500 })
    : undefined;
  const recorder = createTrackingRecorder({ pool, log, onStored: () => counters?.wake() }, { flushMs: 50, maxBatch: 500 });
  // Counters are published from what is stored, by one path (counter-publisher.ts): a run that
  // changed asks for a pass now. Its stats event then carries every counter (audience and
  // failures by class included), and a chunk never fails because Kafka is down at that moment.
  const publishStats = async (_runs: RunRow[]) => {
    counters?.wake();
  };

  // Aborted first on stop: a chunk stuck retrying writes to an unreachable Postgres gives up.
  const stopping = new AbortController();
  setMaxListeners(0, stopping.signal); // one listener per write being retried, many during an outage
  const retry = { budgetMs: (config.deliveryLogRetrySec ?? 120) * 1000, signal: stopping.signal, log };
  const leases = createLeases(pool, instanceId, retry);
  await leases.beat();
  const beat = setInterval(() => leases.beat().catch((err) => log.warn('heartbeat failed', { err })), 2000);
  beat.unref();

  let sender: ReturnType<typeof createPushSender> | undefined;
  let encryptor: ReturnType<typeof createEncryptPool> | undefined;
  if (messaging) {
    // Started now, not on the first push: workers take a moment to load.
    encryptor = createEncryptPool();
    sender = createPushSender({
      encryptor,
      concurrencyPerOrigin: config.push.concurrencyPerOrigin,
      timeoutMs: config.push.timeoutMs,
      retryBudgetMs: config.push.retryBudgetSec === undefined ? undefined : config.push.retryBudgetSec * 1000,
      maxAttempts: config.push.maxAttempts,
      ca: config.push.extraCa,
      testHosts: config.push.testHosts,
      log,
    });
    const pusher = createPushGateway({ pool, sender, vapidEncryptionKey: vapidKeys, vapidSubject: config.vapidSubject });
    const dispatch = createDispatchHandler(
      { pool, log, publish: messaging.publish, publishStats: (run) => publishStats([run]) },
      { chunkSize: config.chunkSize, chunksPerGroup: 20 },
    );
    const chunk = createChunkWorker(
      { pool, log, instanceId, pusher, tokens, publishStats: (run) => publishStats([run]), onPushed: deps.onPushed, leases, stopping: stopping.signal },
      { deadAfterSec: config.instanceDeadAfterSec, waitForOthersMs: 15_000, claimBatch: config.claimBatch, retrySec: config.deliveryLogRetrySec },
    );
    await messaging.start({ dispatch, chunk });
    counters?.start();
    log.info('sending started', { instanceId, brokers: config.kafkaBrokers });
  } else {
    log.warn('KAFKA_BROKERS is not set: this instance sends nothing and tracking counts are not published');
  }

  return {
    tokens,
    recorder,
    findRun: (campaignId: string) => findRun(pool, campaignId),
    /** Kafka, when configured: readiness ping and consumer lag (metrics). */
    kafka: messaging ? { ping: messaging.ping, consumerLag: messaging.consumerLag } : undefined,
    async stop() {
      stopping.abort();
      clearInterval(beat);
      // Tracking reports still buffered are stored, then a last pass publishes changed counters
      // while the producer is up (what it misses is published by the next instance to run).
      await recorder.close();
      await counters?.stop();
      await messaging?.stop();
      await sender?.close();
      await encryptor?.close();
      await leases.forget().catch(() => {});
    },
  };
}
