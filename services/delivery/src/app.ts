// The delivery service, wired in one place: migrations, then each feature built from its parts —
// audience (the gRPC Audience service), sending (Kafka consumers of dispatch jobs and chunks,
// leases), push (encryption workers, the sender), tracking (the recorder, the counter
// publisher), the plugin's and tracking's HTTP routes — and the ops listener (liveness,
// readiness, metrics). stop() takes them down in the reverse order of what depends on what.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createPools, migrate, type Pool } from '@webpush/shared/db.js';
import { bindServer, shutdownServer } from '@webpush/shared/grpc.js';
import { createInternalAuth } from '@webpush/shared/internal-auth.js';
import { createLogger, type Logger } from '@webpush/shared/log.js';
import { TOPICS } from '@webpush/contracts/messages.js';
import { createReadiness, type Check } from '@webpush/shared/observability/health.js';
import { createServiceMetrics, dbPoolGauges, kafkaLagGauge } from '@webpush/shared/observability/metrics.js';
import { startOpsServer, type OpsServer } from '@webpush/shared/observability/ops-server.js';
import { createAudience } from './audience/index.js';
import { createAuditLog } from './audit/index.js';
import { createGrpcServer } from './grpc-server.js';
import { createWebhookEndpoints } from './webhooks/index.js';
import { createWebhookLoop, type WebhookLoop } from './webhooks/index.js';
import { zoneNamesMaintenance } from './audience/index.js';
import { createPeriodic, type Periodic } from '@webpush/shared/periodic.js';
import { createWebhookSender } from './webhooks/index.js';
import { createWebhookMetrics } from './webhooks/index.js';
import { createSubscriptions } from './audience/index.js';
import { createTestPush } from './console/index.js';
import type { DeliveryConfig } from './config.js';
import { createExpressApp } from './http/express-app.js';
import { createFixedWindowLimiter } from '@webpush/shared/rate-limit.js';
import { createIdentity, createPeople, createSignalPublisher, createVisitorTags, SIGNALS_INTERVAL_MS } from './people/index.js';
import { pluginRoutes } from './plugin/index.js';
import { resolveEngine } from '@webpush/push/encryption/engine.js';
import { createEncryptPool } from '@webpush/push/encryption/pool.js';
import { createPushMetrics } from '@webpush/push/metrics.js';
import { createPushSender } from '@webpush/push/sender.js';
import { appleSubjectProblem } from '@webpush/push/vapid.js';
import { createSubscriberExport } from './audience/index.js';
import { createOptInFunnel } from './optin/index.js';
import { createSiteImport } from './audience/index.js';
import { createDeliveryOperators } from './operators.js';
import { createChunkWorker } from './sending/index.js';
import { createDispatchHandler } from './sending/index.js';
import { createPacer, type Pacer } from './sending/index.js';
import { createLeases } from './sending/index.js';
import { CHUNKS_GROUP, createDeliveryMessaging, DISPATCH_GROUP, type DeliveryHandlers } from './sending/index.js';
import { createLanePriority } from './sending/index.js';
import { contentsFor, findRun } from './sending/index.js';
import { vapidSigners } from './sites/index.js';
import { createCounterPublisher } from './tracking/index.js';
import { createRetention } from './retention/index.js';
import { databaseSizeGauges } from './retention/index.js';
import { createTrackingRecorder } from './tracking/index.js';
import { clickUrls, eventRoutes } from './tracking/index.js';
import { trackingTokensFor } from './tracking/index.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
const HEARTBEAT_MS = 2000;

export function migrateDeliverySchema(pool: Pool): Promise<string[]> {
  return migrate(pool, 'delivery', MIGRATIONS_DIR);
}

