// Starts the delivery service: migrations, the gRPC Audience server, the plugin HTTP server (the
// gateway its only caller) and the ops listener (liveness, readiness, metrics).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool, migrate, type Pool } from '../../shared/src/db.js';
import { bindServer, shutdownServer } from '../../shared/src/grpc.js';
import { createInternalAuth } from '../../shared/src/internal-auth.js';
import { createLogger, type Logger } from '../../shared/src/log.js';
import type { DeliveryConfig } from './config.js';
import { createAudience } from './domain/audience.js';
import { createSubscriptions } from './domain/subscriptions.js';
import { createGrpcServer } from './grpc/server.js';
import { createFixedWindowLimiter } from './routes/rate-limiter.js';
import { createHttpApp } from './server.js';
import { readFile } from 'node:fs/promises';
import { startSending } from './sending/index.js';
// operations (issue 5)
import { Counter } from 'prom-client';
import { TOPICS } from '../../shared/src/messages.js';
import { createReadiness } from '../../shared/src/observability/health.js';
import { createServiceMetrics, kafkaLagGauge } from '../../shared/src/observability/metrics.js';
import { startOpsServer, type OpsServer } from '../../shared/src/observability/ops-server.js';
import { CHUNKS_GROUP, DISPATCH_GROUP } from './messaging/index.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

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
  const pool = createPool(config.databaseUrl, { applicationName: 'delivery' });
  const internalAuth = createInternalAuth(config.internalTokens);
  let grpcServer: ReturnType<typeof createGrpcServer> | undefined;
  let httpServer: http.Server | undefined;
  let opsServer: OpsServer | undefined;
  let sending: Awaited<ReturnType<typeof startSending>> | undefined;
  // Readiness: what this process needs to serve its own traffic (plugin HTTP, audience gRPC),
  // which is Postgres. Kafka feeds sending, not requests: routing requests away from this
  // process would not bring it back, so its state is reported on /readyz without gating it.
  const metrics = createServiceMetrics('delivery');
  const pushes = new Counter({
    name: 'delivery_pushes_total',
    help: 'Push requests finished, by outcome (sent, expired, failed) and push-service origin.',
    labelNames: ['outcome', 'origin'] as const,
    registers: [metrics.registry],
  });
  const readiness = createReadiness({ postgres: () => pool.query('SELECT 1') }, { log });
  const reported = {
    ...(config.kafka.brokers.length > 0
      ? {
          kafka: async () => {
            if (!sending?.kafka) throw new Error('sending has not started');
            await sending.kafka.ping();
          },
        }
      : {}),
  };

  // Out of rotation, then intake (gRPC, HTTP), then in-flight sending hands back its unfinished
  // work and commits what it finished, then the pool.
  async function stop(): Promise<void> {
    grpcServer?.health?.stop();
    readiness.drain();
    if (grpcServer) await shutdownServer(grpcServer);
    if (httpServer) {
      const closed = new Promise<void>((resolve) => httpServer!.close(() => resolve()));
      httpServer.closeIdleConnections();
      const force = setTimeout(() => httpServer?.closeAllConnections(), 5000);
      await closed;
      clearTimeout(force);
    }
    await sending?.stop();
    await opsServer?.stop();
    await pool.end();
  }

  try {
    const applied = await migrateDeliverySchema(pool);
    if (applied.length > 0) log.info('migrations applied', { applied });

    grpcServer = createGrpcServer({ audience: createAudience(pool), log, metrics, readiness, auth: internalAuth });
    const grpcPort = await bindServer(grpcServer, config.grpc.host, config.grpc.port);

    sending = await startSending(
      {
        kafkaBrokers: config.kafka.brokers,
        topicPrefix: config.kafka.topicPrefix,
        sessionTimeoutMs: config.kafka.sessionTimeoutMs,
        statsPublishIntervalMs: config.statsPublishIntervalMs,
        vapidEncryptionKey: config.vapidEncryptionKey,
        vapidEncryptionKeysPrevious: config.vapidEncryptionKeysPrevious,
        vapidSubject: config.vapidSubject,
        chunkSize: config.sending.chunkSize,
        chunkConcurrency: config.sending.chunkConcurrency,
        claimBatch: config.sending.claimBatch,
        push: {
          concurrencyPerOrigin: config.sending.concurrencyPerOrigin,
          timeoutMs: config.sending.timeoutMs,
          retryBudgetSec: config.sending.retryBudgetSec,
          maxAttempts: config.sending.maxAttempts,
          extraCa: config.sending.extraCaFile ? await readFile(config.sending.extraCaFile, 'utf8') : undefined,
          testHosts: config.pushTestHosts,
        },
        instanceDeadAfterSec: config.sending.instanceDeadAfterSec,
        deliveryLogRetrySec: config.sending.deliveryLogRetrySec,
      },
      { pool, log, onPushed: (origin, outcome) => pushes.inc({ origin, outcome }) },
    );
    const kafka = sending.kafka;
    if (kafka) kafkaLagGauge(metrics.registry, [{ group: DISPATCH_GROUP, topic: TOPICS.dispatch }, { group: CHUNKS_GROUP, topic: TOPICS.chunks }], kafka.consumerLag);

    const app = createHttpApp({
      subscriptions: createSubscriptions(pool, { pushServiceHosts: config.pushServiceHosts, pushTestHosts: config.pushTestHosts }),
      limiter: createFixedWindowLimiter({ limit: config.subscribeRateLimitPerMinute }),
      internalAuth,
      log,
      events: {
        tokens: sending.tokens,
        recorder: sending.recorder,
        findRun: sending.findRun,
        limiter: createFixedWindowLimiter({ limit: config.trackingRateLimitPerMinute }),
      },
      // site plugin (issue 4): page views are limited like subscriptions, in their own buckets
      plugin: { pool, limiter: createFixedWindowLimiter({ limit: config.subscribeRateLimitPerMinute }) },
      metrics,
    });
    httpServer = http.createServer(app);
    httpServer.headersTimeout = 20_000;
    httpServer.requestTimeout = 30_000;
    const httpPort = await listen(httpServer, config.http.host, config.http.port);
    opsServer = await startOpsServer({ ...config.ops, readiness, reported, metrics, log });

    await grpcServer.health?.start();
    log.info('delivery service started', { grpcPort, httpPort, opsPort: opsServer.port });
    return { grpcPort, httpPort, opsPort: opsServer.port, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
