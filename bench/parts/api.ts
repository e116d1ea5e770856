// Part 2: API latency. A site with --campaigns campaigns (100,000; 1,000,000 for issue 35's target) and their analytics counters (inserted in
// bulk SQL: a fixture, not a measurement), then autocannon against the gateway: list (limit 60,
// filters, cursor pages), get and create; beside them a trivial route of the same process.
import { load, type LoadResult } from '../lib/load.js';
import { descendantsNamed, meterCpu } from '../lib/proc.js';
import { apiOk, createSite } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN } from './delivery.js';

export interface ApiOptions {
  campaigns: number;
  connections: number;
  seconds: number;
}

export interface ApiResult {
  campaigns: number;
  fixtureSeconds: number;
  scenarios: LoadResult[];
  /** list (first page) req/s over the trivial route's, and p99 of the trivial route over list's. */
  listToCeiling: { reqPerSec: number; p99: number };
}

export async function insertCampaigns(stack: BenchStack, siteId: string, count: number): Promise<void> {
  // kind = g % 20: 0-4 draft, 5-14 sent, 15-17 scheduled (far future, so the scheduler leaves
  // them alone), 18-19 failed. One every 5 minutes back from now.
  await stack.pool.query(
    `WITH g AS (
       SELECT g, g % 20 AS kind, now() - g * interval '5 minutes' AS created
         FROM generate_series(1, $2::int) AS g)
     INSERT INTO campaign.campaigns (site_id, title, body, link, topics, status, schedule_mode, schedule_date, created_at,
                                     dispatched_at, total_users, icon, call_to_action, utm_source, utm_medium, utm_campaign, ttl)
     SELECT $1, 'Campaign number ' || g, 'Everything is half price until Sunday, campaign ' || g, 'https://shop.example.com/p/' || g,
            ARRAY['news', 'topic' || (g % 20)],
            CASE WHEN kind < 5 THEN 'draft' WHEN kind < 18 THEN 'published' ELSE 'failed' END,
            CASE WHEN kind BETWEEN 15 AND 17 THEN 'scheduled' ELSE 'now' END,
            CASE WHEN kind BETWEEN 15 AND 17 THEN now() + interval '30 days' + (g % 1000) * interval '1 hour' ELSE created END,
            created,
            CASE WHEN kind BETWEEN 5 AND 14 THEN created + interval '1 second' END,
            (g::bigint * 7919) % 100000, 'https://shop.example.com/icon.png', 'Open', 'webpush', 'push', 'c' || g, 2419200
       FROM g`,
    [siteId, count],
  );
  await stack.pool.query(
    `INSERT INTO campaign.campaign_stats (campaign_id, sent, failed, expired, impressions, clicks)
     SELECT id, total_users * 9 / 10, total_users / 50, total_users / 20, total_users / 3, total_users / 30
       FROM campaign.campaigns WHERE site_id = $1`,
    [siteId],
  );
  // VACUUM too: otherwise autovacuum takes up the million new rows during the measured scenarios
  // (its CPU counted as Postgres's), and the first reads set every row's hint bits.
  await stack.pool.query('VACUUM ANALYZE campaign.campaigns');
  await stack.pool.query('VACUUM ANALYZE campaign.campaign_stats');
}

export async function runApi(stack: BenchStack, opts: ApiOptions, log: (l: string) => void): Promise<ApiResult> {
  const site = await createSite(stack, 'api-bench');
  const url = stack.services.gatewayUrl;
  log(`inserting ${opts.campaigns.toLocaleString('en')} campaigns with analytics (bulk SQL fixture)…`);
  const t0 = Date.now();
  await insertCampaigns(stack, site.id, opts.campaigns);
  const fixtureSeconds = (Date.now() - t0) / 1000;
  log(`  done in ${fixtureSeconds.toFixed(1)} s`);

  const auth = { authorization: site.apiKey };
  const now = new Date();
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const filtered = {
    limit: 60,
    status: ['sent', 'failed'],
    dateField: 'scheduleDate',
    startDate: iso(new Date(now.getTime() - 180 * 86_400_000)),
    endDate: iso(now),
  };
  // Cursors of pages 2…201 of the sent campaigns, walked once beforehand.
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await apiOk(url, site.apiKey, 'POST', '/v2/campaigns', { limit: 60, status: ['sent'], ...(cursor ? { cursor } : {}) });
    if (!page.hasMore) break;
    cursor = page.nextCursor as string;
    cursors.push(cursor);
  }
  const ids = (await stack.pool.query<{ id: string }>('SELECT id FROM campaign.campaigns WHERE site_id = $1 ORDER BY random() LIMIT 2000', [site.id])).rows.map((r) => r.id);
  let c = 0;
  let g = 0;
  let k = 0;
  // This stack's Postgres only: other benches and the shared test server run on the machine too.
  const meter = () => meterCpu({ gateway: () => [stack.pids.gateway], campaign: () => [stack.pids.campaign], delivery: () => [stack.pids.delivery], postgres: () => descendantsNamed(process.pid, 'postgres'), autocannon: () => [process.pid] });
  const base = { meter, url, connections: opts.connections, seconds: opts.seconds };
  const specs = [
    { ...base, name: 'trivial route (GET /healthz)', path: '/healthz' },
    { ...base, name: 'list, first page (limit 60)', method: 'POST', path: '/v2/campaigns', headers: auth, body: () => JSON.stringify({ limit: 60 }) },
    { ...base, name: 'list, status + period filters', method: 'POST', path: '/v2/campaigns', headers: auth, body: () => JSON.stringify(filtered) },
    { ...base, name: `list, cursor pages 2-${cursors.length + 1}`, method: 'POST', path: '/v2/campaigns', headers: auth, body: () => JSON.stringify({ limit: 60, status: ['sent'], cursor: cursors[c++ % cursors.length] }) },
    { ...base, name: 'get one campaign', path: '/v2/campaign/x', headers: auth, pathFor: () => `/v2/campaign/${ids[g++ % ids.length]}` },
    {
      ...base,
      name: 'create (draft)',
      method: 'POST',
      path: '/v2/campaign/create',
      headers: auth,
      body: () => JSON.stringify({ ...BENCH_CAMPAIGN, title: `Bench campaign ${k++}`, topics: ['news'], status: 'draft', scheduleMode: 'now' }),
    },
  ];
  const scenarios: LoadResult[] = [];
  for (const spec of specs) {
    log(`  autocannon ${spec.name}: ${opts.connections} connections, ${opts.seconds} s…`);
    const r = await load(spec);
    log(`    p50 ${r.p50} ms, p97.5 ${r.p97_5} ms, p99 ${r.p99} ms, ${r.reqPerSec} req/s, non-2xx ${r.non2xx}, errors ${r.errors}; CPU ms/request ${JSON.stringify(r.cpuMsPerRequest)}`);
    scenarios.push(r);
  }
  const trivial = scenarios[0];
  const list = scenarios[1];
  return {
    campaigns: opts.campaigns,
    fixtureSeconds: Math.round(fixtureSeconds * 10) / 10,
    scenarios,
    listToCeiling: { reqPerSec: Math.round((list.reqPerSec / trivial.reqPerSec) * 1000) / 1000, p99: Math.round((trivial.p99 / Math.max(list.p99, 0.001)) * 1000) / 1000 },
  };
}
