import { createECDH, randomBytes } from 'node:crypto';
// Customer-side fixtures for the end-to-end suites: sites made with the real operator CLI and
// valid request bodies.
import type { Stack } from './harness.js';
import type { PushSimulator } from '../../../tools/push-simulator/src/index.js';

export interface SiteInfo {
  id: string;
  publicId: string;
  apiKey: string;
  keyId: string;
  vapidPublicKey: string;
}

let planSeq = 0;

/** A new plan with exactly these permissions, and a site on it. */
export async function siteWithPermissions(stack: Stack, permissions: string[], name = 'site'): Promise<SiteInfo> {
  const plan = `plan_${process.pid}_${++planSeq}`;
  await stack.cli('plans', 'create', plan, '--permissions', permissions.length ? permissions.join(',') : 'none');
  return stack.cli('sites', 'create', name, '--plan', plan);
}

export const ALL = ['create', 'reports', 'delete', 'audience'];

export function validCampaign(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Weekend sale',
    body: 'Everything is half price until Sunday',
    link: 'https://shop.example/sale',
    topics: ['news'],
    status: 'draft',
    scheduleMode: 'now',
    ...overrides,
  };
}

export function inSeconds(s: number): string {
  return new Date(Date.now() + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const DATE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A browser's subscription keys: a fresh P-256 public key (uncompressed point) and 16 random auth bytes, base64url. */
export function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** A browser-like push subscription on a local "push service" host (allowed in the e2e env). */
export function browserSubscription(id: string) {
  return { endpoint: `https://127.0.0.1/push/${id}`, keys: browserKeys() };
}

export async function subscribe(stack: Stack, site: SiteInfo, id: string, topics: string[], country?: string) {
  const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
    body: { subscription: browserSubscription(id), topics },
    headers: country ? { 'x-test-country': country } : {},
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
  return res.body as { id: string; created: boolean };
}

/**
 * `count` browsers of the push-service simulator subscribed to the site through the public
 * endpoint, one after the other: each one's simulator id and the public subscriber id we gave
 * it. `fields(i)` adds to the i-th subscribe body (topics, language, timeZone…).
 */
export async function subscribeSimulated(
  stack: Stack,
  sim: PushSimulator,
  site: SiteInfo,
  count: number,
  fields: (i: number) => Record<string, unknown>,
): Promise<{ simId: string; subscriberId: string }[]> {
  const subscribed: { simId: string; subscriberId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const sub = sim.createSubscription(site.vapidPublicKey);
    const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, ...fields(i) } });
    if (res.status !== 201) throw new Error(`subscribe ${i + 1} of ${count}: ${res.status} ${res.text}`);
    subscribed.push({ simId: sub.id, subscriberId: res.body.id as string });
  }
  return subscribed;
}
