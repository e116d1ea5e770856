// Part 1: delivery throughput. One campaign to N seeded subscribers, created through the API,
// timed from the create call to the simulator's count reaching N; beside it, in the same run on
// the same machine, the encryption ceiling (web-push encrypt on every core) and the naive loop
// (web-push sendNotification with its defaults, --concurrency in flight, same simulator).
import { spawn } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { compiledPath } from '../../scripts/lib/build-output.js';
import { ROOT } from '../../scripts/lib/local-env.js';
import { resolveEngine } from '@webpush/push/encryption/engine.js';
import { buildPushPayload } from '@webpush/contracts/campaign-content.js';
import { createTrackingTokens, deriveTrackingKey } from '../../services/delivery/src/tracking/tracking-token.js';
import { waitForPushes } from '../lib/campaign-wait.js';
import { cpuSeconds, descendantsNamed, meterCpu, processTree, sampleRss, threadRoleCpu, threadTimes, waitForQuiet } from '../lib/proc.js';
import { apiOk, createSite, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import type { FarPushServiceResult } from './far.js';
import type { SlowPushServiceResult } from './slow.js';

export interface DeliveryOptions {
  subscribers: number;
  naiveCount: number;
  concurrency: number;
  ceilingSeconds: number;
  /** The count `firstPushes` is measured at (the far campaign's size). */
  firstPushes: number;
  /** Pushes of the warm-up campaign sent before the measured one (at most `subscribers`); 0: none. */
  warmUp: number;
}

/** The warm-up campaign: a fresh delivery service's first pushes, before the measured campaign. */
export interface WarmUpResult {
  pushes: number;
  pushesPerSecond: number;
  seconds: number;
}

export interface DeliveryResult {
  subscribers: number;
  /** Pushes the simulator received for the campaign; less than `subscribers` means some were never sent. */
  pushed: number;
  seedSeconds: number;
  pushesPerSecond: number;
  seconds: number;
  /**
   * The rate over the campaign's first `pushes` (create → that many pushed): what a shorter
   * campaign (the far one) is compared with, start-up included alike. Equal to pushesPerSecond
   * when the campaign is no larger.
   */
  firstPushes: { pushes: number; pushesPerSecond: number };
  stages: { createMs: number; createToDispatchMs: number | null; toFirstPushMs: number | null; toLastPushMs: number; toCompletedMs: number | null };
  accepted: number;
  rejected: number;
  logStates: Record<string, number>;
  /** Bytes the campaign added to its delivery-log piece (table and indexes) per push: the disk a retained push takes. */
  logBytesPerPush?: number;
  ceilingPerSecond: number;
  ceilingThreads: number;
  /** The faster of the naive loop's two runs (before and after the campaign): the ratio's baseline. */
  naivePerSecond: number;
  /** Both runs' rates, before the campaign and after it (each on a quiet platform). */
  naiveRuns?: number[];
  naiveCount: number;
  naiveFailed: number;
  naiveCpuSeconds: number;
  concurrency: number;
  ratioToCeiling: number;
  ratioToNaive: number;
  peakRssMb: number;
  vmHwmMb: number;
  cpuSeconds: Record<string, number>;
  cpuMsPerPush: Record<string, number>;
  /** CPU microseconds per push of the campaign, by process; see CpuMicrosPerPush. */
  cpuMicrosPerPush: CpuMicrosPerPush;
  /** CPU seconds of the delivery process during the campaign by thread role (proc.ts threadRoleCpu). */
  deliveryThreads: Record<string, number>;
  /** What Postgres did for the campaign, per push (postgresWork): why its CPU per push moves with the audience. */
  postgresWork?: PostgresWork;
  /** The campaign sent before the measured one (run.ts --warm-up); absent when skipped. */
  warmUp?: WarmUpResult;
  /** The same campaign against a far push service (run.ts --far-latency-ms); absent when skipped. */
  farPushService?: FarPushServiceResult;
  /** A campaign to a push service of limited capacity (run.ts --slow-capacity, parts/slow.ts); absent when skipped. */
  slowPushService?: SlowPushServiceResult;
  simulator: { connections: number; http2Sessions: number; vapidVerifications: number };
  /** How the delivery service's workers encrypted (ENCRYPTION_ENGINE, resolved as the service does from dist/). */
  encryptionEngine: 'native' | 'javascript';
}

/**
 * CPU µs per push during the campaign (kernel accounting, /proc), rounded to 0.1 µs.
 * total = delivery + postgres + kafka + campaign + gateway: the platform. deliveryMain,
 * deliveryWorkers (encryption pool) and deliveryOther (GC, compiler, libuv threads) split delivery
 * (absent when the threads could not be told apart). encryptOnly: web-push encrypt alone, CPU per
 * encryption in the same run's ceiling; naive: the naive sendNotification process per push sent.
 * simulator and bench (the driver) are not in the total.
 */
export interface CpuMicrosPerPush {
  total: number;
  delivery: number;
  postgres: number;
  kafka: number;
  campaign: number;
  gateway: number;
  encryptOnly: number;
  deliveryMain?: number;
  deliveryWorkers?: number;
  deliveryOther?: number;
  naive: number;
  simulator: number;
  bench: number;
}

export const PLATFORM = ['delivery', 'postgres', 'kafka', 'campaign', 'gateway'] as const;

/** The payload a subscriber of this campaign gets, with a tracking token like the real one. */
function samplePayload(campaignId: string, c: Record<string, string>): string {
  const tokens = createTrackingTokens(deriveTrackingKey(randomBytes(32)));
  return buildPushPayload(campaignId, {
    title: c.title,
    body: c.body,
    link: c.link,
    utmSource: c.utmSource,
    utmMedium: c.utmMedium,
    utmCampaign: c.utmCampaign,
    icon: c.icon,
    image: null,
    callToAction: c.callToAction,
  }, tokens.sign({ campaignId, subscriberId: '123456' }), Date.now());
}

export const BENCH_CAMPAIGN = {
  title: 'Summer sale: everything must go',
  body: 'Up to 50 % off on thousands of items, today only. Tap to see what is waiting for you.',
  link: 'https://shop.example.com/sale',
  utmSource: 'webpush',
  utmMedium: 'push',
  utmCampaign: 'summer',
  icon: 'https://shop.example.com/icon-192.png',
  callToAction: 'Shop now',
};

/** Creates the bench campaign to the seeded `bench` topic, sent now; resolves to its id. */
export async function sendBenchCampaign(stack: BenchStack, apiKey: string): Promise<string> {
  const created = await apiOk(stack.services.gatewayUrl, apiKey, 'POST', '/v2/campaign/create', {
    ...BENCH_CAMPAIGN,
    topics: ['bench'],
    status: 'published',
    scheduleMode: 'now',
    ttl: 3600,
  });
  return created.id as string;
}

async function ceiling(payload: string, seconds: number, log: (l: string) => void): Promise<{ perSecond: number; threads: number; cpuMicrosPerEncryption: number }> {
  const threads = os.availableParallelism();
  // Like the seeded audience: a pool of real P-256 keys, a fresh auth secret each.
  const keys = Array.from({ length: 64 }, () => ({
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  }));
  let ready = 0;
  const workers = Array.from({ length: threads }, () => new Worker(new URL('./ceiling-worker.mjs', import.meta.url), { workerData: { payload, keys, durationMs: seconds * 1000, warmup: 300 } }));
  try {
    const results = await Promise.all(
      workers.map(
        (w) =>
          new Promise<{ count: number; ms: number; cpuSeconds: number }>((resolve, reject) => {
            w.on('error', reject);
            w.on('message', (m: { type: string; count: number; ms: number; cpuSeconds: number }) => {
              // Every worker starts at once, after all have warmed up.
              if (m.type === 'ready' && ++ready === workers.length) for (const x of workers) x.postMessage('go');
              else if (m.type === 'done') resolve(m);
            });
          }),
      ),
    );
    const count = results.reduce((s, r) => s + r.count, 0);
    const ms = Math.max(...results.map((r) => r.ms));
    const perSecond = count / (ms / 1000);
    // CPU of the worker threads themselves (ceiling-worker.mjs), not wall time × threads: on a
    // shared machine a thread can wait for a core, which is not the encryption's cost.
    const cpu = results.reduce((s, r) => s + r.cpuSeconds, 0);
    const cpuMicrosPerEncryption = (cpu * 1e6) / Math.max(count, 1);
    log(`  ceiling: ${Math.round(perSecond).toLocaleString('en')} encryptions/s on ${threads} worker threads (${count.toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s); ${cpuMicrosPerEncryption.toFixed(1)} CPU µs per encryption`);
    return { perSecond, threads, cpuMicrosPerEncryption };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

async function naive(stack: BenchStack, siteId: string, payload: string, count: number, concurrency: number, log: (l: string) => void) {
  const { rows } = await stack.pool.query<{ endpoint: string; p256dh: string; auth: string }>(
    'SELECT endpoint, p256dh, auth FROM delivery.subscribers WHERE site_id = $1 ORDER BY id LIMIT $2',
    [siteId, count],
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-naive-'));
  try {
    writeFileSync(path.join(dir, 'targets.json'), JSON.stringify(rows));
    writeFileSync(path.join(dir, 'payload.txt'), payload);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/parts/naive-sender.ts')], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', TARGETS_FILE: path.join(dir, 'targets.json'), PAYLOAD_FILE: path.join(dir, 'payload.txt'), NODE_EXTRA_CA_CERTS: stack.sim.caCertFile, CONCURRENCY: String(concurrency) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const started = Date.now();
    const progress = setInterval(() => log(`  naive: running for ${Math.round((Date.now() - started) / 1000)} s…`), 10_000);
    const limitMs = 120_000 + count * 20;
    const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    clearInterval(progress);
    clearTimeout(killer);
    if (code !== 0) throw new Error(`naive sender exited with ${code}: ${err.slice(-2000)}`);
    return JSON.parse(out.trim().split('\n').pop()!) as { sent: number; failed: number; seconds: number; cpuSeconds: number; statuses: Record<string, number> };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The size (table, indexes, TOAST) of the delivery-log piece a run writes to: the campaign's, or
 * before it exists this week's (runs are given this week's piece, retention/retention.ts).
 */
async function pieceBytes(stack: BenchStack, campaignId?: string): Promise<{ piece: string | null; bytes: number }> {
  const { rows } = await stack.pool.query<{ piece: string | null; bytes: string | null }>(
    `SELECT p.piece, pg_total_relation_size(to_regclass('delivery.delivery_log' || coalesce('_' || p.piece, '')))::text AS bytes
       FROM (SELECT to_char(${campaignId ? '(SELECT log_piece FROM delivery.campaign_runs WHERE campaign_id = $1)' : 'delivery.detail_week(now())'}, 'YYYYMMDD') AS piece) p`,
    campaignId ? [campaignId] : [],
  );
  return { piece: rows[0].piece, bytes: Number(rows[0].bytes ?? 0) };
}

export interface PostgresWork {
  walBytesPerPush: number;
  /** Full-page images in the WAL per 1,000 pushes: each page's first change after a checkpoint. */
  fullPagesPer1000: number;
  /** Blocks that missed shared buffers (read from the kernel) and that hit them, per push. */
  blocksReadPerPush: number;
  blocksHitPerPush: number;
  checkpoints: number;
  /** Autovacuum and autoanalyze runs finished (not in the statements' time, in Postgres's CPU). */
  autovacuums: number;
  /**
   * Their time per push (Postgres 18's total_autovacuum_time and total_autoanalyze_time): wall
   * time, cost-based pauses included, so an upper bound of their CPU.
   */
  autovacuumMicrosPerPush?: number;
  /** Connections Postgres accepted during the campaign: each a new backend to start and warm. */
  sessions?: number;
  /** The tables whose autovacuum and autoanalyze took most of that time, µs per push. */
  autovacuumByTable?: { table: string; runs: number; microsPerPush: number }[];
  /** Statement execution time per push, all statements (pg_stat_statements). */
  statementMicrosPerPush: number;
  /** The statements that took most of it. */
  statements: { query: string; callsPer1000: number; microsPerPush: number }[];
}

export interface PostgresCounters {
  wal: { wal_records: number; wal_fpi: number; wal_bytes: string };
  ckpt: { checkpoints: number };
  db: { blks_read: number; blks_hit: number; sessions: number };
  autovacuums: number;
  autovacuum_ms: number;
  autovacuum_tables: { table: string; runs: number; ms: number }[];
  statements: { queryid: string; query: string; calls: number; ms: number }[];
}

export async function postgresCounters(stack: BenchStack): Promise<PostgresCounters> {
  const { rows } = await stack.pool.query(
    `SELECT (SELECT row_to_json(w) FROM (SELECT wal_records, wal_fpi, wal_bytes::text FROM pg_stat_wal) w) AS wal,
            (SELECT row_to_json(c) FROM (SELECT num_timed + num_requested AS checkpoints FROM pg_stat_checkpointer) c) AS ckpt,
            (SELECT row_to_json(d) FROM (SELECT blks_read, blks_hit, sessions FROM pg_stat_database WHERE datname = current_database()) d) AS db,
            (SELECT sum(autovacuum_count + autoanalyze_count)::int FROM pg_stat_all_tables) AS autovacuums,
            (SELECT sum(total_autovacuum_time + total_autoanalyze_time)::float8 FROM pg_stat_all_tables) AS autovacuum_ms,
            (SELECT coalesce(json_agg(json_build_object('table', schemaname || '.' || relname, 'runs', autovacuum_count + autoanalyze_count, 'ms', total_autovacuum_time + total_autoanalyze_time)), '[]')
               FROM pg_stat_all_tables WHERE autovacuum_count + autoanalyze_count > 0) AS autovacuum_tables,
            (SELECT coalesce(json_agg(json_build_object('queryid', queryid::text, 'query', left(regexp_replace(query, '\\s+', ' ', 'g'), 120), 'calls', calls, 'ms', total_exec_time)), '[]')
               FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())) AS statements`,
  );
  return rows[0] as PostgresCounters;
}

/** The difference of two postgresCounters snapshots, per push of a campaign of `pushes`. */
export function postgresWork(a: PostgresCounters, b: PostgresCounters, pushes: number): PostgresWork {
  const per = (x: number) => x / Math.max(pushes, 1);
  const before = new Map(a.statements.map((q) => [q.queryid, q]));
  const statements = b.statements
    .map((q) => ({ query: q.query, calls: q.calls - (before.get(q.queryid)?.calls ?? 0), ms: q.ms - (before.get(q.queryid)?.ms ?? 0) }))
    .filter((q) => q.calls > 0);
  const totalMs = statements.reduce((sum, q) => sum + q.ms, 0);
  return {
    walBytesPerPush: Math.round(per(Number(b.wal.wal_bytes) - Number(a.wal.wal_bytes))),
    fullPagesPer1000: round(per(b.wal.wal_fpi - a.wal.wal_fpi) * 1000, 1),
    blocksReadPerPush: round(per(b.db.blks_read - a.db.blks_read), 2),
    blocksHitPerPush: round(per(b.db.blks_hit - a.db.blks_hit), 2),
    checkpoints: b.ckpt.checkpoints - a.ckpt.checkpoints,
    autovacuums: b.autovacuums - a.autovacuums,
    autovacuumMicrosPerPush: round(per((b.autovacuum_ms - a.autovacuum_ms) * 1000), 1),
    sessions: b.db.sessions - a.db.sessions,
    autovacuumByTable: b.autovacuum_tables
      .map((t) => {
        const was = a.autovacuum_tables.find((x) => x.table === t.table);
        return { table: t.table, runs: t.runs - (was?.runs ?? 0), microsPerPush: round(per((t.ms - (was?.ms ?? 0)) * 1000), 1) };
      })
      .filter((t) => t.runs > 0)
      .sort((x, y) => y.microsPerPush - x.microsPerPush)
      .slice(0, 5),
    statementMicrosPerPush: round(per(totalMs * 1000), 1),
    statements: statements
      .sort((x, y) => y.ms - x.ms)
      .slice(0, 8)
      .map((q) => ({ query: q.query, callsPer1000: round(per(q.calls) * 1000, 2), microsPerPush: round(per(q.ms * 1000), 2) })),
  };
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** This stack's embedded Postgres and its backends (children of this process), not another Postgres on the machine. */
const stackPostgres = () => descendantsNamed(process.pid, 'postgres');

/** The platform's processes: what must be quiet before a measurement starts. */
function platformPids(stack: BenchStack): number[] {
  return [stack.pids.delivery, stack.pids.campaign, stack.pids.gateway, stack.pids.kafka].flatMap((pid) => processTree(pid)).concat(stackPostgres());
}

/** Waits for the platform to go quiet (waitForQuiet), and says so when it took a while or did not. */
export async function settle(stack: BenchStack, log: (l: string) => void): Promise<void> {
  const { waitedMs, quiet } = await waitForQuiet(() => platformPids(stack));
  if (!quiet) log(`  the platform was still busy after ${(waitedMs / 1000).toFixed(0)} s; measuring anyway`);
  else if (waitedMs > 2000) log(`  waited ${(waitedMs / 1000).toFixed(0)} s for the platform to go quiet`);
}

/**
 * A fresh delivery service runs its first tens of thousands of pushes well below its steady rate
 * (V8 compiling the hot paths, the young generation growing, Postgres backends caching plans):
 * at 100,000 that start took a quarter of the campaign. A running deployment has long been past
 * it, so the measured campaigns run warm: after one campaign of `pushes` to a site of its own
 * (recorded, not hidden) and, when there is a far push service, one of FAR_WARM_UP_PUSHES to it —
 * so that the far campaign, compared with the main one, also starts on connections and a push
 * service that have worked before rather than on the first ones.
 */
async function warmUp(stack: BenchStack, pushes: number, log: (l: string) => void): Promise<WarmUpResult> {
  log(`warming the delivery service up: one campaign to ${pushes.toLocaleString('en')} subscribers of a site of its own…`);
  const c = await campaignToNewSite(stack, { site: 'delivery-bench-warm-up', subscribers: pushes, sim: stack.sim, simPid: stack.pids.simulator, label: 'warm-up: ', capMs: 600_000 + pushes * 2 }, log);
  log(`  warm-up: ${c.pushed.toLocaleString('en')} pushes in ${c.seconds.toFixed(2)} s = ${Math.round(c.pushesPerSecond).toLocaleString('en')}/s`);
  if (stack.farSim) {
    const far = Math.min(FAR_WARM_UP_PUSHES, pushes);
    const f = await campaignToNewSite(stack, { site: 'delivery-bench-warm-up-far', subscribers: far, sim: stack.farSim, simPid: stack.pids.farSimulator!, label: 'warm-up, far: ', capMs: 120_000 + far * 20 }, log);
    log(`  warm-up, far push service: ${f.pushed.toLocaleString('en')} pushes in ${f.seconds.toFixed(2)} s`);
  }
  await settle(stack, log);
  return { pushes: c.pushed, pushesPerSecond: Math.round(c.pushesPerSecond), seconds: round(c.seconds, 2) };
}

/** The far push service's warm-up campaign: a few seconds at its latency. */
const FAR_WARM_UP_PUSHES = 10_000;

/** A simulator's origin and counters, as campaignToNewSite waits on them. */
type SimulatorView = Pick<BenchStack['sim'], 'origin' | 'stats'>;

/** A site of its own whose `subscribers` point at `sim`, seeded through the API. */
export async function newSiteAt(stack: BenchStack, o: { site: string; subscribers: number; sim: SimulatorView }, log: (l: string) => void) {
  const site = await createSite(stack, o.site);
  await seed(stack, site, { count: o.subscribers, topics: ['bench'], countries: ['br'], perSubscriber: 1, endpointBase: `${o.sim.origin}/push/` }, log);
  return site;
}

/**
 * One campaign to every subscriber of `site` (seeded with newSiteAt to point at `sim`), created
 * through the API once the platform is quiet, and timed from the create call to the simulator's
 * count reaching them; with the CPU the platform and `sim` spent per push meanwhile (the
 * warm-ups and the far campaign with its references; the main one measures more around it).
 */
export async function campaignTo(
  stack: BenchStack,
  o: { site: Awaited<ReturnType<typeof createSite>>; subscribers: number; sim: SimulatorView; simPid: number; label: string; capMs: number },
  log: (l: string) => void,
) {
  // As the main campaign does: the seeding (and the campaign before) keeps Postgres busy for
  // seconds, which the campaign would otherwise start in.
  await settle(stack, log);
  const before = await o.sim.stats();
  const cpu = () => ({ platform: cpuSeconds(platformPids(stack)), sim: cpuSeconds([o.simPid]) });
  const cpu0 = cpu();
  const t0 = performance.now();
  const campaignId = await sendBenchCampaign(stack, o.site.apiKey);
  const w = await waitForPushes(stack, {
    label: o.label,
    campaignId,
    expected: o.subscribers,
    t0,
    base: before.accepted + before.rejected.total,
    stats: () => o.sim.stats(),
    capMs: o.capMs,
    log,
  });
  const cpu1 = cpu();
  const seconds = (w.lastAt - t0) / 1000;
  const perPush = (s: number) => round((s * 1e6) / Math.max(w.done, 1), 1);
  return {
    pushed: w.done,
    seconds,
    pushesPerSecond: w.done / Math.max(seconds, 0.001),
    toFirstPushMs: w.firstAt === null ? null : Math.round(w.firstAt - t0),
    /** CPU µs per push from the create call to the last push: the platform, and the push service it went to. */
    cpuMicrosPerPush: { platform: perPush(cpu1.platform - cpu0.platform), pushService: perPush(cpu1.sim - cpu0.sim) },
    before,
    after: w.stats,
  };
}

/** newSiteAt, then campaignTo it. */
export async function campaignToNewSite(
  stack: BenchStack,
  o: { site: string; subscribers: number; sim: SimulatorView; simPid: number; label: string; capMs: number },
  log: (l: string) => void,
) {
  const site = await newSiteAt(stack, o, log);
  return campaignTo(stack, { ...o, site }, log);
}

export async function runDelivery(stack: BenchStack, opts: DeliveryOptions, log: (l: string) => void): Promise<DeliveryResult> {
  const site = await createSite(stack, `delivery-bench-${opts.subscribers}`);
  log(`seeding ${opts.subscribers.toLocaleString('en')} subscribers pointing at the simulator…`);
  const seedStarted = Date.now();
  await seed(stack, site, { count: opts.subscribers, topics: ['bench'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, log);
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const payload = samplePayload('0f0e0d0c-0b0a-4908-8706-050403020100', BENCH_CAMPAIGN);
  log(`measuring the ceiling: web-push encrypt of a ${payload.length}-byte payload on every core for ${opts.ceilingSeconds} s…`);
  const ceil = await ceiling(payload, opts.ceilingSeconds, log);
  await settle(stack, log);

  // On a quiet machine as the ceiling is: right after a large campaign the stack stays busy for a
  // while (waitForQuiet) and the loop would run slow. Measured twice, before the campaign and
  // after it, and the faster run is the baseline: this machine's speed swings by a fifth within
  // minutes, and one slow run of the loop alone would flatter the pipeline's ratio.
  const naiveCount = Math.min(opts.naiveCount, opts.subscribers);
  const measureNaive = async (when: string) => {
    log(`measuring the naive loop ${when}: web-push sendNotification, ${opts.concurrency} in flight, ${naiveCount.toLocaleString('en')} pushes…`);
    const simCpu0 = cpuSeconds([stack.pids.simulator]);
    const run = await naive(stack, site.id, payload, naiveCount, opts.concurrency, log);
    log(`  naive: ${run.sent.toLocaleString('en')} sent, ${run.failed} failed in ${run.seconds.toFixed(2)} s = ${Math.round(run.sent / run.seconds).toLocaleString('en')}/s (${JSON.stringify(run.statuses)}); simulator used ${(cpuSeconds([stack.pids.simulator]) - simCpu0).toFixed(1)} CPU s`);
    await settle(stack, log);
    return run;
  };
  const naiveBefore = await measureNaive('before the campaign');
  const warm = opts.warmUp > 0 ? await warmUp(stack, Math.min(opts.warmUp, opts.subscribers), log) : undefined;

  log(`sending one campaign to ${opts.subscribers.toLocaleString('en')} subscribers through the pipeline…`);
  const cpu = meterCpu({
    delivery: () => processTree(stack.pids.delivery),
    campaign: () => processTree(stack.pids.campaign),
    gateway: () => processTree(stack.pids.gateway),
    postgres: () => stackPostgres(),
    kafka: () => processTree(stack.pids.kafka),
    simulator: () => [stack.pids.simulator],
    bench: () => [process.pid],
  });
  const rss = sampleRss(stack.pids.delivery, 100);
  const threads0 = threadTimes(stack.pids.delivery);
  const logBytes0 = await pieceBytes(stack);
  const pg0 = await postgresCounters(stack);
  const s0 = await stack.sim.stats();
  const base = s0.accepted + s0.rejected.total;
  const t0 = performance.now();
  const campaignId = await sendBenchCampaign(stack, site.apiKey);
  const createMs = performance.now() - t0;
  const { done, firstAt, lastAt, markedAt, stats: s } = await waitForPushes(stack, {
    label: '',
    markAt: Math.min(opts.subscribers, opts.firstPushes),
    campaignId,
    expected: opts.subscribers,
    t0,
    base,
    stats: () => stack.sim.stats(),
    capMs: 600_000 + opts.subscribers * 2,
    log,
  });
  const toLastPushMs = lastAt - t0;
  const cpuUsed = cpu.read();
  const pgWork = postgresWork(pg0, await postgresCounters(stack), done);
  log(
    `  postgres per push: ${pgWork.walBytesPerPush} WAL bytes, ${pgWork.fullPagesPer1000} full-page images per 1,000, ${pgWork.blocksReadPerPush} blocks read + ${pgWork.blocksHitPerPush} hit; ` +
      `${pgWork.checkpoints} checkpoints, ${pgWork.autovacuums} autovacuums (${pgWork.autovacuumMicrosPerPush} µs per push: ${pgWork.autovacuumByTable?.map((t) => `${t.table} ${t.runs}× ${t.microsPerPush}`).join(', ')}), ${pgWork.sessions} new connections; statements ${pgWork.statementMicrosPerPush} µs per push, most: ` +
      pgWork.statements.slice(0, 4).map((q) => `${q.microsPerPush} µs ${q.query.slice(0, 60)}`).join(' | '),
  );
  const workerTids = stack.workerThreads(stack.pids.delivery);
  const roles = threadRoleCpu(stack.pids.delivery, threads0, threadTimes(stack.pids.delivery), workerTids);
  const split = workerTids.size > 0;
  const deliveryThreads: Record<string, number> = split
    ? { main: round(roles.main, 2), workers: round(roles.workers, 2), other: round(roles.other, 2) }
    : { main: round(roles.main, 2), notMain: round(roles.workers + roles.other, 2) };
  log(
    split
      ? `  delivery CPU by thread: main ${deliveryThreads.main} s, ${workerTids.size} worker threads (${roles.busyWorkers} busy) ${roles.workers.toFixed(2)} s, other threads ${roles.other.toFixed(2)} s`
      : `  delivery CPU by thread: main ${deliveryThreads.main} s, others ${(roles.workers + roles.other).toFixed(2)} s (no worker threads announced: no split)`,
  );
  const mem = rss.stop();
  const seconds = toLastPushMs / 1000;
  const pushesPerSecond = done / seconds;
  log(`  pipeline: ${done.toLocaleString('en')} pushes in ${seconds.toFixed(2)} s = ${Math.round(pushesPerSecond).toLocaleString('en')}/s; delivery peak RSS ${mem.peakRssMb.toFixed(0)} MB`);

  // Where the time went, from the two services' own records.
  let toCompletedMs: number | null = null;
  let createToDispatchMs: number | null = null;
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const { rows } = await stack.pool.query<{ state: string; ms: number | null }>(
      `SELECT state, EXTRACT(EPOCH FROM (completed_at - (SELECT created_at FROM campaign.campaigns WHERE id = $1))) * 1000 AS ms FROM delivery.campaign_runs WHERE campaign_id = $1`,
      [campaignId],
    );
    if (rows[0]?.state === 'completed' || rows[0]?.state === 'failed') {
      toCompletedMs = rows[0].ms === null ? null : Number(rows[0].ms);
      break;
    }
    await sleep(250);
  }
  const d = await stack.pool.query<{ ms: number }>('SELECT EXTRACT(EPOCH FROM (dispatched_at - created_at)) * 1000 AS ms FROM campaign.campaigns WHERE id = $1', [campaignId]);
  createToDispatchMs = d.rows[0]?.ms == null ? null : Number(d.rows[0].ms);
  const states = await stack.pool.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM delivery.delivery_log WHERE campaign_id = $1 GROUP BY state', [campaignId]);
  const logStates = Object.fromEntries(states.rows.map((r) => [r.state, Number(r.n)]));
  const logBytes1 = await pieceBytes(stack, campaignId);
  const logBytesPerPush = logBytes1.piece === logBytes0.piece ? Math.round((logBytes1.bytes - logBytes0.bytes) / Math.max(done, 1)) : Math.round(logBytes1.bytes / Math.max(done, 1));
  log(`  delivery log on disk: ${logBytesPerPush} bytes per push (${logBytes1.piece ?? 'parent table'})`);
  log(`  delivery log: ${JSON.stringify(logStates)}; run ${toCompletedMs === null ? 'not completed' : `completed ${(toCompletedMs / 1000).toFixed(2)} s after create`}`);

  await settle(stack, log);
  const naiveAfter = await measureNaive('again, after the campaign');
  const naiveRuns = [naiveBefore, naiveAfter].map((r) => r.sent / r.seconds);
  const nv = naiveRuns[1] > naiveRuns[0] ? naiveAfter : naiveBefore;
  const naivePerSecond = Math.max(...naiveRuns);
  log(`  naive baseline: ${Math.round(naivePerSecond).toLocaleString('en')}/s, the faster of ${naiveRuns.map((r) => Math.round(r).toLocaleString('en')).join(' and ')}/s`);

  const perPush = (seconds: number) => round((seconds * 1e6) / Math.max(done, 1), 1);
  const cpuMicrosPerPush: CpuMicrosPerPush = {
    total: perPush(PLATFORM.reduce((sum, k) => sum + cpuUsed[k], 0)),
    delivery: perPush(cpuUsed.delivery),
    postgres: perPush(cpuUsed.postgres),
    kafka: perPush(cpuUsed.kafka),
    campaign: perPush(cpuUsed.campaign),
    gateway: perPush(cpuUsed.gateway),
    encryptOnly: round(ceil.cpuMicrosPerEncryption, 1),
    ...(split ? { deliveryMain: perPush(roles.main), deliveryWorkers: perPush(roles.workers), deliveryOther: perPush(roles.other) } : {}),
    naive: round((nv.cpuSeconds * 1e6) / Math.max(nv.sent, 1), 1),
    simulator: perPush(cpuUsed.simulator),
    bench: perPush(cpuUsed.bench),
  };
  // The service logs its engine at info; the bench runs it at warn, so ask the same question of the same files.
  const addon = pathToFileURL(compiledPath('packages/push/native/rfc8291.node'));
  const engineChoice = (process.env.ENCRYPTION_ENGINE ?? 'auto') as Parameters<typeof resolveEngine>[0];
  const { engine: encryptionEngine } = resolveEngine(engineChoice, addon);
  log(
    `  encryption engine: ${encryptionEngine}; CPU µs per push: platform ${cpuMicrosPerPush.total} (${PLATFORM.map((k) => `${k} ${cpuMicrosPerPush[k]}`).join(', ')}) = ` +
      `${(cpuMicrosPerPush.total / Math.max(cpuMicrosPerPush.encryptOnly, 0.1)).toFixed(2)}× encrypt-only ${cpuMicrosPerPush.encryptOnly}; naive ${cpuMicrosPerPush.naive}; ` +
      `simulator ${cpuMicrosPerPush.simulator}, bench ${cpuMicrosPerPush.bench} (not in the total)`,
  );

  return {
    subscribers: opts.subscribers,
    pushed: done,
    seedSeconds: round(seedSeconds, 1),
    ...(warm ? { warmUp: warm } : {}),
    pushesPerSecond: Math.round(pushesPerSecond),
    seconds: round(seconds, 2),
    firstPushes: markedAt !== null && opts.firstPushes < done
      ? { pushes: opts.firstPushes, pushesPerSecond: Math.round(opts.firstPushes / ((markedAt - t0) / 1000)) }
      : { pushes: done, pushesPerSecond: Math.round(pushesPerSecond) },
    stages: {
      createMs: round(createMs, 1),
      createToDispatchMs: createToDispatchMs === null ? null : round(createToDispatchMs, 1),
      toFirstPushMs: firstAt === null ? null : round(firstAt - t0, 0),
      toLastPushMs: round(toLastPushMs, 0),
      toCompletedMs: toCompletedMs === null ? null : round(toCompletedMs, 0),
    },
    accepted: s.accepted - s0.accepted,
    rejected: s.rejected.total - s0.rejected.total,
    logStates,
    logBytesPerPush,
    ceilingPerSecond: Math.round(ceil.perSecond),
    ceilingThreads: ceil.threads,
    naivePerSecond: Math.round(naivePerSecond),
    naiveRuns: naiveRuns.map((r) => Math.round(r)),
    naiveCount: nv.sent + nv.failed,
    naiveFailed: nv.failed,
    naiveCpuSeconds: round(nv.cpuSeconds, 2),
    concurrency: opts.concurrency,
    ratioToCeiling: round(pushesPerSecond / ceil.perSecond),
    ratioToNaive: round(pushesPerSecond / naivePerSecond, 2),
    peakRssMb: Math.round(mem.peakRssMb),
    vmHwmMb: Math.round(mem.vmHwmMb),
    cpuSeconds: Object.fromEntries(Object.entries(cpuUsed).map(([k, v]) => [k, round(v, 2)])),
    deliveryThreads,
    postgresWork: pgWork,
    cpuMsPerPush: Object.fromEntries(Object.entries(cpuUsed).map(([k, v]) => [k, round((v * 1000) / Math.max(done, 1), 4)])),
    cpuMicrosPerPush,
    simulator: { connections: s.connections - s0.connections, http2Sessions: s.http2Sessions - s0.http2Sessions, vapidVerifications: s.vapid.verifications - s0.vapid.verifications },
    encryptionEngine,
  };
}
