// Test helpers for the delivery suites: the shared in-process stack (test/support/in-process.ts)
// with the delivery service alone, its gRPC and HTTP clients, seeders and brute-force counters.
import { randomBytes, randomUUID, createECDH } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { startInProcess } from '../../../test/support/in-process.js';
import type { AudienceClient } from '@webpush/contracts/generated/delivery/v1/Audience.js';
import type { WebhooksClient } from '@webpush/contracts/generated/delivery/v1/Webhooks.js';
import type { RunsClient } from '@webpush/contracts/generated/delivery/v1/Runs.js';
import type { ConsoleDataClient } from '@webpush/contracts/generated/delivery/v1/ConsoleData.js';
import type { AuditLogClient } from '@webpush/contracts/generated/delivery/v1/AuditLog.js';
import type { Pool } from '@webpush/shared/db.js';
import { loadAudienceProto, loadAuditLogProto, loadConsoleDataProto, loadRunsProto, loadWebhooksProto } from '@webpush/shared/grpc.js';
import { createLogger, type Logger } from '@webpush/shared/log.js';
import type { DeliveryService } from '../src/app.js';
import type { DeliveryConfig } from '../src/config.js';
import type { DeliveryOperators } from '../src/operators.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { INTERNAL_AUTH_HEADER, withInternalToken } from '@webpush/shared/internal-auth.js';
import { CLIENT_ADDRESS_HEADER, CLIENT_COUNTRY_HEADER } from '@webpush/shared/edge-headers.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import type { DispatchMessage } from '@webpush/contracts/messages.js';

export interface TestDelivery {
  service: DeliveryService;
  config: DeliveryConfig;
  pool: Pool;
  operators: DeliveryOperators;
  /** As the campaign service calls it (CountAudience). */
  audience: AudienceClient;
  /** As the gateway calls it (ListTopics, ListCountries). */
  audienceAsGateway: AudienceClient;
  /** The gRPC Webhooks service, as the gateway calls it. */
  webhooks: WebhooksClient;
  /** The gRPC Runs service, as the campaign service calls it (PickWinner). */
  runs: RunsClient;
  /** The gRPC ConsoleData service, as the gateway calls it. */
  consoleData: ConsoleDataClient;
  /** The gRPC AuditLog service, as the gateway calls it. */
  auditLog: AuditLogClient;
  baseUrl: string;
  /** The ops listener: /healthz, /readyz, /metrics. */
  opsUrl: string;
  stop(): Promise<void>;
}

