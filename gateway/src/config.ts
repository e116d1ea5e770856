// The gateway's only reader of process.env. A missing or malformed variable stops start-up
// with a ConfigError naming it.
import { integer, listenAddress, optionalString, ConfigError } from '../../services/shared/src/config.js';
import { internalToken } from '../../services/shared/src/internal-auth.js';
import { parseLevel, type Level } from '../../services/shared/src/log.js';

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
    logLevel: parseLevel(env.LOG_LEVEL),
  });
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
