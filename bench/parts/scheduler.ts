// Part 4: scheduler lateness. N campaigns created through the API for the same whole second,
// then dispatched_at − schedule_date per campaign, read from the campaign schema (the metric
// campaign_scheduler_lateness_seconds), and the handover to Kafka after it: the outbox row's
// published_at − schedule_date (the relay's publish, acks=all), so a dispatch stamped early in a
// long transaction cannot hide a long tail.
import { api, createSite, percentile, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN } from './delivery.js';

export interface SchedulerOptions {
  campaigns: number;
  concurrency: number;
}

export interface SchedulerResult {
  campaigns: number;
  dispatched: number;
  scheduleDate: string;
  createdBeforeDue: boolean;
  createSeconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  minMs: number;
  /** Outbox published_at − schedule_date: when the send job was on Kafka. */
  published: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
}

async function createMany(url: string, key: string, count: number, concurrency: number, body: (i: number) => unknown): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        const res = await api(url, key, 'POST', '/v2/campaign/create', body(i));
        if (res.status !== 200) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
    }),
  );
}

export async function runScheduler(stack: BenchStack, opts: SchedulerOptions, log: (l: string) => void): Promise<SchedulerResult> {
  const site = await createSite(stack, 'scheduler-bench');
  // A small real audience, so each dispatch is a real (if short) send.
  await seed(stack, site, { count: 20, topics: ['sched'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, () => {});
  const url = stack.services.gatewayUrl;
  const body = (date?: string) => (i: number) => ({
    ...BENCH_CAMPAIGN,
    title: `Scheduled campaign ${i}`,
    topics: ['sched'],
    ...(date ? { status: 'published', scheduleMode: 'scheduled', scheduleDate: date } : { status: 'draft', scheduleMode: 'now' }),
  });

  // The due second must come after the last create: estimate the create rate with drafts first.
  const pilot = 40;
  const p0 = Date.now();
  await createMany(url, site.apiKey, pilot, opts.concurrency, body());
  const perSecond = pilot / ((Date.now() - p0) / 1000);
  const leadMs = Math.ceil((opts.campaigns / perSecond) * 1.5 * 1000) + 5000;
  const due = new Date(Math.ceil((Date.now() + leadMs) / 1000) * 1000);
  const scheduleDate = due.toISOString().replace(/\.\d{3}Z$/, 'Z');
  log(`creating ${opts.campaigns.toLocaleString('en')} campaigns scheduled for ${scheduleDate} (create rate ≈ ${Math.round(perSecond)}/s)…`);
  const c0 = Date.now();
  await createMany(url, site.apiKey, opts.campaigns, opts.concurrency, body(scheduleDate));
  const createdAt = Date.now();
  const createdBeforeDue = createdAt < due.getTime();
  log(`  created in ${((createdAt - c0) / 1000).toFixed(1)} s; ${createdBeforeDue ? `${((due.getTime() - createdAt) / 1000).toFixed(1)} s before they are due` : 'AFTER they were due: lateness is overstated'}`);

  const count = async (sql: string) => Number((await stack.pool.query<{ n: string }>(sql, [site.id])).rows[0].n);
  const dispatchedSql = `SELECT count(*) AS n FROM campaign.campaigns WHERE site_id = $1 AND status = 'published' AND dispatched_at IS NOT NULL`;
  const publishedSql = `SELECT count(*) AS n FROM campaign.outbox o JOIN campaign.campaigns c ON c.id = o.campaign_id
                         WHERE c.site_id = $1 AND c.schedule_mode = 'scheduled' AND o.published_at IS NOT NULL`;
  // Bounded: until all are dispatched and published, or 120 s after the due second.
  const until = due.getTime() + 120_000;
  while (Date.now() < until && ((await count(dispatchedSql)) < opts.campaigns || (await count(publishedSql)) < opts.campaigns)) await sleep(250);
  const lateness = async (sql: string) => (await stack.pool.query<{ ms: number }>(sql, [site.id])).rows.map((r) => Number(r.ms));
  const late = await lateness(
    `SELECT EXTRACT(EPOCH FROM (dispatched_at - schedule_date)) * 1000 AS ms FROM campaign.campaigns
      WHERE site_id = $1 AND status = 'published' AND dispatched_at IS NOT NULL ORDER BY 1`,
  );
  const pub = await lateness(
    `SELECT EXTRACT(EPOCH FROM (o.published_at - c.schedule_date)) * 1000 AS ms FROM campaign.outbox o JOIN campaign.campaigns c ON c.id = o.campaign_id
      WHERE c.site_id = $1 AND c.schedule_mode = 'scheduled' AND o.published_at IS NOT NULL ORDER BY 1`,
  );
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const result = {
    campaigns: opts.campaigns,
    dispatched: late.length,
    scheduleDate,
    createdBeforeDue,
    createSeconds: r1((createdAt - c0) / 1000),
    p50Ms: r1(percentile(late, 50)),
    p99Ms: r1(percentile(late, 99)),
    maxMs: r1(late[late.length - 1] ?? NaN),
    minMs: r1(late[0] ?? NaN),
    published: { count: pub.length, p50Ms: r1(percentile(pub, 50)), p99Ms: r1(percentile(pub, 99)), maxMs: r1(pub[pub.length - 1] ?? NaN) },
  };
  log(`  dispatched ${result.dispatched}/${opts.campaigns}: lateness p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms; on Kafka ${result.published.count}: p50 ${result.published.p50Ms} ms, p99 ${result.published.p99Ms} ms, max ${result.published.maxMs} ms`);
  return result;
}
