// Component-test stack: one fresh database, the REAL campaign and delivery services in-process on
// port 0, and the gateway in front of them. Sites, plans and keys are made with the operators.
import { createECDH, randomBytes } from 'node:crypto';
import { freshDatabase } from '../../../test/support/postgres.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { assertResponseMatchesContract } from '../../../test/support/openapi.js';
import { createPool, type Pool } from '../../../services/shared/src/db.js';
import type { Logger } from '../../../services/shared/src/log.js';
import { startCampaignService } from '../../../services/campaign/src/app.js';
import { loadConfig as loadCampaignConfig } from '../../../services/campaign/src/config.js';
import { createOperators, type Permission } from '../../../services/campaign/src/domain/operators.js';
import { startDeliveryService } from '../../../services/delivery/src/app.js';
import { loadConfig as loadDeliveryConfig } from '../../../services/delivery/src/config.js';
import { createDeliveryOperators } from '../../../services/delivery/src/domain/operators.js';
import { startGateway, type RunningGateway } from '../../src/app.js';
import { loadConfig as loadGatewayConfig } from '../../src/config.js';

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

export interface TestSite {
  siteId: string;
  publicId: string;
  key: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

export interface CallOptions {
  key?: string;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** false for responses the contract does not document (unknown paths, 405). */
  contract?: boolean;
}

export interface Stack {
  gateway: RunningGateway;
  deliveryHttpUrl: string;
  /** The delivery service's ops listener (/metrics counts the HTTP requests it served). */
  deliveryOpsUrl: string;
  campaignTarget: string;
  audienceTarget: string;
  pool: Pool;
  newSite(permissions: readonly Permission[], seed?: { count: number; topics: string[]; countries: string[] }): Promise<TestSite>;
  revokeKeys(siteId: string): Promise<void>;
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  /** Stops the campaign service early (the 5xx tests); stop() then skips it. */
  stopCampaignService(): Promise<void>;
  startGatewayWith(env: Record<string, string>): Promise<RunningGateway>;
  stop(): Promise<void>;
}

export const ALL_PERMISSIONS: readonly Permission[] = ['create', 'reports', 'delete', 'audience'];

export async function request(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers.Authorization = opts.key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    if (typeof opts.body !== 'string' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
  if (opts.contract !== false) assertResponseMatchesContract(method, path, res.status, parsed);
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** `delivery`: variables for the delivery service (e.g. smaller rate limits). */
export async function startStack(label: string, opts: { delivery?: Record<string, string> } = {}): Promise<Stack> {
  const db = await freshDatabase(label);
  const vapidKey = randomBytes(32);
  const delivery = await startDeliveryService(
    loadDeliveryConfig({
      DATABASE_URL: db.url,
      VAPID_ENCRYPTION_KEY: vapidKey.toString('base64'),
      ...INTERNAL_TOKENS,
      DELIVERY_GRPC_PORT: '0',
      DELIVERY_HTTP_PORT: '0',
      DELIVERY_OPS_PORT: '0',
      LOG_LEVEL: 'error',
      ...opts.delivery,
    }),
    { log: silentLogger },
  );
  const audienceTarget = `127.0.0.1:${delivery.grpcPort}`;
  let campaign: { grpcPort: number; stop(): Promise<void> } | undefined = await startCampaignService(
    loadCampaignConfig({
      DATABASE_URL: db.url,
      CAMPAIGN_GRPC_PORT: '0',
      CAMPAIGN_METRICS_PORT: '0',
      AUDIENCE_GRPC_TARGET: audienceTarget,
      CURSOR_SECRET: randomBytes(32).toString('base64'),
      ...INTERNAL_TOKENS,
      SCHEDULER_ENABLED: 'false',
      LOG_LEVEL: 'error',
    }),
    { log: silentLogger },
  );
  const campaignTarget = `127.0.0.1:${campaign.grpcPort}`;
  const deliveryHttpUrl = `http://127.0.0.1:${delivery.httpPort}`;
  const baseEnv = {
    GATEWAY_PORT: '0',
    GATEWAY_OPS_PORT: '0',
    ...INTERNAL_TOKENS,
    CAMPAIGN_GRPC_TARGET: campaignTarget,
    AUDIENCE_GRPC_TARGET: audienceTarget,
    DELIVERY_HTTP_URL: deliveryHttpUrl,
    // A hung backend must fail a test by its own timeout, not by mocha's.
    GRPC_DEADLINE_MS: '5000',
    LOG_LEVEL: 'error',
  };
  const gateways: RunningGateway[] = [];
  const startGatewayWith = async (env: Record<string, string>) => {
    const g = await startGateway(loadGatewayConfig({ ...baseEnv, ...env }), { logger: silentLogger });
    gateways.push(g);
    return g;
  };
  const gateway = await startGatewayWith({});
  const pool = createPool(db.url, { max: 4 });
  const operators = createOperators(pool);
  const deliveryOperators = createDeliveryOperators(pool, vapidKey);
  let plans = 0;

  return {
    gateway,
    deliveryHttpUrl,
    deliveryOpsUrl: `http://127.0.0.1:${delivery.opsPort}`,
    campaignTarget,
    audienceTarget,
    pool,
    async newSite(permissions, seed) {
      const plan = await operators.createPlan(`plan_${label}_${++plans}`, permissions);
      const site = await operators.createSite({ name: `site ${plans}`, plan: plan.name });
      const { key } = await operators.issueKey(site.id);
      await deliveryOperators.registerSite({ siteId: site.id, publicId: site.publicId });
      if (seed) await deliveryOperators.seedSubscribers({ siteId: site.id, ...seed });
      return { siteId: site.id, publicId: site.publicId, key };
    },
    async revokeKeys(siteId) {
      await operators.revokeKeys(siteId);
    },
    call: (method, path, opts) => request(gateway.url, method, path, opts),
    async stopCampaignService() {
      const c = campaign;
      campaign = undefined;
      await c?.stop();
    },
    startGatewayWith,
    async stop() {
      for (const g of gateways) await g.stop();
      await campaign?.stop();
      await delivery.stop();
      await pool.end();
      await db.drop();
    },
  };
}

/** A browser-like push subscription accepted by the default push-service allow-list. */
export function browserSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('base64url')}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

export function validCreateBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Weekend sale',
    body: 'Up to 50% off on everything.',
    link: 'https://shop.example.org/sale',
    topics: ['sports'],
    status: 'draft',
    scheduleMode: 'now',
    ...overrides,
  };
}
