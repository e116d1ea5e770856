// The demo site that `npm start` prepares so a fresh clone has something to call: a plan with
// every permission, one site, an API key, a console login that owns the site, and demo "browsers"
// subscribed at the push-service simulator, so a campaign sent with the demo key (or from the
// console) shows real sends, impressions and clicks. The raw demo key and the demo login's
// password (generated once) are kept in .data/demo.json (a local development convenience, mode
// 600); production keys are only ever shown once, and production passwords never stored.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from '@webpush/shared/db.js';
import { createOperators, PERMISSIONS } from '../../services/campaign/src/sites/operators.js';
import { createAccounts } from '../../services/campaign/src/accounts/accounts.js';
import { createDeliveryOperators } from '../../services/delivery/src/operators.js';
import { DATA_DIR } from './local-env.js';
import type { SimulatorProcess } from './simulator-process.js';
import { CLIENT_ADDRESS_HEADER, CLIENT_COUNTRY_HEADER } from '@webpush/shared/edge-headers.js';
import { INTERNAL_AUTH_HEADER } from '@webpush/shared/internal-auth.js';

const DEMO_FILE = path.join(DATA_DIR, 'demo.json');
const DEMO_PLAN = 'demo';
/** The console login of the demo site's owner (README, "Two commands"). */
export const DEMO_EMAIL = 'demo@example.com';
const TOPICS = ['news', 'sports', 'tech', 'culture', 'economy'];
const COUNTRIES = ['BR', 'PT', 'US', 'DE', ''];

export interface Demo {
  siteId: string;
  publicId: string;
  apiKey: string;
  keyId: string;
  vapidPublicKey: string;
  /** The console login: the site's owner. */
  consoleEmail: string;
  consolePassword: string;
  /** Endpoints of the browsers subscribed at the last start (the simulator forgets them). */
  browserEndpoints?: string[];
}

async function readDemo(): Promise<Partial<Demo>> {
  try {
    return JSON.parse(await readFile(DEMO_FILE, 'utf8'));
  } catch {
    return {};
  }
}

export async function ensureDemo(pool: Pool, vapidEncryptionKey: Buffer): Promise<Demo> {
  const ops = createOperators(pool);
  const delivery = createDeliveryOperators(pool, vapidEncryptionKey);
  if (!(await ops.listPlans()).some((p) => p.name === DEMO_PLAN)) await ops.createPlan(DEMO_PLAN, PERMISSIONS);
  const demo = await readDemo();
  const found = demo.siteId ? await ops.getSite(demo.siteId) : null;
  const created = found ? undefined : await ops.createSite({ name: 'Demo site', plan: DEMO_PLAN }, delivery.registerSite);
  const site = found ?? created!.site;
  // Registered already (idempotent): answers the site's VAPID public key.
  const { vapidPublicKey } = created ?? (await delivery.registerSite({ siteId: site.id, publicId: site.publicId }));
  const keys = await ops.listKeys(site.id);
  let apiKey = created?.issued.key ?? demo.apiKey;
  let keyId = created?.issued.keyId ?? demo.keyId;
  if (!apiKey || !keyId || !keys.some((k) => k.keyId === keyId && k.revokedAt === null)) {
    const issued = await ops.issueKey(site.id);
    apiKey = issued.key;
    keyId = issued.keyId;
  }
  // Set at every start, so the login printed always works (whatever was done to the user since).
  const consolePassword = demo.consolePassword ?? randomBytes(12).toString('base64url');
  await createAccounts(pool).ensureMember({ site: site.id, email: DEMO_EMAIL, password: consolePassword, role: 'owner' });
  const result: Demo = {
    siteId: site.id,
    publicId: site.publicId,
    apiKey,
    keyId,
    vapidPublicKey,
    consoleEmail: DEMO_EMAIL,
    consolePassword,
    browserEndpoints: demo.browserEndpoints ?? [],
  };
  await writeFile(DEMO_FILE, JSON.stringify(result, null, 2) + '\n', { mode: 0o600 });
  return result;
}

/**
 * Subscribes `count` simulated browsers after unsubscribing the previous start's browsers (the
 * simulator does not survive a restart). The launcher plays the trusted edge for its own
 * simulated visitors: it calls the delivery service's plugin endpoint as the gateway would, with
 * the gateway's token and a visitor country, so the demo has countries while the real gateway
 * believes no client's country header (docs/security.md).
 */
export async function subscribeDemoBrowsers(demo: Demo, simulator: SimulatorProcess, edge: { deliveryHttpUrl: string; gatewayToken: string }, count: number): Promise<number> {
  const url = `${edge.deliveryHttpUrl}/public/v1/sites/${demo.publicId}/subscriptions`;
  const headers = (country?: string) => ({
    'content-type': 'application/json',
    [INTERNAL_AUTH_HEADER]: edge.gatewayToken,
    [CLIENT_ADDRESS_HEADER]: '127.0.0.1',
    ...(country ? { [CLIENT_COUNTRY_HEADER]: country.toUpperCase() } : {}),
  });
  for (const endpoint of demo.browserEndpoints ?? []) {
    await fetch(url, { method: 'DELETE', headers: headers(), body: JSON.stringify({ endpoint }) }).catch(() => {});
  }
  const endpoints: string[] = [];
  for (let i = 0; i < count; i++) {
    const sub = await simulator.createSubscription(demo.vapidPublicKey);
    const topics = [TOPICS[i % TOPICS.length], TOPICS[(i * 7 + 3) % TOPICS.length]];
    const country = COUNTRIES[i % COUNTRIES.length];
    const res = await fetch(url, {
      method: 'POST',
      headers: headers(country),
      body: JSON.stringify({ subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics }),
    });
    if (res.ok) endpoints.push(sub.endpoint);
  }
  await writeFile(DEMO_FILE, JSON.stringify({ ...demo, browserEndpoints: endpoints }, null, 2) + '\n', { mode: 0o600 });
  return endpoints.length;
}
