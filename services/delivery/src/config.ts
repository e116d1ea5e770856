// The delivery service's only reader of process.env.
import { isIP } from 'node:net';
import { boolean, ConfigError, httpOrigin, integer, list, listenAddress, oneOf, optionalString, postgresUrl, requireString } from '@webpush/shared/config.js';
import { TOPIC_PARTITIONS, TOPICS } from '@webpush/contracts/messages.js';
import type { PoolSettings } from '@webpush/shared/db.js';
import { internalToken, operatorToken } from '@webpush/shared/internal-auth.js';
import { parseLevel, type Level } from '@webpush/shared/log.js';
import { serviceHostRuleProblem, testHostProblem, type PushHostRules } from './audience/index.js';
import { usableCpus } from '@webpush/push/encryption/cpus.js';
import { PUSH_HTTP_CLIENTS, type PushHttpClient } from '@webpush/push/client.js';
import type { TestRoute } from '@webpush/push/destination.js';
import { ENGINE_CHOICES, type EngineChoice } from '@webpush/push/encryption/engine.js';
import { DEFAULT_WEBHOOK_LOOP, type WebhookLoopOptions } from './webhooks/index.js';
import { LONGEST_CAP_WINDOW_DAYS, type RetentionSettings } from './retention/index.js';

export const DEFAULT_PUSH_SERVICE_HOSTS: readonly string[] = Object.freeze([
  'fcm.googleapis.com',
  // FCM for Chromium builds off the stable channel (Chrome Beta, Dev, Canary; Debian's chromium):
  // Chromium's kPushMessagingStagingGcmEndpoint.
  'jmt17.google.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
  '*.push.apple.com',
]);

