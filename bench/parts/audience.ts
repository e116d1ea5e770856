// Part 3: audience at scale. 1,000,000 subscribers (or --audience N) over 50 topics and 30
// countries, each with a language and a time zone drawn independently (seeded with the operator
// function the CLI's `subscribers seed` runs), then the latency of /v2/topics, /v2/countries and
// of create, which computes totalUsers for topics ∪ countries (from the counters) and, with a
// segment, for the narrowed audience (from the groups' per-profile counts: neither reads the
// subscribers), the counters a site this size has and the count queries' own time, and the whole
// site exported through GET /v2/subscribers/export (time, size, peak RSS of the two processes
// it streams through).
import { load, type LoadResult } from '../lib/load.js';
import { descendantsNamed, memory, meterCpu, sampleRss } from '../lib/proc.js';
import { apiOk, createSite, seed } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import type { Queryable } from '@webpush/shared/db.js';
import { BENCH_CAMPAIGN } from './delivery.js';
import { countByZone, countSegment, countUnion } from '../../services/delivery/src/audience/count-store.js';
import { createAudience } from '../../services/delivery/src/audience/audience.js';
import { segmentSql } from '../../services/delivery/src/audience/segment-sql.js';
import type { Segment } from '@webpush/contracts/segment.js';

export interface AudienceOptions {
  subscribers: number;
  connections: number[];
  seconds: number;
}

export interface AudienceResult {
  subscribers: number;
  topics: number;
  countries: number;
  seedSeconds: number;
  /** The site's audience groups (each with its per-profile counts) and profiles, and the size of both tables (every site in the database). */
  counters: { groups: number; profiles: number; megabytes: number; sampleIndexMegabytes: number };
  /** The count queries alone, in Postgres, 1 connection: p50 and max, ms. */
  countQueryMs: Record<'union' | 'segment' | 'segmentByZone' | 'timeSegment', { p50: number; max: number }>;
  /** EXPLAIN (ANALYZE, BUFFERS) of the union count's and the segment count's statements, after the timed runs. */
  countPlans: string[];
  scenarios: LoadResult[];
  totalUsersCheck: { api: number; sql: number; equal: boolean };
  /** The same for a create with SEGMENT: the API's totalUsers against a SQL count of the narrowed audience. */
  segmentTotalUsersCheck: { api: number; sql: number; equal: boolean };
  /** The same for TIME_SEGMENT (a time condition: estimated from the sample above 100,000 subscribers), with the estimate's stated 95 % bound. */
  timeSegmentTotalUsersCheck: { api: number; sql: number; bound: number; sampled: number; withinBound: boolean };
  /** GET /v2/subscribers/export of the whole site (NDJSON), read as fast as the bench can. */
  export?: {
    rows: number;
    megabytes: number;
    seconds: number;
    rowsPerSecond: number;
    /** RSS of the two processes the export streams through, just before it and at its peak. */
    rssBeforeMb: { delivery: number; gateway: number };
    peakRssMb: { delivery: number; gateway: number };
  };
}

/** Languages and time zones given to the seeded subscribers (each drawn at random; a quarter without a zone). */
const LANGUAGES = ['pt-BR', 'en-US', 'es', 'pt'];
const ZONES = ['America/Sao_Paulo', 'Europe/Lisbon', 'Asia/Tokyo', null];
/** The create-with-segment scenario's segment: about a quarter of the audience. */
const SEGMENT = { languages: ['pt'], timeZones: ['America/Sao_Paulo', 'Europe/Lisbon'] };
/**
 * A segment with a time condition (engagement, seeded for a third of the subscribers, 0–59 days
 * ago): about 1/6 of the static audience; above 100,000 subscribers, estimated from the sample.
 */
const TIME_SEGMENT: Segment = { engagedWithinDays: 30, languages: ['pt'] };

