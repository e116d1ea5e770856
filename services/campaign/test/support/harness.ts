// Component-test harness: the shared in-process stack (test/support/in-process.ts) with the real
// delivery service (Audience over gRPC) and the campaign service, and a real gRPC client over
// 127.0.0.1 calling it as the gateway does.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { campaignJson } from '@webpush/contracts/campaign-json.js';
import type { CampaignServiceClient } from '@webpush/contracts/generated/campaign/v1/CampaignService.js';
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import type { Pool } from '@webpush/shared/db.js';
import { loadCampaignProto } from '@webpush/shared/grpc.js';
import { startInProcess, type InProcessStack, type ServiceOptions, type TestSite } from '../../../../test/support/in-process.js';
import type { RunningCampaignService } from '../../src/app.js';
import { hashApiKey, type Permission } from '../../src/sites/operators.js';
import { INTERNAL_TOKENS } from '../../../../test/support/internal-tokens.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import type { StatsMessage } from '@webpush/contracts/messages.js';

export type { TestSite };

export interface Harness {
  pool: Pool;
  operators: InProcessStack['operators']['campaign'];
  /** The delivery service's operators (a site's default time zone). */
  deliveryOperators: InProcessStack['operators']['delivery'];
  /** Base URL of the delivery service's HTTP API (the site plugin's endpoints). */
  deliveryHttpUrl: string;
  /** host:port of the delivery service's Audience gRPC API (a test's own campaign create counts there). */
  audienceTarget: string;
  call<Res>(method: keyof CampaignMethods, request: object): Promise<Res>;
  newSite(opts?: { permissions?: Permission[]; subscribers?: Seed[] }): Promise<TestSite>;
  /** Another campaign service instance on the same database (scheduler races, a logger of the test's own). */
  startInstance(env?: Record<string, string>, log?: ServiceOptions['log']): Promise<RunningCampaignService>;
  stop(): Promise<void>;
}

export interface Seed {
  count: number;
  topics: string[];
  countries: string[];
}

type CampaignMethods = Pick<CampaignServiceClient, 'Authenticate' | 'CreateCampaign' | 'ListCampaigns' | 'GetCampaign' | 'DeleteCampaign' | 'PickWinner' | 'UpdateDraft' | 'ReviseCampaign' | 'CreateTemplate' | 'ListTemplates' | 'GetTemplate' | 'UpdateTemplate' | 'DeleteTemplate' | 'RenderTemplate' | 'CreateNotification' | 'GetNotification' | 'ListNotifications' | 'CreateFeed' | 'ListFeeds' | 'GetFeed' | 'UpdateFeed' | 'DeleteFeed' | 'CreateAutomation' | 'ListAutomations' | 'GetAutomation' | 'UpdateAutomation' | 'DeleteAutomation' | 'RecordEvent'>;

/** `env`: variables for the campaign service; `kafka`: connect it (and delivery) to the test Kafka; `deliveryEnv`: variables for the delivery service. */
export async function startHarness(label: string, env: Record<string, string> = {}, opts: { kafka?: boolean; deliveryEnv?: Record<string, string> } = {}): Promise<Harness> {
  const stack = await startInProcess(label, { campaign: { env }, ...(opts.deliveryEnv ? { delivery: { env: opts.deliveryEnv } } : {}), kafka: opts.kafka, poolSize: 40 });
  const { CampaignService } = loadCampaignProto().campaign.v1;
  const client = new CampaignService(`127.0.0.1:${stack.campaign!.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));

  return {
    pool: stack.pool,
    operators: stack.operators.campaign,
    deliveryOperators: stack.operators.delivery,
    deliveryHttpUrl: `http://127.0.0.1:${stack.delivery!.httpPort}`,
    audienceTarget: stack.audienceTarget!,
    call<Res>(method: keyof CampaignMethods, request: object): Promise<Res> {
      return new Promise((resolve, reject) => {
        const fn = client[method] as unknown as (req: object, cb: (err: grpc.ServiceError | null, res: Res) => void) => void;
        fn.call(client, request, (err, res) => (err ? reject(err) : resolve(res)));
      });
    },
    // Every seeded subscriber follows all of its seed's topics.
    newSite: (opts = {}) => stack.newSite({ permissions: opts.permissions, subscribers: (opts.subscribers ?? []).map((s) => ({ ...s, topicsPerSubscriber: s.topics.length })) }),
    startInstance: (extra = {}, log) => stack.startCampaign({ env: extra, log }),
    async stop() {
      client.close();
      await stack.stop();
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

/** A campaign as the API shows it (the JSON the gateway builds from GetCampaign's and ListCampaigns' messages). */
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

/** GetCampaign, its API JSON parsed. */
export async function getCampaign(h: Harness, siteId: string, campaignId: string): Promise<ApiCampaign> {
  const res = await h.call<GetCampaignResponse__Output>('GetCampaign', { siteId, campaignId });
  return JSON.parse(campaignJson(res.campaign!)) as ApiCampaign;
}

/** ListCampaigns, its items parsed. */
export async function listCampaigns(h: Harness, siteId: string, bodyJson: string): Promise<ApiPage> {
  const res = await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId, bodyJson });
  return { items: res.items.map((c) => JSON.parse(campaignJson(c)) as ApiCampaign), limit: res.page!.limit, hasMore: res.page!.hasMore, nextCursor: res.page!.nextCursor ?? '' };
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
