// Benchmark fixtures: sites made with the operator functions (the same ones the CLI runs), and a
// small HTTP client for the gateway.
import { execFileSync } from 'node:child_process';
import { createOperators } from '../../services/campaign/src/sites/operators.js';
import { createDeliveryOperators } from '../../services/delivery/src/operators.js';
import type { BenchStack } from './stack.js';

export interface BenchSite {
  id: string;
  publicId: string;
  apiKey: string;
  vapidPublicKey: string;
}

let planMade = false;

export async function createSite(stack: BenchStack, name: string): Promise<BenchSite> {
  const ops = createOperators(stack.pool);
  if (!planMade) {
    await ops.createPlan('bench', ['create', 'reports', 'delete', 'audience']);
    planMade = true;
  }
  const { site, issued, vapidPublicKey } = await ops.createSite({ name, plan: 'bench' }, deliveryOperators(stack).registerSite);
  return { id: site.id, publicId: site.publicId, apiKey: issued.key, vapidPublicKey };
}

export function deliveryOperators(stack: BenchStack) {
  return createDeliveryOperators(stack.pool, Buffer.from(stack.secrets.vapidEncryptionKey, 'base64'));
}

/** Seeds `count` subscribers, printing progress about every 10 %. */
export async function seed(
  stack: BenchStack,
  site: BenchSite,
  input: { count: number; topics: string[]; countries: string[]; perSubscriber?: number; endpointBase?: string; languages?: (string | null)[]; timeZones?: (string | null)[] },
  log: (line: string) => void,
): Promise<number> {
  const started = Date.now();
  let nextReport = 0.1;
  const { inserted } = await deliveryOperators(stack).seedSubscribers({
    siteId: site.id,
    count: input.count,
    topics: input.topics,
    countries: input.countries,
    topicsPerSubscriber: input.perSubscriber,
    endpointBase: input.endpointBase,
    languages: input.languages,
    timeZones: input.timeZones,
    onProgress: (done, total) => {
      if (done / total >= nextReport || done === total) {
        nextReport = Math.floor((done / total) * 10) / 10 + 0.1;
        const secs = (Date.now() - started) / 1000;
        log(`  seeded ${done.toLocaleString('en')}/${total.toLocaleString('en')} (${Math.round(done / Math.max(secs, 0.001)).toLocaleString('en')}/s)`);
      }
    },
  });
  // A real audience this size would have been analysed by autovacuum long before a campaign.
  await stack.pool.query('VACUUM ANALYZE delivery.subscribers');
  await stack.pool.query('VACUUM ANALYZE delivery.audience_groups, delivery.audience_profile_ids');
  await stack.pool.query('ANALYZE delivery.audience_names');
  // And written out long ago: without this, the seed's dirty buffers and the kernel's dirty pages
  // (gigabytes of table and WAL at 10,000,000) are flushed by a checkpoint and by the kernel's
  // writeback during the campaign's first minutes, a cost of the bulk load that a smaller seed
  // barely pays, and the scaling row would measure it.
  await stack.pool.query('CHECKPOINT');
  execFileSync('sync');
  return inserted;
}

export interface ApiAnswer {
  status: number;
  body: any;
}

export async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, body: parsed };
}

export async function apiOk(base: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await api(base, key, method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
