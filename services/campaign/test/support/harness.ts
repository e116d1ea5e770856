// Component-test harness: a fresh database, the real delivery service (Audience over gRPC),
// the campaign service on port 0 and a real gRPC client over 127.0.0.1.
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CampaignServiceClient } from '../../../../protos/generated/campaign/v1/CampaignService.js';
import type { GetCampaignResponse__Output } from '../../../../protos/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '../../../../protos/generated/campaign/v1/ListCampaignsResponse.js';
import { createPool, type Pool } from '../../../shared/src/db.js';
import { loadCampaignProto } from '../../../shared/src/grpc.js';
import { freshDatabase } from '../../../../test/support/postgres.js';
import { startDeliveryService } from '../../../delivery/src/app.js';
import { loadConfig as loadDeliveryConfig } from '../../../delivery/src/config.js';
import { createDeliveryOperators } from '../../../delivery/src/domain/operators.js';
import { startCampaignService } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createOperators, hashApiKey, type Permission } from '../../src/domain/operators.js';
import { INTERNAL_TOKENS } from '../../../../test/support/internal-tokens.js';
import { withInternalToken } from '../../../shared/src/internal-auth.js';
import type { StatsMessage } from '../../../shared/src/messages.js';

export interface TestSite {
  siteId: string;
  publicId: string;
  key: string;
}

export interface Harness {
  pool: Pool;
  databaseUrl: string;
  audienceTarget: string;
  cursorSecret: string;
  client: CampaignServiceClient;
  operators: ReturnType<typeof createOperators>;
  call<Res>(method: keyof CampaignMethods, request: object): Promise<Res>;
  newSite(opts?: { permissions?: Permission[]; subscribers?: Seed[] }): Promise<TestSite>;
  /** Another campaign service instance on the same database (scheduler races). */
  startInstance(env?: Record<string, string>): Promise<{ grpcPort: number; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

export interface Seed {
  count: number;
  topics: string[];
  countries: string[];
}

type CampaignMethods = Pick<CampaignServiceClient, 'Authenticate' | 'CreateCampaign' | 'ListCampaigns' | 'GetCampaign' | 'DeleteCampaign'>;

const ALL: Permission[] = ['create', 'reports', 'delete', 'audience'];

export async function startHarness(label: string, env: Record<string, string> = {}): Promise<Harness> {
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
    }),
  );
  const audienceTarget = `127.0.0.1:${delivery.grpcPort}`;
  const cursorSecret = randomBytes(32).toString('base64');
  const baseEnv = {
    DATABASE_URL: db.url,
    CAMPAIGN_GRPC_PORT: '0',
    CAMPAIGN_METRICS_PORT: '0',
    AUDIENCE_GRPC_TARGET: audienceTarget,
    CURSOR_SECRET: cursorSecret,
    ...INTERNAL_TOKENS,
    SCHEDULER_ENABLED: 'false',
    LOG_LEVEL: 'error',
  };
  const service = await startCampaignService(loadConfig({ ...baseEnv, ...env }));
  const { CampaignService } = loadCampaignProto().campaign.v1;
  const client = new CampaignService(`127.0.0.1:${service.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
  const pool = createPool(db.url, { max: 40 });
  const operators = createOperators(pool);
  const deliveryOperators = createDeliveryOperators(pool, vapidKey);
  const instances: { stop(): Promise<void> }[] = [];
  let plans = 0;

  return {
    pool,
    databaseUrl: db.url,
    audienceTarget,
    cursorSecret,
    client,
    operators,
    call<Res>(method: keyof CampaignMethods, request: object): Promise<Res> {
      return new Promise((resolve, reject) => {
        const fn = client[method] as unknown as (req: object, cb: (err: grpc.ServiceError | null, res: Res) => void) => void;
        fn.call(client, request, (err, res) => (err ? reject(err) : resolve(res)));
      });
    },
    async newSite(opts = {}) {
      const plan = await operators.createPlan(`plan_${++plans}`, opts.permissions ?? ALL);
      const site = await operators.createSite({ name: `site ${plans}`, plan: plan.name });
      const { key } = await operators.issueKey(site.id);
      await deliveryOperators.registerSite({ siteId: site.id, publicId: site.publicId });
      for (const seed of opts.subscribers ?? []) {
        await deliveryOperators.seedSubscribers({ siteId: site.id, ...seed, topicsPerSubscriber: seed.topics.length });
      }
      return { siteId: site.id, publicId: site.publicId, key };
    },
    async startInstance(extra = {}) {
      const instance = await startCampaignService(loadConfig({ ...baseEnv, ...extra }));
      instances.push(instance);
      return instance;
    },
    async stop() {
      client.close();
      for (const i of instances) await i.stop();
      await service.stop();
      await delivery.stop();
      await pool.end();
      await db.drop();
    },
  };
}

/** Resolves to the gRPC error the promise rejected with; fails the test if it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (err) {
    return err as grpc.ServiceError;
  }
  expect.fail('expected the call to fail');
}

export async function expectStatus(promise: Promise<unknown>, code: grpc.status, details: string): Promise<void> {
  const err = await rejection(promise);
  expect({ code: err.code, details: err.details }).to.deep.equal({ code, details });
}

export { hashApiKey };

export const validCampaign = (overrides: Record<string, unknown> = {}) => ({
  title: 'Big sale',
  body: 'Everything half price today',
  link: 'https://shop.example/sale',
  topics: ['sports'],
  status: 'draft',
  scheduleMode: 'now',
  ...overrides,
});

/** A campaign as the API shows it (what GetCampaign and ListCampaigns carry as JSON text). */
export interface ApiCampaign {
  id: string;
  title: string;
  body: string;
  link: string;
  topics: string[];
  status: string;
  scheduleDate: string;
  scheduleMode: string;
  createdAt: string;
  updatedAt: string | null;
  totalUsers: number;
  image: string | null;
  icon: string | null;
  callToAction: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  ttl: number;
  ttlUnit: string;
  analytics: { clicks: number; impressions: number; ctr: number; its: number; totalUsers: number };
  /** The addition of 2026-11-23 (docs/api-decisions.md, "Delivery counts"). */
  delivery: {
    sent: number;
    failed: number;
    expired: number;
    pending: number;
    failedBy: { rejected: number; unauthorized: number; unreachable: number; refused: number };
  };
}

export interface ApiPage {
  items: ApiCampaign[];
  limit: number;
  hasMore: boolean;
  nextCursor: string;
}

/** GetCampaign, its JSON parsed. */
export async function getCampaign(h: Harness, siteId: string, campaignId: string): Promise<ApiCampaign> {
  const res = await h.call<GetCampaignResponse__Output>('GetCampaign', { siteId, campaignId });
  return JSON.parse(res.campaignJson.toString('utf8')) as ApiCampaign;
}

/** ListCampaigns, its items parsed. */
export async function listCampaigns(h: Harness, siteId: string, bodyJson: string): Promise<ApiPage> {
  const res = await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId, bodyJson });
  return { items: JSON.parse(res.itemsJson.toString('utf8')) as ApiCampaign[], limit: res.limit, hasMore: res.hasMore, nextCursor: res.nextCursor };
}

/** A delivery stats event for `campaignId`: zero counters, state `sending`, then `m`. */
export const statsMessage = (campaignId: string, m: Partial<StatsMessage> = {}): StatsMessage => ({
  type: 'campaign.stats',
  version: 1,
  campaignId,
  sent: 0,
  failed: 0,
  expired: 0,
  impressions: 0,
  clicks: 0,
  state: 'sending',
  ...m,
});
