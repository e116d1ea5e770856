// Starts the campaign service: migrations, gRPC server, scheduler. Nothing happens at import time.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPools, migrate, type Pool } from '@webpush/shared/db.js';
import { bindServer, shutdownServer } from '@webpush/shared/grpc.js';
import { createLogger, type Logger } from '@webpush/shared/log.js';
import type { CampaignConfig } from './config.js';
import { createCursorCodec, createAudienceRecount, createIdempotencyPurge, createAudienceClient } from './campaigns/index.js';
import { createScheduler, oldestOverdue } from './scheduler/index.js';
import { createUseCases } from './grpc/use-cases.js';
import { createStepRunner } from './automations/index.js';
import { createFeedFetcher, createFeedPoller } from './feeds/index.js';
import { createRunsClient } from './ab-tests/index.js';
import { createSiteRegistryClient, createOperators } from './sites/index.js';
import { CAMPAIGN_GRPC_SERVICE, CONSOLE_GRPC_SERVICE, createGrpcServer, SITE_ADMIN_GRPC_SERVICE } from './grpc-server.js';
import { createAccounts, createConsoleKeys, createConsolePurge, createConsoleSites } from './accounts/index.js';
import { applyStats } from './stats/index.js';
import { createOutboxRelay, backlog, oldestUnpublishedAge } from './outbox/index.js';
import { createCampaignMessaging, STATS_GROUP } from './messaging/campaign-messaging.js';
import { TOPICS } from '@webpush/contracts/messages.js';
import { addGrpcHealth, createReadiness } from '@webpush/shared/observability/health.js';
import { createServiceMetrics, dbPoolGauges, kafkaLagGauge, sampledGauge } from '@webpush/shared/observability/metrics.js';
import { startOpsServer, type OpsServer } from '@webpush/shared/observability/ops-server.js';
import { Histogram } from 'prom-client';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
/** How often ended console sessions, old links and login failures are deleted. */
const CONSOLE_PURGE_INTERVAL_MS = 600_000;

export type { CampaignConfig } from './config.js';

export function migrateCampaignSchema(pool: Pool): Promise<string[]> {
  return migrate(pool, 'campaign', MIGRATIONS_DIR);
}

export interface RunningCampaignService {
  grpcPort: number;
  /** Port of the Prometheus /metrics listener. */
  metricsPort: number;
  stop(): Promise<void>;
}