export interface DeliveryConfig {
  readonly databaseUrl: string;
  /** Postgres connections by use: interactive (requests and campaigns' sending), bulk (imports and exports), notifications (the notification lane's sending) and readiness's own one. */
  readonly pools: PoolSettings & { readonly notifications: number };
  /**
   * A site's bulk work running at once in this process; one more is answered 429 with
   * Retry-After (SITE_CONCURRENT_IMPORTS: POST /v2/subscribers/import requests;
   * SITE_CONCURRENT_EXPORTS: GET /v2/subscribers/export streams), and the pace of that work
   * (SITE_IMPORT_ITEMS_PER_SECOND, SITE_EXPORT_ROWS_PER_SECOND; audience/site-pace.ts).
   */
  readonly perSite: { readonly imports: number; readonly exports: number; readonly importItemsPerSecond: number; readonly exportRowsPerSecond: number };
  readonly grpc: { readonly host: string; readonly port: number };
  readonly http: { readonly host: string; readonly port: number };
  /** Liveness, readiness and metrics, off the plugin port (DELIVERY_OPS_HOST, DELIVERY_OPS_PORT). */
  readonly ops: { readonly host: string; readonly port: number };
  /** 32 bytes: AES-256-GCM key for the VAPID private keys at rest (encrypts; tried first). */
  readonly vapidEncryptionKey: Buffer;
  /** Earlier encryption keys during a rotation: they still decrypt and verify tracking tokens. */
  readonly vapidEncryptionKeysPrevious: readonly Buffer[];
  readonly vapidSubject: string;
  /**
   * The origin the public reaches the gateway at (PUBLIC_URL, the gateway's variable); '' when
   * unset. Declarative Web Push messages name the click-tracking redirect under it, so without
   * it every push is in the service worker's format (sending/payloads.ts).
   */
  readonly publicUrl: string;
  /** Host names a subscription endpoint may point at (https, port 443): exact names or `*.suffix` wildcards; never IP literals. */
  readonly pushServiceHosts: readonly string[];
  /**
   * Local test push services only (default none): names or canonical IP literals (`127.0.0.1`,
   * `[::1]`, `localhost`) whose endpoints may use http or https and any port.
   */
  readonly pushTestHosts: readonly string[];
  /**
   * Tests only (PUSH_TEST_ROUTES, default none): push-service host names whose connections go to
   * a local server at a loopback address instead, the name still checked in TLS. For a test push
   * service standing in for one whose endpoints a browser builds itself (Chromium's FCM).
   */
  readonly pushTestRoutes: ReadonlyMap<string, TestRoute>;
  /** Subscription requests per visitor address (as the gateway names it) per minute; 0 disables the limit. */
  readonly subscribeRateLimitPerMinute: number;
  /** Impression/click reports per visitor address per minute; 0 disables the limit. */
  readonly trackingRateLimitPerMinute: number;
  /** Empty brokers: this instance sends nothing (audience and subscribe still work). */
  readonly kafka: { readonly brokers: readonly string[]; readonly topicPrefix: string; readonly sessionTimeoutMs: number; readonly chunkPartitions: number; readonly requestQueueFix: boolean };
  /** How often changed campaign counters are published from what is stored (STATS_PUBLISH_INTERVAL_MS). */
  readonly statsPublishIntervalMs: number;
  readonly sending: {
    readonly chunkSize: number;
    /**
     * Chunk partitions handled at once (CHUNK_CONCURRENCY, default 12: every partition of
     * delivery.chunks.v1). Each has up to two claim batches in flight (the next is claimed once
     * the pushes of the one before have gone out), so an instance keeps at most 2 ×
     * chunkConcurrency × claimBatch pushes in flight: 6,000 at the defaults. With 4 partitions
     * it was 1,000, and a 150 ms push service got half the zero-latency throughput
     * (docs/history/performance-log.md).
     */
    readonly chunkConcurrency: number;
    /** Pushes claimed, sent and recorded together within a chunk. */
    readonly claimBatch: number;
    /** The ceiling of each push-service origin's adaptive in-flight limit (packages/push/src/origin-gate.ts). */
    readonly concurrencyPerOrigin: number;
    /** HTTP/2 connections per push-service origin at most (packages/push/src/client.ts). */
    readonly connectionsPerOrigin: number;
    /** PUSH_HTTP_CLIENT: own (our HTTP/2 client, the default) or node (Node's http2); docs/operations.md says when to use which. */
    readonly httpClient: PushHttpClient;
    readonly timeoutMs: number;
    /**
     * How long one push is retried (5xx, timeouts, resets, 429) from when its batch reaches the
     * sender, never past the campaign's TTL (PUSH_RETRY_BUDGET_SEC).
     */
    readonly retryBudgetSec: number;
    /** A safety net on requests per push; the retry budget normally ends retries first (PUSH_MAX_ATTEMPTS). */
    readonly maxAttempts: number;
    readonly instanceDeadAfterSec: number;
    /** How long a delivery-log write (claim, sending mark, outcome) is retried while Postgres is unreachable before the chunk is handed back to Kafka. */
    readonly deliveryLogRetrySec: number;
    /** PEM of extra CAs trusted for push services (tests and the local simulator). */
    readonly extraCaFile: string;
    /** Threads of the payload-encryption pool (ENCRYPTION_WORKERS); default: the CPUs this process may use, cgroup quota included. */
    readonly encryptionWorkers: number;
    /** ENCRYPTION_ENGINE: auto (the native addon when it was built, else JavaScript), native (refuse to start without it) or javascript. */
    readonly encryptionEngine: EngineChoice;
  };
  /** Outgoing webhooks (docs/webhooks.md): where they may go, and the sender's timing. */
  readonly webhooks: {
    /** Test receivers only (WEBHOOK_TEST_HOSTS, default none): names or IP literals exempt from the https and address rules. */
    readonly testHosts: readonly string[];
    /** PEM of extra CAs trusted for webhook receivers (WEBHOOK_EXTRA_CA_FILE; tests). */
    readonly extraCaFile: string;
    readonly timeoutMs: number;
    readonly loop: WebhookLoopOptions;
  };
  /** How long each kind of detail is kept (docs/operations.md, "Retention"; retention/retention.ts). */
  readonly retention: RetentionSettings & {
    /** RETENTION_INTERVAL_SEC: from the end of one retention pass to the next. */
    readonly intervalMs: number;
  };
  /** Tokens of the callers it serves: the gateway (gRPC and HTTP) and the campaign service (gRPC). */
  readonly internalTokens: { readonly gateway: string; readonly campaign: string; readonly operator?: string };
  readonly logLevel: Level;
}

type Env = Record<string, string | undefined>;

function base64Key(raw: string, what: string): Buffer {
  const bytes = Buffer.from(raw, /[-_]/.test(raw) ? 'base64url' : 'base64');
  if (bytes.length !== 32 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) throw new ConfigError(`${what} must be base64 of exactly 32 bytes`);
  return bytes;
}

function vapidEncryptionKey(env: Env): Buffer {
  return base64Key(requireString(env, 'VAPID_ENCRYPTION_KEY').trim(), 'VAPID_ENCRYPTION_KEY');
}

