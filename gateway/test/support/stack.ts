// Component-test stack: the shared in-process stack (test/support/in-process.ts) with the REAL
// campaign and delivery services and the gateway in front of them. Sites, plans and keys are made
// with the operators.
import { createECDH, randomBytes } from 'node:crypto';
import { startInProcess, type TestSite } from '../../../test/support/in-process.js';
import { assertResponseMatchesContract } from '../../../test/support/openapi.js';
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import type { Permission } from '../../../services/campaign/src/sites/operators.js';
import type { RunningGateway } from '../../src/app.js';

export type { TestSite };

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

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
  const stack = await startInProcess(label, {
    delivery: { env: opts.delivery, log: silentLogger },
    campaign: { log: silentLogger },
    gateway: { log: silentLogger },
  });
  const gateway = stack.gateway!;
  return {
    gateway,
    deliveryHttpUrl: `http://127.0.0.1:${stack.delivery!.httpPort}`,
    deliveryOpsUrl: `http://127.0.0.1:${stack.delivery!.opsPort}`,
    campaignTarget: `127.0.0.1:${stack.campaign!.grpcPort}`,
    audienceTarget: stack.audienceTarget!,
    pool: stack.pool,
    newSite: (permissions, seed) => stack.newSite({ permissions, subscribers: seed ? [seed] : [] }),
    async revokeKeys(siteId) {
      await stack.operators.campaign.revokeKeys(siteId);
    },
    call: (method, path, opts) => request(gateway.url, method, path, opts),
    stopCampaignService: () => stack.stopCampaign(),
    startGatewayWith: (env) => stack.startGateway({ env, log: silentLogger }),
    stop: () => stack.stop(),
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
