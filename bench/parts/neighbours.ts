// Part 5: noisy neighbours. One site runs the flood — 12 import loops of 1,000
// subscriptions a request and 24 export loops of its whole audience, each client honouring
// Retry-After on a 429 as the API asks — so it runs its maximum (SITE_CONCURRENT_IMPORTS and
// SITE_CONCURRENT_EXPORTS) the whole time; meanwhile another site's /v2/topics and its plugin's
// /public config are measured, and compared with the same measurement with the first site idle.
// Target: the other site's p99 within 2× of its idle p99 (docs/operations.md, "Capacity").
import { createECDH } from 'node:crypto';
import { load, type LoadResult } from '../lib/load.js';
import { createSite, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';

export interface NeighboursOptions {
  /** Subscribers of the noisy site (what each of its exports reads). */
  subscribers: number;
  seconds: number;
  connections: number;
}

export interface NeighboursResult {
  subscribers: number;
  idle: LoadResult[];
  loaded: LoadResult[];
  /** Loaded p99 / idle p99 of each of the other site's calls. */
  p99Ratio: Record<string, number>;
  /** What the noisy site's clients got while the loaded scenarios ran. */
  noisy: { imports: number; exports: number; refused429: number; busy503: number; failed5xx: number };
}

const IMPORT_CLIENTS = 12;
const EXPORT_CLIENTS = 24;

export async function runNeighbours(stack: BenchStack, opts: NeighboursOptions, log: (l: string) => void): Promise<NeighboursResult> {
  const base = stack.services.gatewayUrl;
  const noisy = await createSite(stack, 'noisy-neighbour');
  const other = await createSite(stack, 'quiet-neighbour');
  log(`seeding ${opts.subscribers.toLocaleString('en')} subscribers of the noisy site and 1,000 of the other…`);
  await seed(stack, noisy, { count: opts.subscribers, topics: ['a', 'b', 'c'], countries: ['br', 'pt'] }, log);
  await seed(stack, other, { count: 1000, topics: ['news', 'sports'], countries: ['br'] }, log);

  const scenarios = (phase: string) => [
    { name: `${phase}: other site GET /v2/topics`, path: '/v2/topics', headers: { Authorization: other.apiKey } },
    { name: `${phase}: other site GET /public config`, path: `/public/v1/sites/${other.publicId}/config` },
  ];
  const measure = async (phase: string) => {
    const out: LoadResult[] = [];
    for (const s of scenarios(phase)) {
      out.push(await load({ ...s, url: base, connections: opts.connections, seconds: opts.seconds }));
      log(`  ${s.name}: p50 ${out.at(-1)!.p50} ms, p99 ${out.at(-1)!.p99} ms, ${out.at(-1)!.reqPerSec}/s`);
    }
    return out;
  };

  log('the other site alone…');
  const idle = await measure('idle');

  // One key pair for every imported subscription: the bench's CPU goes to the requests, not to keys.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: Buffer.alloc(16, 7).toString('base64url') };
  const noisyCounts = { imports: 0, exports: 0, refused429: 0, busy503: 0, failed5xx: 0 };
  let running = true;
  let batch = 0;
  const answered = async (res: Response, done: 'imports' | 'exports') => {
    if (res.status === 200) {
      // Read the whole answer (an export of every subscriber), as fast as the bench reads.
      await res.arrayBuffer();
      noisyCounts[done] += 1;
      return;
    }
    await res.arrayBuffer().catch(() => {});
    if (res.status === 429) {
      noisyCounts.refused429 += 1;
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
    } else if (res.status === 503) {
      noisyCounts.busy503 += 1;
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
    } else noisyCounts.failed5xx += 1;
  };
  const importer = async () => {
    while (running) {
      const n = ++batch;
      const subscriptions = Array.from({ length: 1000 }, (_, i) => ({ endpoint: `https://127.0.0.1/push/noisy-${n}-${i}`, keys }));
      const res = await fetch(`${base}/v2/subscribers/import`, { method: 'POST', headers: { Authorization: noisy.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ subscriptions }) });
      await answered(res, 'imports');
    }
  };
  const exporter = async () => {
    while (running) await answered(await fetch(`${base}/v2/subscribers/export`, { headers: { Authorization: noisy.apiKey } }), 'exports');
  };
  log(`the noisy site starts ${IMPORT_CLIENTS} import and ${EXPORT_CLIENTS} export clients…`);
  const clients = [...Array.from({ length: IMPORT_CLIENTS }, importer), ...Array.from({ length: EXPORT_CLIENTS }, exporter)];
  let loaded: LoadResult[];
  try {
    await sleep(2000); // the flood under way before measuring
    loaded = await measure('loaded');
  } finally {
    running = false;
    await Promise.allSettled(clients);
  }
  log(`  noisy site: ${noisyCounts.imports} imports and ${noisyCounts.exports} exports done, ${noisyCounts.refused429} × 429, ${noisyCounts.busy503} × 503, ${noisyCounts.failed5xx} × 5xx`);
  const p99Ratio = Object.fromEntries(idle.map((r, i) => [r.name.replace(/^idle: /, ''), Math.round((loaded[i].p99 / Math.max(r.p99, 1)) * 100) / 100]));
  return { subscribers: opts.subscribers, idle, loaded, p99Ratio, noisy: noisyCounts };
}