/** Comma-separated, each like VAPID_ENCRYPTION_KEY; empty or unset: none. A repeat of the current key is dropped. */
function vapidEncryptionKeysPrevious(env: Env, current: Buffer): Buffer[] {
  const raw = optionalString(env, 'VAPID_ENCRYPTION_KEY_PREVIOUS', '');
  const parts = raw.split(',').map((s) => s.trim());
  if (raw.trim() === '') return [];
  const keys: Buffer[] = [];
  parts.forEach((part, i) => {
    const what = parts.length > 1 ? `VAPID_ENCRYPTION_KEY_PREVIOUS (key ${i + 1} of ${parts.length})` : 'VAPID_ENCRYPTION_KEY_PREVIOUS';
    if (part === '') throw new ConfigError(`${what} is empty: give comma-separated base64 keys of exactly 32 bytes`);
    const key = base64Key(part, what);
    if (!key.equals(current) && !keys.some((k) => k.equals(key))) keys.push(key);
  });
  return keys;
}

/** The current and previous VAPID encryption keys, validated (also used by the operator CLI). */
export function loadVapidEncryptionKeys(env: Env): { current: Buffer; previous: Buffer[] } {
  const current = vapidEncryptionKey(env);
  return { current, previous: vapidEncryptionKeysPrevious(env, current) };
}

function pushServiceHosts(env: Env): string[] {
  const hosts = list(env, 'PUSH_SERVICE_HOSTS', DEFAULT_PUSH_SERVICE_HOSTS).map((h) => h.toLowerCase());
  for (const h of hosts) {
    const problem = serviceHostRuleProblem(h);
    if (problem !== null) throw new ConfigError(`PUSH_SERVICE_HOSTS has an invalid host "${h}": it ${problem}`);
  }
  return hosts;
}

/** A list of test hosts (PUSH_TEST_HOSTS, WEBHOOK_TEST_HOSTS): lowercase names or canonical IP literals. */
function hostList(env: Env, name: string): string[] {
  const hosts = list(env, name, []).map((h) => h.toLowerCase());
  for (const h of hosts) {
    const problem = testHostProblem(h);
    if (problem !== null) throw new ConfigError(`${name} has an invalid host "${h}": it ${problem}`);
  }
  return hosts;
}

const TEST_ROUTE = /^([^=\s]+)=(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]):([1-9][0-9]{0,4})$/;

/** PUSH_TEST_ROUTES: `name=127.0.0.1:port` pairs; only loopback targets, so no setting can send pushes elsewhere. */
function testRoutes(env: Env): ReadonlyMap<string, TestRoute> {
  const routes = new Map<string, TestRoute>();
  for (const entry of list(env, 'PUSH_TEST_ROUTES', [])) {
    const m = TEST_ROUTE.exec(entry.toLowerCase());
    const port = m ? Number(m[3]) : 0;
    if (!m || port > 65535 || isIP(m[2].replace(/^\[|\]$/g, '')) === 0) {
      throw new ConfigError(`PUSH_TEST_ROUTES has an invalid entry "${entry}": it is not host=127.0.0.1:port (a loopback IP literal and a port)`);
    }
    const problem = m[1].startsWith('*.') ? 'is a wildcard' : serviceHostRuleProblem(m[1]);
    if (problem !== null) throw new ConfigError(`PUSH_TEST_ROUTES has an invalid host "${m[1]}": it ${problem}`);
    routes.set(m[1], Object.freeze({ host: m[2].replace(/^\[|\]$/g, ''), port }));
  }
  return routes;
}

/** Where subscription endpoints may point (PUSH_SERVICE_HOSTS, PUSH_TEST_HOSTS): for the operator CLI's import too. */
export function loadPushHostRules(env: Env = process.env): PushHostRules {
  return { serviceHosts: Object.freeze(pushServiceHosts(env)), testHosts: Object.freeze(hostList(env, 'PUSH_TEST_HOSTS')) };
}

/**
 * A claimed webhook is due again when its lease ends, so the lease must outlast an attempt (one
 * deadline of WEBHOOK_TIMEOUT_MS covers it) with room to record it: else a slow attempt is sent twice.
 */
function checkWebhookLease(config: DeliveryConfig): DeliveryConfig {
  if (config.webhooks.loop.leaseMs < 2 * config.webhooks.timeoutMs) {
    throw new ConfigError(`WEBHOOK_LEASE_SEC (${config.webhooks.loop.leaseMs / 1000}) must be at least twice WEBHOOK_TIMEOUT_MS (${config.webhooks.timeoutMs} ms)`);
  }
  return config;
}