export async function startCampaignService(config: CampaignConfig, deps: { log?: Logger } = {}): Promise<RunningCampaignService> {
  const log = deps.log ?? createLogger('campaign', config.logLevel);
  const pools = createPools(config.databaseUrl, 'campaign', config.pools);
  // Requests and the background loops; the campaigns export takes pools.bulk, readiness its own connection.
  const pool = pools.interactive;
  const audience = createAudienceClient(config.audienceTarget, config.audienceDeadlineMs, config.internalTokens.own);
  // The same delivery service (its Runs API), with the same deadline.
  const runs = createRunsClient(config.audienceTarget, config.audienceDeadlineMs, config.internalTokens.own);
  // And its SiteRegistry: a site created here is registered there first (sites/operators.ts).
  const siteRegistry = createSiteRegistryClient(config.audienceTarget, config.audienceDeadlineMs, config.internalTokens.own);
  const metrics = createServiceMetrics('campaign');
  const lateness = new Histogram({
    name: 'campaign_scheduler_lateness_seconds',
    help: 'Time from a scheduled campaign\'s schedule date to its dispatch by the scheduler.',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [metrics.registry],
  });
  let relay: ReturnType<typeof createOutboxRelay> | undefined;
  // A committed dispatch job wakes the relay (when there is one), so it goes out at once rather
  // than on the relay's next interval.
  const onDispatched = () => relay?.wake();
  const scheduler = createScheduler({ pool, log, onLateness: (s) => lateness.observe(s), onDispatched }, config.scheduler);
  const keyPurge = createIdempotencyPurge({ pool, log }, config.idempotencyPurge);
  const consolePurge = createConsolePurge({ pool, log }, { intervalMs: CONSOLE_PURGE_INTERVAL_MS });
  const recount = createAudienceRecount({ pool, audience, log }, { intervalMs: config.audienceRecountIntervalMs });
  const messaging = config.kafka.brokers.length > 0 ? createCampaignMessaging({ brokers: config.kafka.brokers, prefix: config.kafka.topicPrefix, chunkPartitions: config.kafka.chunkPartitions, log, requestQueueFix: config.kafka.requestQueueFix }) : undefined;
  // Before the gauges that query the pool: a scrape reads metrics in registration order, so the
  // pool is read before the scrape's own queries would show as waiting for a connection.
  dbPoolGauges(metrics.registry, pools);
  sampledGauge(metrics.registry, { name: 'campaign_outbox_backlog', help: 'Dispatch jobs written to the outbox and not yet published to Kafka.' }, async () => [{ value: await backlog(pool) }]);
  sampledGauge(metrics.registry, { name: 'campaign_outbox_oldest_age_seconds', help: 'Age of the oldest dispatch job not yet published to Kafka (0 when none).' }, async () => [{ value: await oldestUnpublishedAge(pool) }]);
  sampledGauge(metrics.registry, { name: 'campaign_scheduler_overdue_seconds', help: 'How far past its schedule date the most overdue undispatched scheduled campaign is (0 when none).' }, async () => [{ value: await oldestOverdue(pool) }]);
  if (messaging) kafkaLagGauge(metrics.registry, [{ group: STATS_GROUP, topic: TOPICS.stats }], () => messaging.statsLag());
  const readiness = createReadiness(
    { postgres: () => pools.readiness.query('SELECT 1'), ...(messaging ? { kafka: () => messaging.ping() } : {}) },
    { log },
  );
  let metricsServer: OpsServer | undefined;
  const accounts = createAccounts(pool);
  accounts.warm();
  const feedFetcher = createFeedFetcher({
    testHosts: config.feeds.testHosts,
    timeoutMs: config.feeds.timeoutMs,
    maxBytes: config.feeds.maxBytes,
    ca: config.feeds.extraCaFile ? await readFile(config.feeds.extraCaFile, 'utf8') : undefined,
  });
  const useCases = createUseCases({
    pool, bulkPool: pools.bulk, audience, planner: audience, runs, cursors: createCursorCodec(config.cursorSecret), onDispatched, onUncounted: recount.wake,
    feeds: { testHosts: config.feeds.testHosts, onDue: () => feedPoller.wake() },
    // An event whose first step is due at once wakes the automations' runner.
    onStepsDue: () => stepRunner.wake(),
  });
  const feedPoller = createFeedPoller({ pool, log, fetcher: feedFetcher, createCampaign: useCases.createCampaign }, config.feeds.poller);
  // The automations' runner makes its notifications from templates as POST /v2/notifications does.
  const stepRunner = createStepRunner({ pool, log, render: useCases.renderForNotification, onDispatched }, config.automations);
  const server = createGrpcServer({
    useCases,
    console: { accounts, keys: createConsoleKeys(pool), sites: createConsoleSites({ pool, audience }) },
    siteAdmin: { operators: createOperators(pool), accounts, register: siteRegistry.register },
    log,
    metrics,
    gatewayToken: config.internalTokens.gateway,
    operatorToken: config.internalTokens.operator,
  });
  const health = addGrpcHealth(server, [CAMPAIGN_GRPC_SERVICE, CONSOLE_GRPC_SERVICE, SITE_ADMIN_GRPC_SERVICE], readiness);
  try {
    const applied = await migrateCampaignSchema(pool);
    if (applied.length > 0) log.info('migrations applied', { applied });
    // The same ops listener as the gateway's and delivery's (/metrics, /readyz, /healthz).
    metricsServer = await startOpsServer({ ...config.metrics, readiness, metrics, log });
    const grpcPort = await bindServer(server, config.grpc.host, config.grpc.port);
    if (config.scheduler.enabled) {
      scheduler.start();
      stepRunner.start();
    }
    keyPurge.start();
    consolePurge.start();
    recount.start();
    feedPoller.start();
    if (messaging) {
      // The relay first, and at once: the stats consumer joins its group in the background
      // (a restarted instance can wait ~20 s for that), and nothing waits for it.
      await messaging.startProducer();
      relay = createOutboxRelay({ pool, log, publish: messaging.publish }, config.relay);
      relay.start();
      messaging.startStatsConsumer((messages) => applyStats(pool, messages));
      messaging.startPeopleConsumer(useCases.applyPeopleSignals);
    } else {
      log.warn('KAFKA_BROKERS is not set: dispatched campaigns stay in the outbox and analytics are not updated');
    }
    await health.start();
    log.info('campaign service listening', { host: config.grpc.host, port: grpcPort, metricsPort: metricsServer.port, scheduler: config.scheduler.enabled });
    let stopping: Promise<void> | null = null;
    // Out of rotation first (health NOT_SERVING), then intake (gRPC calls finish), then the
    // producers of outbox rows, then the relay (its batch commits or rolls back whole) and Kafka
    // (the stats consumer commits what it applied), then the pool.
    const stopOnce = async () => {
      health.stop();
      await shutdownServer(server);
      await scheduler.stop();
      await stepRunner.stop();
      await keyPurge.stop();
      await consolePurge.stop();
      await recount.stop();
      await feedPoller.stop();
      feedFetcher.close();
      await relay?.stop();
      await messaging?.stop();
      audience.close();
      runs.close();
      siteRegistry.close();
      await metricsServer?.stop();
      await pools.end();
    };
    return {
      grpcPort,
      metricsPort: metricsServer.port,
      // Idempotent: a second stop() waits for the first.
      stop: () => (stopping ??= stopOnce()),
    };
  } catch (err) {
    health.stop();
    server.forceShutdown();
    await scheduler.stop();
    await stepRunner.stop();
    await keyPurge.stop();
    await consolePurge.stop();
    await recount.stop();
    await feedPoller.stop();
    feedFetcher.close();
    await relay?.stop();
    await messaging?.stop().catch(() => {});
    audience.close();
    runs.close();
    siteRegistry.close();
    await metricsServer?.stop();
    await pools.end();
    throw err;
  }
}
