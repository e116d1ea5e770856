// The only reader of process.env for the campaign service.
import { boolean, ConfigError, integer, list, listenAddress, optionalString, postgresUrl, secret } from '@webpush/shared/config.js';
import { TOPIC_PARTITIONS, TOPICS } from '@webpush/contracts/messages.js';
import type { PoolSettings } from '@webpush/shared/db.js';
import { internalToken, operatorToken } from '@webpush/shared/internal-auth.js';
import { parseLevel, type Level } from '@webpush/shared/log.js';

export interface CampaignConfig {
  databaseUrl: string;
  /** Postgres connections by use: interactive (requests, scheduler, relay), bulk (the campaigns export), and readiness's own one. */
  pools: PoolSettings;
  grpc: { host: string; port: number };
  audienceTarget: string;
  /** Deadline of each Audience.CountAudience call. */
  audienceDeadlineMs: number;
  /** How often campaigns created while their audience could not be counted are counted again (campaigns/audience-recount.ts). */
  audienceRecountIntervalMs: number;
  cursorSecret: Buffer;
  scheduler: { enabled: boolean; intervalMs: number; batchSize: number };
  /** The automations' due-step runner (automations/step-runner.ts); runs when the scheduler does. */
  automations: { intervalMs: number; batchSize: number };
  /** Empty brokers: no relay and no stats consumer (dispatched campaigns wait in the outbox). */
  kafka: { brokers: string[]; topicPrefix: string; chunkPartitions: number; requestQueueFix: boolean };
  relay: { intervalMs: number; batchSize: number };
  /** Deletes idempotency keys past their 24 hours, batchSize rows per statement. */
  idempotencyPurge: { intervalMs: number; batchSize: number };
  /** The feeds' poller and fetch (docs/api-decisions.md, "Feeds"; docs/configuration.md). */
  feeds: { poller: { enabled: boolean; intervalMs: number; batchSize: number; leaseMs: number }; testHosts: readonly string[]; timeoutMs: number; maxBytes: number; extraCaFile: string };
  /** Prometheus /metrics listener (the service has no HTTP server otherwise); port 0 picks one. */
  metrics: { host: string; port: number };
  /** Tokens: this service's own (sent to delivery) and the gateway's (the only caller it serves). */
  internalTokens: { own: string; gateway: string; operator?: string };
  logLevel: Level;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Readonly<CampaignConfig> {
  return Object.freeze({
    databaseUrl: postgresUrl(env, 'DATABASE_URL'),
    pools: Object.freeze({
      interactive: integer(env, 'DB_POOL_MAX_INTERACTIVE', 10, { min: 1, max: 1000 }),
      bulk: integer(env, 'DB_POOL_MAX_BULK', 2, { min: 1, max: 1000 }),
      waitMs: integer(env, 'DB_POOL_WAIT_MS', 5000, { min: 100, max: 60_000 }),
    }),
    grpc: listenAddress(env, 'CAMPAIGN_GRPC_HOST', 'CAMPAIGN_GRPC_PORT', 50051),
    audienceTarget: optionalString(env, 'AUDIENCE_GRPC_TARGET', '127.0.0.1:50052'),
    audienceDeadlineMs: integer(env, 'AUDIENCE_DEADLINE_MS', 5000, { min: 1 }),
    audienceRecountIntervalMs: integer(env, 'AUDIENCE_RECOUNT_INTERVAL_MS', 5000, { min: 10, max: 3_600_000 }),
    cursorSecret: secret(env, 'CURSOR_SECRET', 32),
    scheduler: Object.freeze({
      enabled: boolean(env, 'SCHEDULER_ENABLED', true),
      intervalMs: integer(env, 'SCHEDULER_INTERVAL_MS', 1000, { min: 10 }),
      batchSize: integer(env, 'SCHEDULER_BATCH_SIZE', 100, { min: 1, max: 10_000 }),
    }),
    automations: Object.freeze({
      intervalMs: integer(env, 'AUTOMATIONS_INTERVAL_MS', 1000, { min: 10 }),
      batchSize: integer(env, 'AUTOMATIONS_BATCH_SIZE', 1000, { min: 1, max: 10_000 }),
    }),
    kafka: Object.freeze({ brokers: list(env, 'KAFKA_BROKERS', []), topicPrefix: optionalString(env, 'KAFKA_TOPIC_PREFIX', ''), chunkPartitions: integer(env, 'KAFKA_CHUNK_PARTITIONS', TOPIC_PARTITIONS[TOPICS.chunks], { min: 1, max: 1000 }), requestQueueFix: boolean(env, 'KAFKAJS_REQUEST_QUEUE_FIX', true) }),
    relay: Object.freeze({
      intervalMs: integer(env, 'OUTBOX_RELAY_INTERVAL_MS', 200, { min: 10 }),
      batchSize: integer(env, 'OUTBOX_BATCH_SIZE', 100, { min: 1, max: 10_000 }),
    }),
    idempotencyPurge: Object.freeze({
      intervalMs: integer(env, 'IDEMPOTENCY_PURGE_INTERVAL_MS', 600_000, { min: 10, max: 86_400_000 }),
      batchSize: integer(env, 'IDEMPOTENCY_PURGE_BATCH_SIZE', 1000, { min: 1, max: 100_000 }),
    }),
    feeds: Object.freeze({
      poller: Object.freeze({
        enabled: boolean(env, 'FEED_POLLER_ENABLED', true),
        intervalMs: integer(env, 'FEED_POLLER_INTERVAL_MS', 30_000, { min: 10, max: 3_600_000 }),
        batchSize: integer(env, 'FEED_POLLER_BATCH_SIZE', 10, { min: 1, max: 1000 }),
        leaseMs: integer(env, 'FEED_LEASE_SEC', 300, { min: 30, max: 3600 }) * 1000,
      }),
      testHosts: Object.freeze(testHostList(env, 'FEED_TEST_HOSTS')),
      timeoutMs: integer(env, 'FEED_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
      maxBytes: integer(env, 'FEED_MAX_BYTES', 1_048_576, { min: 1024, max: 16_777_216 }),
      extraCaFile: optionalString(env, 'FEED_EXTRA_CA_FILE', ''),
    }),
    metrics: listenAddress(env, 'CAMPAIGN_METRICS_HOST', 'CAMPAIGN_METRICS_PORT', 9464),
    internalTokens: Object.freeze({ own: internalToken(env, 'CAMPAIGN_INTERNAL_TOKEN'), gateway: internalToken(env, 'GATEWAY_INTERNAL_TOKEN'), operator: operatorToken(env, 'OPERATOR_INTERNAL_TOKEN') }),
    logLevel: parseLevel(optionalString(env, 'LOG_LEVEL', 'info')),
  });
}

/** FEED_TEST_HOSTS: host names or IP literals exactly as URLs write them (lowercase; `127.0.0.1`, `[::1]`). */
function testHostList(env: Env, name: string): string[] {
  const hosts = list(env, name, []).map((h) => h.toLowerCase());
  for (const h of hosts) {
    if (URL.parse(`http://${h}/`)?.hostname !== h) throw new ConfigError(`${name} has an invalid host "${h}": it is not a host name or an IP address as URLs write it (e.g. localhost, 127.0.0.1, [::1])`);
  }
  return hosts;
}