export async function startTestDelivery(label: string, env: Record<string, string> = {}, log?: Logger): Promise<TestDelivery> {
  const stack = await startInProcess(label, {
    delivery: {
      // The fake push services of the tests listen on loopback; real hosts keep their defaults.
      env: { PUSH_TEST_HOSTS: '127.0.0.1,localhost', ...env },
      log: log ?? createLogger('delivery-test', 'error'),
    },
  });
  const service = stack.delivery!;
  const proto = loadAudienceProto();
  const target = stack.audienceTarget!;
  const audience = new proto.delivery.v1.Audience(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN));
  const audienceAsGateway = new proto.delivery.v1.Audience(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
  const webhooks = new (loadWebhooksProto().delivery.v1.Webhooks)(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
  const runs = new (loadRunsProto().delivery.v1.Runs)(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN));
  const consoleData = new (loadConsoleDataProto().delivery.v1.ConsoleData)(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
  const auditLog = new (loadAuditLogProto().delivery.v1.AuditLog)(target, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
  return {
    service,
    config: service.config,
    pool: stack.pool,
    operators: stack.operators.delivery,
    audience,
    audienceAsGateway,
    webhooks,
    runs,
    consoleData,
    auditLog,
    baseUrl: `http://127.0.0.1:${service.httpPort}`,
    opsUrl: `http://127.0.0.1:${service.opsPort}`,
    stop: async () => {
      audience.close();
      audienceAsGateway.close();
      webhooks.close();
      runs.close();
      consoleData.close();
      auditLog.close();
      await stack.stop();
    },
  };
}

export async function newSite(t: TestDelivery): Promise<{ siteId: string; publicId: string }> {
  const site = { siteId: randomUUID(), publicId: 'pub_' + randomBytes(16).toString('base64url').slice(0, 22) };
  await t.operators.registerSite(site);
  return site;
}

function unary<Req, Res>(fn: (req: Req, cb: (err: grpc.ServiceError | null, res?: Res) => void) => unknown, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => fn(req, (err, res) => (err ? reject(err) : resolve(res as Res))));
}

export function countAudience(t: TestDelivery, siteId: string, topics: string[], countries: string[]): Promise<number> {
  return unary(t.audience.CountAudience.bind(t.audience), { siteId, topics, countries }).then((r) => r.users);
}

export function listTopics(t: TestDelivery, siteId: string) {
  return unary(t.audienceAsGateway.ListTopics.bind(t.audienceAsGateway), { siteId }).then((r) => r.entries.map((e) => ({ name: e.name, users: e.users })));
}

export function listCountries(t: TestDelivery, siteId: string) {
  return unary(t.audienceAsGateway.ListCountries.bind(t.audienceAsGateway), { siteId }).then((r) => r.entries.map((e) => ({ name: e.name, users: e.users })));
}

export function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

export function pushEndpoint(host = '127.0.0.1'): string {
  return `https://${host}/push/${randomBytes(12).toString('base64url')}`;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** The visitor address the `request` helper names unless told another. */
export const TEST_CLIENT_ADDRESS = '192.0.2.10';

export interface RequestOptions {
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** The visitor's address, as the gateway passes it (default TEST_CLIENT_ADDRESS). */
  client?: string;
  /** The visitor's country code, as the gateway passes it (default: none). */
  country?: string;
  /** false: call as an outsider, without the gateway's token and internal headers. */
  asGateway?: boolean;
}

/** An HTTP call as the gateway makes it: its token, the visitor's address and country (routes/client-address.ts). */
export async function request(t: TestDelivery, method: string, path: string, opts: RequestOptions = {}): Promise<HttpAnswer> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const asGateway = opts.asGateway ?? true;
  const res = await fetch(t.baseUrl + path, {
    method,
    headers: {
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(asGateway
        ? {
            [INTERNAL_AUTH_HEADER]: INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN,
            [CLIENT_ADDRESS_HEADER]: opts.client ?? TEST_CLIENT_ADDRESS,
            ...(opts.country !== undefined ? { [CLIENT_COUNTRY_HEADER]: opts.country } : {}),
          }
        : {}),
      ...opts.headers,
    },
    body: payload,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* non-JSON answers stay text */
  }
  return { status: res.status, headers: res.headers, body };
}

/** Counters recomputed from the subscribers table, the way the triggers must keep them. */
export async function bruteForceNames(pool: Pool, siteId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query(
    `SELECT name, count(*)::int AS users FROM (
       SELECT country AS name FROM delivery.subscribers WHERE site_id = $1 AND active
       UNION ALL
       SELECT DISTINCT ON (s.id, t) t FROM delivery.subscribers s, unnest(s.topics) t WHERE s.site_id = $1 AND s.active) x
     GROUP BY name`,
    [siteId],
  );
  return new Map(rows.map((r) => [r.name as string, r.users as number]));
}

export async function storedNames(pool: Pool, siteId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query('SELECT name, users::int AS users FROM delivery.audience_names WHERE site_id = $1 AND users <> 0', [siteId]);
  return new Map(rows.map((r) => [r.name as string, r.users as number]));
}

export async function bruteForceUnion(pool: Pool, siteId: string, topics: string[], countries: string[]): Promise<number> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM delivery.subscribers WHERE site_id = $1 AND active AND (country = ANY($2) OR topics && $3)`,
    [siteId, countries, topics],
  );
  return rows[0].n as number;
}

export async function bruteForceGroups(pool: Pool, siteId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query(
    `SELECT country || '|' || array_to_string(delivery.topic_set(topics), ',') AS k, count(*)::int AS users
       FROM delivery.subscribers WHERE site_id = $1 AND active GROUP BY 1`,
    [siteId],
  );
  return new Map(rows.map((r) => [r.k as string, r.users as number]));
}

export async function storedGroups(pool: Pool, siteId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query(
    `SELECT country || '|' || array_to_string(topics, ',') AS k, users::int AS users
       FROM delivery.audience_groups WHERE site_id = $1 AND users <> 0`,
    [siteId],
  );
  return new Map(rows.map((r) => [r.k as string, r.users as number]));
}

export function sortedEntries(m: Map<string, number>): [string, number][] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A dispatch job (what the campaign service's relay publishes) for `audience`, with a plain notification. */
export function dispatchMessage(siteId: string, audience: string[], opts: { ttl?: number; content?: Partial<CampaignContent> } = {}): DispatchMessage {
  return {
    type: 'campaign.dispatch',
    version: 2,
    campaignId: randomUUID(),
    siteId,
    dispatchedAt: new Date().toISOString(),
    content: { title: 'Hello', body: 'World', link: 'https://shop.example/', utmSource: '', utmMedium: '', utmCampaign: '', icon: null, image: null, callToAction: '', ...opts.content },
    ttl: opts.ttl ?? 60,
    audience,
  };
}