const TOPICS = Array.from({ length: 50 }, (_, i) => `topic${String(i + 1).padStart(2, '0')}`);
const COUNTRIES = ['br', 'us', 'de', 'fr', 'gb', 'es', 'it', 'pt', 'mx', 'ar', 'ca', 'jp', 'in', 'id', 'ng', 'za', 'au', 'nl', 'se', 'pl',
  'tr', 'kr', 'co', 'cl', 'pe', 'eg', 'ph', 'vn', 'th', 'ua'];

const audience = { topics: ['topic03', 'topic17', 'topic42'], countries: ['country__br', 'country__jp'] };
const COUNT_QUERY_RUNS = 20;

async function counterStats(stack: BenchStack, siteId: string) {
  const { rows } = await stack.pool.query(
    `SELECT (SELECT count(*) FROM delivery.audience_groups WHERE site_id = $1)::int AS groups,
            (SELECT count(*) FROM delivery.audience_profile_ids WHERE site_id = $1)::int AS profiles,
            (pg_total_relation_size('delivery.audience_groups') + pg_total_relation_size('delivery.audience_profile_ids'))::bigint AS bytes,
            pg_relation_size('delivery.subscribers_sample')::bigint AS sample_bytes`,
    [siteId],
  );
  return {
    groups: rows[0].groups as number,
    profiles: rows[0].profiles as number,
    megabytes: Math.round(Number(rows[0].bytes) / 1e5) / 10,
    sampleIndexMegabytes: Math.round(Number(rows[0].sample_bytes) / 1e4) / 100,
  };
}

