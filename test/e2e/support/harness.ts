// End-to-end harness: a fresh database, the three services as real processes (the same
// launcher `npm start` uses), the operator CLI as a real process, and an HTTP client that
// checks every /v2 and /public response against the OpenAPI contract.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../../scripts/lib/local-env.js';
import { startServices, type Ports, type RunningServices, type ServiceName } from '../../../scripts/lib/services.js';
import { assertResponseMatchesContract } from '../../support/openapi.js';
import { freshDatabase } from '../../support/postgres.js';
import { testKafkaBrokers } from '../../support/kafka.js';

const run = promisify(execFile);

export interface Stack {
  services: RunningServices;
  api: Api;
  cli(...args: string[]): Promise<any>;
  /** Output lines of the services, for failure messages. */
  logs: string[];
  databaseUrl: string;
  /** The stack's VAPID_ENCRYPTION_KEY (base64), from which the tracking-token key is derived. */
  vapidEncryptionKey: string;
  stop(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface Api {
  request(method: string, path: string, opts?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ApiResponse>;
}

export function createApi(baseUrl: string): Api {
  return {
    async request(method, urlPath, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key != null) headers.Authorization = opts.key;
      let payload: string | undefined;
      if (opts.rawBody !== undefined) payload = opts.rawBody;
      else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
      if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
      const res = await fetch(baseUrl + urlPath, { method, headers, body: payload, signal: AbortSignal.timeout(15_000) });
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const pathOnly = urlPath.split('?')[0];
      if (pathOnly.startsWith('/v2/') || pathOnly.startsWith('/public/')) assertResponseMatchesContract(method, pathOnly, res.status, body);
      return { status: res.status, headers: res.headers, body, text };
    },
  };
}

export interface StackOptions {
  /** A database of the caller's own (e.g. on a Postgres the test stops and starts); default a fresh one on the test server. */
  database?: { url: string; drop(): Promise<void> };
  /** Restart a service that exits on its own, as `npm start` does (see startServices). */
  supervise?: boolean;
}

export async function startStack(label: string, env: Record<string, string> = {}, ports: Partial<Ports> = {}, options: StackOptions = {}): Promise<Stack> {
  const db = options.database ?? (await freshDatabase(label));
  const cursorSecret = randomBytes(32).toString('base64');
  const vapidEncryptionKey = randomBytes(32).toString('base64');
  const logs: string[] = [];
  let services: RunningServices;
  try {
    services = await startServices({
      databaseUrl: db.url,
      cursorSecret,
      vapidEncryptionKey,
      ports,
      supervise: options.supervise,
      env: {
        KAFKA_BROKERS: testKafkaBrokers(),
        // Every stack gets topics and consumer groups of its own on the shared test broker.
        KAFKA_TOPIC_PREFIX: `${label}-${randomBytes(3).toString('hex')}.`,
        PUSH_TEST_HOSTS: '127.0.0.1,localhost',
        AUTH_CACHE_TTL_MS: '300',
        SCHEDULER_INTERVAL_MS: '200',
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
        ...env,
      },
      onLine: (name: ServiceName, line: string) => {
        if (logs.length < 5000) logs.push(`[${name}] ${line}`);
      },
    });
  } catch (err) {
    await db.drop();
    throw new Error(`${(err as Error).message}\n${logs.slice(-40).join('\n')}`);
  }
  const cliEnv = cliEnvOf(services, db.url, vapidEncryptionKey);
  return {
    services,
    api: createApi(services.gatewayUrl),
    logs,
    databaseUrl: db.url,
    vapidEncryptionKey,
    async cli(...args: string[]) {
      try {
        const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args, '--json'], {
          cwd: ROOT,
          env: cliEnv,
          timeout: 60_000,
        });
        return JSON.parse(stdout);
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        throw new Error(`cli ${args.join(' ')} failed: ${e.stderr || e.message}`);
      }
    },
    async stop() {
      await services.stop();
      await db.drop();
    },
  };
}

/**
 * What the operator CLI needs to work on this stack: the services' admin APIs and the operators'
 * token, and for its database tools the database, the VAPID key and the push hosts imported
 * endpoints are checked against (the services').
 */
export function cliEnvOf(services: RunningServices, databaseUrl: string, vapidEncryptionKey: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CAMPAIGN_GRPC_TARGET: `127.0.0.1:${services.ports.campaignGrpc}`,
    AUDIENCE_GRPC_TARGET: `127.0.0.1:${services.ports.deliveryGrpc}`,
    OPERATOR_INTERNAL_TOKEN: services.env.campaign.OPERATOR_INTERNAL_TOKEN,
    DATABASE_URL: databaseUrl,
    VAPID_ENCRYPTION_KEY: vapidEncryptionKey,
    PUSH_TEST_HOSTS: services.env.delivery.PUSH_TEST_HOSTS ?? '',
  };
}

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` until it returns a value other than undefined, at most `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await sleep(everyMs);
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
}