export interface DeliveryService {
  grpcPort: number;
  httpPort: number;
  /** The ops listener: /healthz, /readyz, /metrics. */
  opsPort: number;
  stop(): Promise<void>;
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startDeliveryService(config: DeliveryConfig, deps: { log?: Logger } = {}): Promise<DeliveryService> {
  const log = deps.log ?? createLogger('delivery', config.logLevel);
  const pools = createPools(config.databaseUrl, 'delivery', config.pools);
  // Requests and sending; imports and exports take pools.bulk, readiness its own connection.
  const pool = pools.interactive;
  const internalAuth = createInternalAuth(config.internalTokens);
  const instanceId = randomUUID();
  const vapidKeys = { current: config.vapidEncryptionKey, previous: config.vapidEncryptionKeysPrevious };
  const tokens = trackingTokensFor(vapidKeys);
  // Declarative Web Push messages name the click redirect under PUBLIC_URL; without it, none are sent.
  const clickUrl = config.publicUrl === '' ? undefined : clickUrls(config.publicUrl);
  const contentOf = async (campaignId: string, subscriberId: string) => {
    const run = await findRun(pool, campaignId);
    return run === null ? null : ((await contentsFor(pool, run, [subscriberId]))(subscriberId) ?? null);
  };
  const metrics = createServiceMetrics('delivery');
  const pushMetrics = createPushMetrics(metrics.registry);
  dbPoolGauges(metrics.registry, pools);
  // Readiness: what this process needs to serve its own traffic (plugin HTTP, audience gRPC),
  // which is Postgres. Kafka feeds sending, not requests: routing requests away from this
  // process would not bring it back, so its state is reported on /readyz without gating it.
  // Its own connection, so that a saturated pool never makes the process look down.
  const readiness = createReadiness({ postgres: () => pools.readiness.query('SELECT 1') }, { log });
  const messaging =
    config.kafka.brokers.length > 0
      ? createDeliveryMessaging({ brokers: [...config.kafka.brokers], prefix: config.kafka.topicPrefix, chunkPartitions: config.kafka.chunkPartitions, log, chunkConcurrency: config.sending.chunkConcurrency, sessionTimeoutMs: config.kafka.sessionTimeoutMs, requestQueueFix: config.kafka.requestQueueFix })
      : undefined;
  // Counters are published from what is stored, by one path (counter-publisher.ts): a run that
  // changed asks for a pass now. Its stats event then carries every counter (audience and
  // failures by class included), and a chunk never fails because Kafka is down at that moment.
  const counters = messaging ? createCounterPublisher({ pool, log, publish: messaging.publishStats }, { intervalMs: config.statsPublishIntervalMs, batchSize: 500 }) : undefined;
  const countersChanged = async () => counters?.wake();
  // People's signals are published from their outbox, written with their facts (people/signal-publisher.ts).
  const signals = messaging ? createSignalPublisher({ pool, log, publish: messaging.publishPeople }, { intervalMs: SIGNALS_INTERVAL_MS, batchSize: 500 }) : undefined;
  const recorder = createTrackingRecorder({ pool, log, onStored: countersChanged }, { flushMs: 50, maxBatch: 500 });
  // Aborted first on stop: a chunk stuck retrying writes to an unreachable Postgres gives up.
  const stopping = new AbortController();
  setMaxListeners(0, stopping.signal); // one listener per write being retried, many during an outage
  const retry = { budgetMs: config.sending.deliveryLogRetrySec * 1000, signal: stopping.signal, log };
  const leases = createLeases(pool, instanceId, retry);

  let grpcServer: ReturnType<typeof createGrpcServer> | undefined;
  let httpServer: http.Server | undefined;
  let opsServer: OpsServer | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let encryptor: ReturnType<typeof createEncryptPool> | undefined;
  let sender: ReturnType<typeof createPushSender> | undefined;
  let webhookSender: ReturnType<typeof createWebhookSender> | undefined;
  let webhookLoop: WebhookLoop | undefined;
  let zoneNames: Periodic | undefined;
  let retention: Periodic | undefined;
  let pacer: Pacer | undefined;

  // Out of rotation, then intake (gRPC, HTTP), then in-flight sending hands back its unfinished
  // work and commits what it finished (tracking reports still buffered are stored, and a last
  // pass publishes changed counters while the producer is up), then the pool.
  async function stop(): Promise<void> {
    grpcServer?.health.stop();
    readiness.drain();
    if (grpcServer) await shutdownServer(grpcServer);
    if (httpServer) {
      const closed = new Promise<void>((resolve) => httpServer!.close(() => resolve()));
      httpServer.closeIdleConnections();
      const force = setTimeout(() => httpServer?.closeAllConnections(), 5000);
      await closed;
      clearTimeout(force);
    }
    stopping.abort();
    clearInterval(heartbeat);
    await recorder.close();
    await counters?.stop();
    await signals?.stop();
    await webhookLoop?.stop();
    await zoneNames?.stop();
    await retention?.stop();
    await pacer?.stop();
    webhookSender?.close();
    await messaging?.stop();
    await sender?.close();
    await encryptor?.close();
    await leases.forget().catch(() => {});
    await opsServer?.stop();
    await pools.end();
  }

  try {
    const applied = await migrateDeliverySchema(pool);
    if (applied.length > 0) log.info('migrations applied', { applied });

    // push: the one sender of every push, the campaigns' (below, with Kafka) and the console's
    // test pushes. Without Kafka it makes its encryption pool on its first push (a test push);
    // with Kafka the pool is started now, not on the first push: workers take a moment to load.
    // Decided and said once, at start, with or without Kafka (ENCRYPTION_ENGINE=native without the
    // addon stops it here); the pools are given the engine decided, not `auto` again.
    const chosen = resolveEngine(config.sending.encryptionEngine);
    const encryption = { size: config.sending.encryptionWorkers, engine: chosen.engine };
    log.info('payload encryption', { engine: chosen.engine, workers: encryption.size, ...(chosen.reason ? { why: chosen.reason } : {}) });
    if (messaging) encryptor = createEncryptPool(encryption);
    sender = createPushSender({
      encryptor,
      encryptionPool: encryption,
      concurrencyPerOrigin: config.sending.concurrencyPerOrigin,
      maxConnectionsPerOrigin: config.sending.connectionsPerOrigin,
      httpClient: config.sending.httpClient,
      timeoutMs: config.sending.timeoutMs,
      retryBudgetMs: config.sending.retryBudgetSec * 1000,
      maxAttempts: config.sending.maxAttempts,
      ca: config.sending.extraCaFile ? await readFile(config.sending.extraCaFile, 'utf8') : undefined,
      testHosts: config.pushTestHosts,
      testRoutes: config.pushTestRoutes,
      log,
      metrics: pushMetrics,
    });
    const vapid = vapidSigners(pool, vapidKeys, config.vapidSubject);
    const appleRefuses = appleSubjectProblem(config.vapidSubject);
    if (appleRefuses !== null) log.warn('VAPID_SUBJECT will be refused by Safari\'s push service (403 BadJwtToken): set a mailto: address or https: URL of a public domain', { why: appleRefuses });
    const pushHosts = { serviceHosts: config.pushServiceHosts, testHosts: config.pushTestHosts };

    // audience, webhooks, runs and the console's data over gRPC
    const siteImport = createSiteImport(pools.bulk, pushHosts, config.vapidEncryptionKey, { requestsPerSite: config.perSite.imports, itemsPerSecond: config.perSite.importItemsPerSecond });
    const subscriberExport = createSubscriberExport(pools.bulk, { perSite: config.perSite.exports, rowsPerSecond: config.perSite.exportRowsPerSecond });
    const webhooks = createWebhookEndpoints({ pool, keys: vapidKeys, testHosts: config.webhooks.testHosts });
    const testPush = createTestPush({ pool, sender, vapid, hosts: pushHosts });
    const operators = createDeliveryOperators(pool, vapidKeys);
    const auditLog = createAuditLog({ pool, bulk: pools.bulk });
    const optInFunnel = createOptInFunnel(pool);
    grpcServer = createGrpcServer({ audience: createAudience(pool, { log }), siteImport, subscriberExport, optInFunnel, webhooks, people: createPeople(pool), auditLog, testPush, operators, pool, log, metrics, readiness, auth: internalAuth, onWinnerPicked: () => pacer?.wake() });
    const grpcPort = await bindServer(grpcServer, config.grpc.host, config.grpc.port);

    // sending: this instance's heartbeat lets another take over the claims of a dead one
    await leases.beat();
    heartbeat = setInterval(() => leases.beat().catch((err) => log.warn('heartbeat failed', { err })), HEARTBEAT_MS);
    heartbeat.unref();
    if (messaging) {
      pacer = createPacer({ pool, log, publish: messaging.publish, countersChanged: () => void countersChanged() }, { chunkSize: config.sending.chunkSize, chunksPerPass: 20 });
      // The notification lane (docs/architecture.md, "A notification"): the same handlers on a
      // pool of its own and ahead in the encryption queue, so a notification to a person never
      // waits for connections or workers behind a sending campaign's chunks; and while it has
      // work a campaign sends one claim batch (or expands one group of chunks) at a time
      // (lane-priority.ts), leaving it the CPU.
      const priority = createLanePriority();
      const dispatch = createDispatchHandler(
        { pool, log, publish: messaging.publish, publishStats: countersChanged, paced: pacer.wake, turn: priority.campaignTurn },
        { chunkSize: config.sending.chunkSize, chunksPerGroup: 20 },
      );
      const chunkOptions = { deadAfterSec: config.sending.instanceDeadAfterSec, waitForOthersMs: 15_000, claimBatch: config.sending.claimBatch, retrySec: config.sending.deliveryLogRetrySec };
      const chunk = createChunkWorker({ pool, log, instanceId, sender, vapid, tokens, clickUrl, publishStats: countersChanged, leases, stopping: stopping.signal, turn: priority.campaignTurn }, chunkOptions);
      const lanePool = pools.notifications!;
      const laneChunk = createChunkWorker({ pool: lanePool, log, instanceId, sender, vapid, tokens, clickUrl, publishStats: countersChanged, leases, stopping: stopping.signal, urgent: true }, chunkOptions);
      const laneDispatch = createDispatchHandler({ pool: lanePool, log, publish: messaging.publish, publishStats: countersChanged, sendChunk: laneChunk }, { chunkSize: config.sending.chunkSize, chunksPerGroup: 20 });
      const notifications: DeliveryHandlers['notifications'] = {
        dispatch: (job, heartbeat) => priority.lane(() => laneDispatch(job, heartbeat)),
        chunk: (message, heartbeat) => priority.lane(() => laneChunk(message, heartbeat)),
      };
      await messaging.start({ dispatch, chunk, notifications });
      pacer.start();
      counters?.start();
      signals?.start();
      kafkaLagGauge(metrics.registry, [{ group: DISPATCH_GROUP, topic: TOPICS.dispatch }, { group: CHUNKS_GROUP, topic: TOPICS.chunks }], messaging.consumerLag);
      log.info('sending started', { instanceId, brokers: config.kafka.brokers });
    } else {
      log.warn('KAFKA_BROKERS is not set: this instance sends nothing and tracking counts are not published');
    }

    // webhooks: every instance sends its share of the due events (webhooks/delivery-loop.ts)
    webhookSender = createWebhookSender({
      testHosts: config.webhooks.testHosts,
      ca: config.webhooks.extraCaFile ? await readFile(config.webhooks.extraCaFile, 'utf8') : undefined,
      timeoutMs: config.webhooks.timeoutMs,
    });
    webhookLoop = createWebhookLoop({ pool, keys: vapidKeys, send: webhookSender.send, log, metrics: createWebhookMetrics(metrics.registry) }, config.webhooks.loop);
    webhookLoop.start();

    // retention: the detail of long-finished runs leaves in whole pieces (retention/retention.ts)
    const retentionPasses = createRetention(pool, config.retention);
    retention = createPeriodic(
      async () => {
        const report = await retentionPasses.pass();
        if (report && (report.logDropped.length || report.trackingDropped.length || report.legacyLogTruncated || report.legacyTrackingTruncated || report.capHistoryDeleted || report.auditDeleted || report.funnelDeleted)) {
          log.info('retention pass', { ...report });
        }
      },
      { intervalMs: config.retention.intervalMs, firstPassDelayMs: 0, onError: (err) => log.warn('retention pass failed; tried again next pass', { err }) },
    );
    retention.start();
    databaseSizeGauges(metrics.registry, pools.bulk);

    // stored zones by their one name (audience/zone-names.ts), in the background after an upgrade
    zoneNames = zoneNamesMaintenance(pool, log);
    zoneNames.start();

    // the plugin's and tracking's HTTP routes
    const app = createExpressApp({
      routers: [
        pluginRoutes({
          pool,
          subscriptions: createSubscriptions(pool, { pushServiceHosts: config.pushServiceHosts, pushTestHosts: config.pushTestHosts }),
          identity: createIdentity({
            pool,
            keys: vapidKeys,
          }),
          visitorTags: createVisitorTags(pool),
          optInFunnel,
          limiter: createFixedWindowLimiter({ limit: config.subscribeRateLimitPerMinute }),
          reportLimiter: createFixedWindowLimiter({ limit: config.subscribeRateLimitPerMinute }),
        }),
        eventRoutes({ tokens, recorder, contentOf, limiter: createFixedWindowLimiter({ limit: config.trackingRateLimitPerMinute }) }),
      ],
      internalAuth,
      log,
      metrics,
    });
    httpServer = http.createServer(app);
    httpServer.headersTimeout = 20_000;
    httpServer.requestTimeout = 30_000;
    const httpPort = await listen(httpServer, config.http.host, config.http.port);

    const reported: Record<string, Check> = messaging ? { kafka: () => messaging.ping() } : {};
    opsServer = await startOpsServer({ ...config.ops, readiness, reported, metrics, log });

    await grpcServer.health.start();
    log.info('delivery service started', { grpcPort, httpPort, opsPort: opsServer.port });
    return { grpcPort, httpPort, opsPort: opsServer.port, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