/** The delivery service's count queries alone, in Postgres (no gRPC, no create): p50 and max of COUNT_QUERY_RUNS, ms. */
async function timeCountQueries(stack: BenchStack, siteId: string, a: { topics: string[]; countries: string[] }) {
  const runs = async (fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < COUNT_QUERY_RUNS; i++) {
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
    }
    ms.sort((x, y) => x - y);
    return { p50: Math.round(ms[ms.length >> 1] * 10) / 10, max: Math.round(ms[ms.length - 1] * 10) / 10 };
  };
  return {
    union: await runs(() => countUnion(stack.pool, siteId, a.topics, a.countries)),
    segment: await runs(() => countSegment(stack.pool, siteId, a.topics, a.countries, SEGMENT)),
    segmentByZone: await runs(() => countByZone(stack.pool, siteId, a.topics, a.countries, SEGMENT)),
    timeSegment: await runs(() => createAudience(stack.pool).countAudience(siteId, a.topics, a.countries, TIME_SEGMENT)),
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement the union and the segment count run, in order. */
async function countQueryPlans(stack: BenchStack, siteId: string, a: { topics: string[]; countries: string[] }): Promise<string[]> {
  const plans: string[] = [];
  const explaining = {
    query: async (text: string, params: unknown[]) => {
      const { rows } = await stack.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
      plans.push([text.replace(/\s+/g, ' ').trim(), ...rows.map((r) => r['QUERY PLAN'] as string)].join('\n'));
      return stack.pool.query(text, params);
    },
  } as unknown as Queryable;
  await countUnion(explaining, siteId, a.topics, a.countries);
  await countSegment(explaining, siteId, a.topics, a.countries, SEGMENT);
  return plans;
}

export async function runAudience(stack: BenchStack, opts: AudienceOptions, log: (l: string) => void): Promise<AudienceResult> {
  const site = await createSite(stack, 'audience-bench');
  log(`seeding ${opts.subscribers.toLocaleString('en')} subscribers over ${TOPICS.length} topics and ${COUNTRIES.length} countries…`);
  const t0 = Date.now();
  await seed(stack, site, { count: opts.subscribers, topics: TOPICS, countries: COUNTRIES, perSubscriber: 2, languages: LANGUAGES, timeZones: ZONES }, log);
  const seedSeconds = (Date.now() - t0) / 1000;
  // Engagement as the tracking trigger keeps it (a third of the subscribers, 0–59 days ago), for TIME_SEGMENT.
  await stack.pool.query(
    `INSERT INTO delivery.subscriber_engagement (subscriber_id, last_engaged_at)
     SELECT id, now() - (id % 60) * interval '1 day' FROM delivery.subscribers WHERE site_id = $1 AND id % 3 = 0 ON CONFLICT DO NOTHING`,
    [site.id],
  );
  const counters = await counterStats(stack, site.id);
  log(`  audience counters: ${counters.groups.toLocaleString('en')} groups × ${counters.profiles} profiles, ${counters.megabytes} MB (groups and profiles, with indexes; all sites); the time segments' sample index ${counters.sampleIndexMegabytes} MB`);
  const countQueries = await timeCountQueries(stack, site.id, audience);
  log(`  count queries alone (1 connection, ${COUNT_QUERY_RUNS} runs each): ${JSON.stringify(countQueries)}`);
  const countPlans = await countQueryPlans(stack, site.id, audience);
  for (const plan of countPlans) log(`  plan: ${plan.replaceAll('\n', '\n    ')}`);

  const url = stack.services.gatewayUrl;
  const auth = { authorization: site.apiKey };
  let k = 0;
  const scenarios: LoadResult[] = [];
  for (const connections of opts.connections) {
    const meter = () => meterCpu({ gateway: () => [stack.pids.gateway], campaign: () => [stack.pids.campaign], delivery: () => [stack.pids.delivery], postgres: () => descendantsNamed(process.pid, 'postgres'), autocannon: () => [process.pid] });
    const base = { meter, url, connections, seconds: opts.seconds, headers: auth };
    const specs = [
      { ...base, name: `GET /v2/topics (c=${connections})`, path: '/v2/topics' },
      { ...base, name: `GET /v2/countries (c=${connections})`, path: '/v2/countries' },
      {
        ...base,
        name: `create, totalUsers of 3 topics ∪ 2 countries (c=${connections})`,
        method: 'POST',
        path: '/v2/campaign/create',
        body: () => JSON.stringify({ ...BENCH_CAMPAIGN, title: `Audience campaign ${k++}`, ...audience, status: 'draft', scheduleMode: 'now' }),
      },
      {
        ...base,
        name: `create with a segment (languages, time zones), exact totalUsers (c=${connections})`,
        method: 'POST',
        path: '/v2/campaign/create',
        body: () => JSON.stringify({ ...BENCH_CAMPAIGN, title: `Segment campaign ${k++}`, ...audience, segment: SEGMENT, status: 'draft', scheduleMode: 'now' }),
      },
      {
        ...base,
        name: `create with a time segment (engaged within 30 days, language), totalUsers from the sample (c=${connections})`,
        method: 'POST',
        path: '/v2/campaign/create',
        body: () => JSON.stringify({ ...BENCH_CAMPAIGN, title: `Time segment campaign ${k++}`, ...audience, segment: TIME_SEGMENT, status: 'draft', scheduleMode: 'now' }),
      },
    ];
    for (const spec of specs) {
      log(`  autocannon ${spec.name}, ${opts.seconds} s…`);
      const r = await load(spec);
      log(`    p50 ${r.p50} ms, p97.5 ${r.p97_5} ms, p99 ${r.p99} ms, ${r.reqPerSec} req/s, non-2xx ${r.non2xx}, errors ${r.errors}; CPU ms/request ${JSON.stringify(r.cpuMsPerRequest)}`);
      scenarios.push(r);
    }
  }

  // totalUsers must be the union, each subscriber once.
  const created = await apiOk(url, site.apiKey, 'POST', '/v2/campaign/create', { ...BENCH_CAMPAIGN, ...audience, status: 'draft', scheduleMode: 'now' });
  const got = await apiOk(url, site.apiKey, 'GET', `/v2/campaign/${created.id}`);
  const { rows } = await stack.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM delivery.subscribers WHERE site_id = $1 AND active AND (topics && $2::text[] OR country = ANY($3::text[]))',
    [site.id, audience.topics, audience.countries],
  );
  const sql = Number(rows[0].n);
  log(`  totalUsers: API ${got.totalUsers}, SQL count ${sql}`);
  const segmented = await apiOk(url, site.apiKey, 'POST', '/v2/campaign/create', { ...BENCH_CAMPAIGN, ...audience, segment: SEGMENT, status: 'draft', scheduleMode: 'now' });
  const gotSegmented = await apiOk(url, site.apiKey, 'GET', `/v2/campaign/${segmented.id}`);
  const { rows: segmentRows } = await stack.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM delivery.subscribers WHERE site_id = $1 AND active AND (topics && $2::text[] OR country = ANY($3::text[]))
        AND split_part(lower(language), '-', 1) = ANY($4::text[]) AND time_zone = ANY($5::text[])`,
    [site.id, audience.topics, audience.countries, SEGMENT.languages, SEGMENT.timeZones],
  );
  const segmentCount = Number(segmentRows[0].n);
  log(`  totalUsers with a segment: API ${gotSegmented.totalUsers}, SQL count ${segmentCount}`);
  const timed = await apiOk(url, site.apiKey, 'POST', '/v2/campaign/create', { ...BENCH_CAMPAIGN, ...audience, segment: TIME_SEGMENT, status: 'draft', scheduleMode: 'now' });
  const gotTimed = await apiOk(url, site.apiKey, 'GET', `/v2/campaign/${timed.id}`);
  const narrowed = segmentSql(TIME_SEGMENT, 4);
  const { rows: timeRows } = await stack.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM delivery.subscribers s WHERE s.site_id = $1 AND s.active AND (s.topics && $2::text[] OR s.country = ANY($3::text[]))${narrowed.sql}`,
    [site.id, audience.topics, audience.countries, ...narrowed.params],
  );
  const timeSql = Number(timeRows[0].n);
  const estimate = await createAudience(stack.pool).estimateAudience(site.id, audience.topics, audience.countries, TIME_SEGMENT);
  log(`  totalUsers with a time segment: API ${gotTimed.totalUsers} (sample: ${estimate.users} ± ${estimate.bound}, ${estimate.sampled} sampled), SQL count ${timeSql}`);

  log(`  exporting the ${opts.subscribers.toLocaleString('en')} subscribers (GET /v2/subscribers/export, NDJSON)…`);
  const before = { delivery: Math.round(memory(stack.pids.delivery)?.rssMb ?? 0), gateway: Math.round(memory(stack.pids.gateway)?.rssMb ?? 0) };
  const rss = { delivery: sampleRss(stack.pids.delivery, 100), gateway: sampleRss(stack.pids.gateway, 100) };
  const e0 = performance.now();
  const res = await fetch(`${url}/v2/subscribers/export`, { headers: auth });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 0x0a) lines++;
  }
  const exportSeconds = (performance.now() - e0) / 1000;
  const peak = { delivery: Math.round(rss.delivery.stop().peakRssMb), gateway: Math.round(rss.gateway.stop().peakRssMb) };
  log(`    ${lines.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${exportSeconds.toFixed(1)} s (${Math.round(lines / exportSeconds).toLocaleString('en')} rows/s); RSS delivery ${before.delivery} → peak ${peak.delivery} MB, gateway ${before.gateway} → peak ${peak.gateway} MB`);
  return {
    export: { rows: lines, megabytes: Math.round(bytes / 1e5) / 10, seconds: Math.round(exportSeconds * 10) / 10, rowsPerSecond: Math.round(lines / exportSeconds), rssBeforeMb: before, peakRssMb: peak },
    subscribers: opts.subscribers,
    topics: TOPICS.length,
    countries: COUNTRIES.length,
    seedSeconds: Math.round(seedSeconds * 10) / 10,
    counters,
    countQueryMs: countQueries,
    countPlans,
    scenarios,
    totalUsersCheck: { api: got.totalUsers, sql, equal: got.totalUsers === sql },
    segmentTotalUsersCheck: { api: gotSegmented.totalUsers, sql: segmentCount, equal: gotSegmented.totalUsers === segmentCount },
    timeSegmentTotalUsersCheck: {
      api: gotTimed.totalUsers,
      sql: timeSql,
      bound: estimate.bound,
      sampled: estimate.sampled,
      withinBound: Math.abs(gotTimed.totalUsers - timeSql) <= estimate.bound,
    },
  };
}