/** The retention settings (docs/operations.md, "Retention"): for the service and the operator CLI. */
export function loadRetentionSettings(env: Env = process.env): DeliveryConfig['retention'] {
  return Object.freeze({
    deliveryLogDays: integer(env, 'RETENTION_DELIVERY_LOG_DAYS', 30, { min: 1, max: 3650 }),
    trackingDays: integer(env, 'RETENTION_TRACKING_DAYS', 30, { min: 1, max: 3650 }),
    // Never shorter than the longest frequency-cap window: the cap counts the pushes in it.
    capHistoryDays: integer(env, 'RETENTION_CAP_HISTORY_DAYS', 31, { min: LONGEST_CAP_WINDOW_DAYS, max: 3650 }),
    dropGraceSeconds: 60,
    intervalMs: integer(env, 'RETENTION_INTERVAL_SEC', 600, { min: 1, max: 86_400 }) * 1000,
  });
}

export function loadConfig(env: Env = process.env): Readonly<DeliveryConfig> {
  const vapidKeys = loadVapidEncryptionKeys(env);
  return Object.freeze(checkWebhookLease({
    databaseUrl: postgresUrl(env, 'DATABASE_URL'),
    pools: Object.freeze({
      interactive: integer(env, 'DB_POOL_MAX_INTERACTIVE', 10, { min: 1, max: 1000 }),
      bulk: integer(env, 'DB_POOL_MAX_BULK', 4, { min: 1, max: 1000 }),
      waitMs: integer(env, 'DB_POOL_WAIT_MS', 5000, { min: 100, max: 60_000 }),
      notifications: integer(env, 'DB_POOL_MAX_NOTIFICATIONS', 12, { min: 1, max: 1000 }),
    }),
    perSite: Object.freeze({
      imports: integer(env, 'SITE_CONCURRENT_IMPORTS', 2, { min: 1, max: 1000 }),
      exports: integer(env, 'SITE_CONCURRENT_EXPORTS', 2, { min: 1, max: 1000 }),
      importItemsPerSecond: integer(env, 'SITE_IMPORT_ITEMS_PER_SECOND', 2000, { min: 1, max: 10_000_000 }),
      exportRowsPerSecond: integer(env, 'SITE_EXPORT_ROWS_PER_SECOND', 10_000, { min: 1, max: 10_000_000 }),
    }),
    grpc: listenAddress(env, 'DELIVERY_GRPC_HOST', 'DELIVERY_GRPC_PORT', 50052),
    http: listenAddress(env, 'DELIVERY_HTTP_HOST', 'DELIVERY_HTTP_PORT', 8081),
    ops: listenAddress(env, 'DELIVERY_OPS_HOST', 'DELIVERY_OPS_PORT', 9466),
    vapidEncryptionKey: vapidKeys.current,
    vapidEncryptionKeysPrevious: Object.freeze(vapidKeys.previous),
    vapidSubject: optionalString(env, 'VAPID_SUBJECT', 'mailto:push@localhost'),
    publicUrl: httpOrigin(env, 'PUBLIC_URL'),
    pushServiceHosts: Object.freeze(pushServiceHosts(env)),
    pushTestHosts: Object.freeze(hostList(env, 'PUSH_TEST_HOSTS')),
    pushTestRoutes: testRoutes(env),
    subscribeRateLimitPerMinute: integer(env, 'SUBSCRIBE_RATE_LIMIT_PER_MINUTE', 60, { min: 0, max: 1_000_000 }),
    trackingRateLimitPerMinute: integer(env, 'TRACKING_RATE_LIMIT_PER_MINUTE', 600, { min: 0, max: 10_000_000 }),
    kafka: Object.freeze({
      brokers: Object.freeze(list(env, 'KAFKA_BROKERS', [])),
      topicPrefix: optionalString(env, 'KAFKA_TOPIC_PREFIX', ''),
      sessionTimeoutMs: integer(env, 'KAFKA_SESSION_TIMEOUT_MS', 30_000, { min: 6000, max: 300_000 }),
      // Partitions of the chunk topic, made so at start (packages/shared/src/kafka.ts ensureTopics).
      chunkPartitions: integer(env, 'KAFKA_CHUNK_PARTITIONS', TOPIC_PARTITIONS[TOPICS.chunks], { min: 1, max: 1000 }),
      requestQueueFix: boolean(env, 'KAFKAJS_REQUEST_QUEUE_FIX', true),
    }),
    statsPublishIntervalMs: integer(env, 'STATS_PUBLISH_INTERVAL_MS', 1000, { min: 10, max: 60_000 }),
    sending: Object.freeze({
      chunkSize: integer(env, 'CHUNK_SIZE', 500, { min: 1, max: 5000 }),
      chunkConcurrency: integer(env, 'CHUNK_CONCURRENCY', 12, { min: 1, max: 64 }),
      claimBatch: integer(env, 'CLAIM_BATCH_SIZE', 250, { min: 1, max: 5000 }),
      concurrencyPerOrigin: integer(env, 'PUSH_CONCURRENCY_PER_ORIGIN', 3000, { min: 1, max: 10_000 }),
      connectionsPerOrigin: integer(env, 'PUSH_CONNECTIONS_PER_ORIGIN', 32, { min: 1, max: 256 }),
      httpClient: oneOf(env, 'PUSH_HTTP_CLIENT', PUSH_HTTP_CLIENTS, 'own'),
      timeoutMs: integer(env, 'PUSH_TIMEOUT_MS', 10_000, { min: 100 }),
      retryBudgetSec: integer(env, 'PUSH_RETRY_BUDGET_SEC', 300, { min: 0, max: 2_419_200 }),
      maxAttempts: integer(env, 'PUSH_MAX_ATTEMPTS', 50, { min: 1, max: 1000 }),
      instanceDeadAfterSec: integer(env, 'INSTANCE_DEAD_AFTER_SEC', 10, { min: 3, max: 3600 }),
      deliveryLogRetrySec: integer(env, 'DELIVERY_LOG_RETRY_SEC', 120, { min: 0, max: 3600 }),
      extraCaFile: optionalString(env, 'PUSH_EXTRA_CA_FILE', ''),
      encryptionWorkers: integer(env, 'ENCRYPTION_WORKERS', usableCpus(), { min: 1, max: 256 }),
      encryptionEngine: oneOf(env, 'ENCRYPTION_ENGINE', ENGINE_CHOICES, 'auto'),
    }),
    webhooks: Object.freeze({
      testHosts: Object.freeze(hostList(env, 'WEBHOOK_TEST_HOSTS')),
      extraCaFile: optionalString(env, 'WEBHOOK_EXTRA_CA_FILE', ''),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
      loop: Object.freeze({
        ...DEFAULT_WEBHOOK_LOOP,
        pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', DEFAULT_WEBHOOK_LOOP.pollIntervalMs, { min: 10, max: 60_000 }),
        batchIntervalMs: integer(env, 'WEBHOOK_BATCH_INTERVAL_MS', DEFAULT_WEBHOOK_LOOP.batchIntervalMs, { min: 10, max: 600_000 }),
        concurrency: integer(env, 'WEBHOOK_CONCURRENCY', DEFAULT_WEBHOOK_LOOP.concurrency, { min: 1, max: 256 }),
        leaseMs: integer(env, 'WEBHOOK_LEASE_SEC', DEFAULT_WEBHOOK_LOOP.leaseMs / 1000, { min: 1, max: 3600 }) * 1000,
        retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', DEFAULT_WEBHOOK_LOOP.retryBaseMs, { min: 10, max: 3_600_000 }),
        retryForMs: integer(env, 'WEBHOOK_RETRY_FOR_SEC', DEFAULT_WEBHOOK_LOOP.retryForMs / 1000, { min: 1, max: 7 * 86_400 }) * 1000,
        disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_SEC', DEFAULT_WEBHOOK_LOOP.disableAfterMs / 1000, { min: 1, max: 30 * 86_400 }) * 1000,
        keepMs: integer(env, 'RETENTION_WEBHOOK_DELIVERIES_DAYS', DEFAULT_WEBHOOK_LOOP.keepMs / 86_400_000, { min: 1, max: 3650 }) * 86_400_000,
      }),
    }),
    retention: loadRetentionSettings(env),
    internalTokens: Object.freeze({ gateway: internalToken(env, 'GATEWAY_INTERNAL_TOKEN'), campaign: internalToken(env, 'CAMPAIGN_INTERNAL_TOKEN'), operator: operatorToken(env, 'OPERATOR_INTERNAL_TOKEN') }),
    logLevel: parseLevel(env.LOG_LEVEL),
  }));
}
