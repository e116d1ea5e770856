// The gateway's only reader of process.env. A missing or malformed variable stops start-up
// with a ConfigError naming it.
import { boolean, httpOrigin, integer, list, listenAddress, optionalString, ConfigError } from '@webpush/shared/config.js';
import { internalToken } from '@webpush/shared/internal-auth.js';
import { parseLevel, type Level } from '@webpush/shared/log.js';
import { parseTrustedProxies } from './http/client-address.js';

export interface GatewayConfig {
  host: string;
  port: number;
  campaignGrpcTarget: string;
  audienceGrpcTarget: string;
  deliveryHttpUrl: string;
  /** 0 disables the API-key cache. */
  authCacheTtlMs: number;
  grpcDeadlineMs: number;
  bodyLimitBytes: number;
  /** The gateway's own token, sent with every internal call (GATEWAY_INTERNAL_TOKEN). */
  internalToken: string;
  /** /healthz, /readyz and /metrics, on an internal address (GATEWAY_OPS_HOST, GATEWAY_OPS_PORT). */
  ops: { host: string; port: number };
  /** Addresses and CIDR ranges whose X-Forwarded-For and country header are believed; none by default. */
  trustedProxies: readonly string[];
  /** Lowercase name of the header a trusted proxy puts the visitor's country in; '' = none. */
  countryHeader: string;
  /** Slow clients and connection caps of the public listener (0 = Node's "no limit" where allowed). */
  server: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    socketIdleTimeoutMs: number;
    maxConnections: number;
  };
  /** /v2 abuse limits; 0 turns one off. */
  rateLimits: {
    /** Calls per API key per minute (token bucket refill)… */
    perKeyPerMinute: number;
    /** …and how many it may make at once (bucket size). */
    perKeyBurst: number;
    /** Distinct unknown keys per client address per minute (key guessing). */
    keyFailuresPerMinute: number;
  };
  /** The console (docs/console.md). */
  console: {
    /** The session cookie's `Secure` attribute (CONSOLE_SECURE_COOKIE): true unless the gateway is reached over plain http. */
    secureCookie: boolean;
  };
  /**
   * The origin the public reaches the gateway at (PUBLIC_URL, e.g. https://push.example.net), as
   * the console shows it in the plugin snippet; '' = the origin each request was sent to.
   */
  publicUrl: string;
  logLevel: Level;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Readonly<GatewayConfig> {
  const { host, port } = listenAddress(env, 'GATEWAY_HOST', 'GATEWAY_PORT', 8080);
  return Object.freeze({
    host,
    port,
    campaignGrpcTarget: optionalString(env, 'CAMPAIGN_GRPC_TARGET', '127.0.0.1:50051'),
    audienceGrpcTarget: optionalString(env, 'AUDIENCE_GRPC_TARGET', '127.0.0.1:50052'),
    deliveryHttpUrl: httpUrl(env, 'DELIVERY_HTTP_URL', 'http://127.0.0.1:8081'),
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', 5000, { min: 0, max: 3_600_000 }),
    grpcDeadlineMs: integer(env, 'GRPC_DEADLINE_MS', 10_000, { min: 1, max: 600_000 }),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 102_400, { min: 1, max: 100 * 1024 * 1024 }),
    internalToken: internalToken(env, 'GATEWAY_INTERNAL_TOKEN'),
    ops: listenAddress(env, 'GATEWAY_OPS_HOST', 'GATEWAY_OPS_PORT', 9465),
    trustedProxies: Object.freeze(trustedProxies(env)),
    countryHeader: countryHeader(env),
    server: Object.freeze(serverLimits(env)),
    rateLimits: Object.freeze(rateLimits(env)),
    console: Object.freeze({ secureCookie: boolean(env, 'CONSOLE_SECURE_COOKIE', true) }),
    publicUrl: httpOrigin(env, 'PUBLIC_URL'),
    logLevel: parseLevel(env.LOG_LEVEL),
  });
}

function trustedProxies(env: Env): string[] {
  const entries = list(env, 'TRUSTED_PROXIES', []);
  try {
    parseTrustedProxies(entries);
  } catch (err) {
    throw new ConfigError(`TRUSTED_PROXIES: ${(err as Error).message} (give comma-separated IPv4/IPv6 addresses or CIDR ranges)`);
  }
  return entries;
}

function countryHeader(env: Env): string {
  const name = optionalString(env, 'COUNTRY_HEADER', '').trim().toLowerCase();
  if (name !== '' && !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new ConfigError('COUNTRY_HEADER must be an HTTP header name');
  return name;
}

function serverLimits(env: Env): GatewayConfig['server'] {
  const headersTimeoutMs = integer(env, 'GATEWAY_HEADERS_TIMEOUT_MS', 10_000, { min: 100, max: 600_000 });
  const requestTimeoutMs = integer(env, 'GATEWAY_REQUEST_TIMEOUT_MS', 30_000, { min: 100, max: 3_600_000 });
  // Node refuses a headers timeout longer than the whole request's.
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError('GATEWAY_HEADERS_TIMEOUT_MS must not exceed GATEWAY_REQUEST_TIMEOUT_MS');
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'GATEWAY_KEEP_ALIVE_TIMEOUT_MS', 5000, { min: 0, max: 600_000 }),
    socketIdleTimeoutMs: integer(env, 'GATEWAY_SOCKET_IDLE_TIMEOUT_MS', 60_000, { min: 0, max: 3_600_000 }),
    maxConnections: integer(env, 'GATEWAY_MAX_CONNECTIONS', 10_000, { min: 0, max: 1_000_000 }),
  };
}

function rateLimits(env: Env): GatewayConfig['rateLimits'] {
  const perKeyPerMinute = integer(env, 'API_RATE_LIMIT_PER_MINUTE', 600, { min: 0, max: 10_000_000 });
  return {
    perKeyPerMinute,
    perKeyBurst: integer(env, 'API_RATE_LIMIT_BURST', Math.max(1, perKeyPerMinute), { min: 1, max: 10_000_000 }),
    keyFailuresPerMinute: integer(env, 'API_KEY_FAILURES_PER_MINUTE', 30, { min: 0, max: 1_000_000 }),
  };
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = optionalString(env, name, fallback);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}
