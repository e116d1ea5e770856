// `npm run bench`: starts a throwaway stack (Postgres, Kafka, the three services, the push-service
// simulator in sink mode) and measures delivery throughput, API latency, audience latency and
// scheduler lateness. Prints a table and writes bench/results/<time>.json, latest.json,
// latest.md and latest.svg. `npm run bench -- --help` lists the flags.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runApi } from './parts/api.js';
import { runAudience } from './parts/audience.js';
import { runNeighbours } from './parts/neighbours.js';
import { runNotifications } from './parts/notifications.js';
import { runDelivery, settle } from './parts/delivery.js';
import { FAR_MAX_SUBSCRIBERS, runFar } from './parts/far.js';
import { LOGIN_PROXY, runLoginFlood } from './parts/login-flood.js';
import { runSlow } from './parts/slow.js';
import { runThrottled } from './parts/throttled.js';
import { runBestTime } from './parts/best-time.js';
import { runAutomations } from './parts/automations.js';
import { runScheduler } from './parts/scheduler.js';
import { runYear } from './parts/year.js';
import { formatAllocations, formatSummary, summariseAllocations, summariseProfile } from './lib/profile-summary.js';
import { deliveryScale, evaluateTargets, formatTables, machine, mergeWithPrevious, renderSvg, type Results } from './lib/report.js';
import { int } from './lib/numbers.js';
import { Cleanup, startBenchStack } from './lib/stack.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS = path.join(HERE, 'results');
const PARTS = ['delivery', 'throttled', 'best-time', 'api', 'audience', 'scheduler', 'neighbours', 'login', 'year', 'notifications', 'automations'] as const;
type Part = (typeof PARTS)[number];

/** The console owner's logins timed idle, then under the login flood. */
const LOGIN_TRIES = 10;
/** The far push service's SETTINGS_MAX_CONCURRENT_STREAMS. */
const FAR_STREAMS = 100;
/** The slow push service's campaign: 3,000 pushes at 150 a second take 20 s. */
const SLOW_SUBSCRIBERS = 3000;
/** The compressed year's devices: a fifth of the pushes shown, a tenth of those clicked. */
const YEAR_DEVICES = { impressionRate: 0.2, clickRate: 0.1 };

const HELP = `npm run bench -- [flags]

  --only delivery,throttled,best-time,api,audience,scheduler,neighbours,login,year,notifications,automations   parts to run (default: all);
                       throttled: campaigns at 120,000/min and 3,000/min (one killed -9 and restarted)
                       best-time: 100,000 subscribers of the simulator's hourly population with 3
                       weeks of history, a best-time campaign with a holdout, a throttle and a cap
  --subscribers N[,M…] delivery: subscribers in the campaign (50000); several sizes (1000000,10000000)
                       run one after another in this bench, each with a site of its own, and the
                       largest's time over the smallest's is the scaling row of the targets
  --naive N            delivery: pushes sent by the naive loop (10000, at most --subscribers)
  --concurrency N      delivery: pushes in flight in the naive loop (100)
  --push-concurrency N delivery: the pipeline's PUSH_CONCURRENCY_PER_ORIGIN (default: the service's own)
  --ceiling-seconds N  delivery: length of the encryption ceiling run (5)
  --warm-up N          delivery: pushes of a campaign sent to a fresh delivery service before the
                       measured ones (and 10,000 to the far push service), which then run warm as
                       a deployed service does (50000, at most --subscribers; 0: no warm-up)
  --far-latency-ms N   delivery: also send a campaign to a far push service answering every push
                       after N ms, ${FAR_STREAMS} HTTP/2 streams per connection; min(--subscribers,
                       ${FAR_MAX_SUBSCRIBERS.toLocaleString('en')}) subscribers (150; 0 skips it)
  --slow-capacity N    delivery: also send a campaign of ${SLOW_SUBSCRIBERS.toLocaleString('en')} to a slow push service handling
                       N pushes a second, its latency growing with its queue (150; 0 skips it)
  --campaigns N        api: campaigns with analytics on the site (100000)
  --connections N      api: autocannon connections (40)
  --seconds N          api: seconds per autocannon scenario (10)
  --audience N         audience: subscribers (1000000)
  --audience-seconds N audience: seconds per scenario (5)
  --scheduled N        scheduler: campaigns due at the same second (10000)
  --noisy N            neighbours: subscribers of the site that floods imports and exports (100000)
  --year-days N        year: days of daily campaigns in the compressed year (365)
  --year-subscribers N year: the site's subscribers, browsers of the device simulator (1000)
  --year-seconds N     year: seconds of the list and create scenarios at the start, middle and end (5)
  --notify-campaign N  notifications: subscribers of the campaign sending meanwhile (1000000)
  --notify-rate N      notifications: created per second (50)
  --notify-seconds N   notifications: seconds of load (30)
  --notify-targets N   notifications: subscriptions each names (3)
  --automation-people N  automations: people enrolled in the series (1000000; enrolments bulk-inserted)
  --automation-due N   automations: of them, first steps due in the measured minute (20000)
  --event-seconds N    automations: seconds of POST /v2/events load (30)
  --event-connections N automations: autocannon connections for the events (20)
  --profile            profile the services' main threads (CPU time and allocations); summaries go into the results
`;

function parse() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      subscribers: { type: 'string' },
      naive: { type: 'string' },
      concurrency: { type: 'string' },
      'push-concurrency': { type: 'string' },
      'ceiling-seconds': { type: 'string' },
      'warm-up': { type: 'string' },
      'far-latency-ms': { type: 'string' },
      'slow-capacity': { type: 'string' },
      campaigns: { type: 'string' },
      connections: { type: 'string' },
      seconds: { type: 'string' },
      audience: { type: 'string' },
      'audience-seconds': { type: 'string' },
      scheduled: { type: 'string' },
      noisy: { type: 'string' },
      'year-days': { type: 'string' },
      'year-subscribers': { type: 'string' },
      'year-seconds': { type: 'string' },
      'notify-campaign': { type: 'string' },
      'notify-rate': { type: 'string' },
      'notify-seconds': { type: 'string' },
      'notify-targets': { type: 'string' },
      'automation-people': { type: 'string' },
      'automation-due': { type: 'string' },
      'event-seconds': { type: 'string' },
      'event-connections': { type: 'string' },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const only = (values.only ?? PARTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  const bad = only.filter((p) => !PARTS.includes(p as Part));
  if (bad.length) throw new Error(`--only: unknown part(s) ${bad.join(', ')}; use ${PARTS.join(',')}`);
  return {
    help: values.help,
    only: only as Part[],
    subscribers: (values.subscribers ?? '50000').split(',').map((v) => int(v.trim(), 'subscribers', 50_000)),
    naive: int(values.naive, 'naive', 10_000),
    concurrency: int(values.concurrency, 'concurrency', 100),
    pushConcurrency: values['push-concurrency'] === undefined ? undefined : int(values['push-concurrency'], 'push-concurrency', 1),
    ceilingSeconds: int(values['ceiling-seconds'], 'ceiling-seconds', 5),
    warmUp: int(values['warm-up'], 'warm-up', 50_000, 0),
    farLatencyMs: int(values['far-latency-ms'], 'far-latency-ms', 150, 0),
    slowCapacity: int(values['slow-capacity'], 'slow-capacity', 150, 0),
    campaigns: int(values.campaigns, 'campaigns', 100_000),
    connections: int(values.connections, 'connections', 40),
    seconds: int(values.seconds, 'seconds', 10),
    audience: int(values.audience, 'audience', 1_000_000),
    audienceSeconds: int(values['audience-seconds'], 'audience-seconds', 5),
    scheduled: int(values.scheduled, 'scheduled', 10_000),
    noisy: int(values.noisy, 'noisy', 100_000),
    yearDays: int(values['year-days'], 'year-days', 365),
    yearSubscribers: int(values['year-subscribers'], 'year-subscribers', 1000),
    yearSeconds: int(values['year-seconds'], 'year-seconds', 5),
    notifyCampaign: int(values['notify-campaign'], 'notify-campaign', 1_000_000),
    notifyRate: int(values['notify-rate'], 'notify-rate', 50),
    notifySeconds: int(values['notify-seconds'], 'notify-seconds', 30),
    notifyTargets: int(values['notify-targets'], 'notify-targets', 3),
    automationPeople: int(values['automation-people'], 'automation-people', 1_000_000),
    automationDue: int(values['automation-due'], 'automation-due', 20_000),
    eventSeconds: int(values['event-seconds'], 'event-seconds', 30),
    eventConnections: int(values['event-connections'], 'event-connections', 20),
    profile: values.profile,
  };
}

const started = Date.now();
const log = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

async function main(): Promise<number> {
  const opts = parse();
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const cleanup = new Cleanup();
  let interrupted = false;
  const onSignal = (sig: string) => {
    if (interrupted) {
      log(`${sig} again: exiting without waiting`);
      process.exit(130);
    }
    interrupted = true;
    log(`${sig}: stopping everything…`);
    void cleanup.run(log).then(() => process.exit(130));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  const runId = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
  const profileDir = path.join(RESULTS, 'profiles', runId);
  const results: Results = {
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    machine: machine(),
    options: { ...opts },
    targets: [],
    errors: [],
  };
  log(`machine: ${results.machine.cpuModel}, ${results.machine.cores} cores, ${results.machine.memoryGb} GB, Node ${results.machine.node}; load ${results.machine.loadAverageAtStart.join(' ')}`);
  log(`parts: ${opts.only.join(', ')}`);
  let pids: Record<string, number> = {};
  try {
    if (opts.profile) mkdirSync(profileDir, { recursive: true });
    const far = opts.farLatencyMs > 0 && opts.only.includes('delivery');
    const slow = opts.slowCapacity > 0 && opts.only.includes('delivery');
    const year = opts.only.includes('year');
    // The notifications' people are the device simulator's subscriptions (it decrypts and stamps every push); the year's devices report, theirs need not.
    const notifications = opts.only.includes('notifications');
    const stack = await startBenchStack(cleanup, {
      log,
      serviceEnv: {
        // The login flood's 200 clients come through one trusted proxy; every other part connects from 127.0.0.1, untrusted.
        TRUSTED_PROXIES: LOGIN_PROXY,
        // The pipeline runs with the service's own limits (adaptive per origin) unless asked.
        ...(opts.pushConcurrency ? { PUSH_CONCURRENCY_PER_ORIGIN: String(opts.pushConcurrency) } : {}),
        ...(opts.profile ? { BENCH_PROFILE_DIR: profileDir } : {}),
        // The compressed year's webhook receiver listens on 127.0.0.1.
        ...(year ? { WEBHOOK_TEST_HOSTS: '127.0.0.1' } : {}),
      },
      nodeOptions: opts.profile ? [`--import ${path.join(HERE, 'lib/profile-hook.mjs')}`] : [],
      ...(far ? { far: { latencyMs: opts.farLatencyMs, maxConcurrentStreams: FAR_STREAMS } } : {}),
      ...(slow ? { slow: { capacityPerSecond: opts.slowCapacity } } : {}),
      ...(year ? { devices: YEAR_DEVICES } : notifications ? { devices: { impressionRate: 0, clickRate: 0 } } : {}),
    });
    pids = stack.pids;
    const at = () => new Date().toISOString();
    for (const part of opts.only) {
      if (interrupted) break;
      log(`── ${part} ──`);
      try {
        if (part === 'delivery') {
          // Several sizes: the service warms up once, before the first; each size is measured alike.
          const runs: NonNullable<Results['deliveryRuns']> = {};
          let d: NonNullable<Results['delivery']> | undefined;
          for (const [i, subscribers] of opts.subscribers.entries()) {
            if (interrupted) break;
            if (i > 0) {
              log(`── delivery, ${subscribers.toLocaleString('en')} subscribers ──`);
              await settle(stack, log);
            }
            d = { ...(await runDelivery(stack, { subscribers, naiveCount: opts.naive, concurrency: opts.concurrency, ceilingSeconds: opts.ceilingSeconds, firstPushes: FAR_MAX_SUBSCRIBERS, warmUp: i === 0 ? opts.warmUp : 0 }, log)), measuredAt: at() };
            runs[String(subscribers)] = d;
            results.delivery = d;
            results.deliveryRuns = runs;
          }
          if (!d) break;
          const scale = deliveryScale(Object.values(runs));
          if (scale) {
            results.deliveryScale = scale;
            log(`  ${scale.to.toLocaleString('en')} subscribers took ${scale.timeRatio.toFixed(2)}× the ${scale.from.toLocaleString('en')} time and ${scale.cpuRatio?.toFixed(2) ?? '?'}× its platform CPU (${scale.sizeRatio}× the audience); delivery peak RSS ${scale.peakRssMb} MB`);
          }
          if (far && !interrupted) {
            log('── delivery to a far push service ──');
            try {
              await settle(stack, log);
              d.farPushService = await runFar(stack, { mainSubscribers: d.subscribers, zeroLatency: d.firstPushes }, log);
            } catch (err) {
              if (interrupted) break;
              log(`far push service FAILED: ${(err as Error).stack ?? err}`);
              log(`last service lines:\n${stack.logs.slice(-30).join('\n')}`);
              results.errors.push({ part: 'delivery (far push service)', message: (err as Error).message });
            }
          }
          if (slow && !interrupted) {
            log('── delivery to a slow push service ──');
            try {
              await settle(stack, log);
              d.slowPushService = await runSlow(stack, { subscribers: SLOW_SUBSCRIBERS }, log);
            } catch (err) {
              if (interrupted) break;
              log(`slow push service FAILED: ${(err as Error).stack ?? err}`);
              log(`last service lines:\n${stack.logs.slice(-30).join('\n')}`);
              results.errors.push({ part: 'delivery (slow push service)', message: (err as Error).message });
            }
          }
        } else if (part === 'throttled') {
          results.throttled = await runThrottled(stack, log);
        } else if (part === 'best-time') {
          results.bestTime = await runBestTime(stack, log);
        } else if (part === 'api') {
          results.api = { ...(await runApi(stack, { campaigns: opts.campaigns, connections: opts.connections, seconds: opts.seconds }, log)), measuredAt: at() };
        } else if (part === 'audience') {
          results.audience = { ...(await runAudience(stack, { subscribers: opts.audience, connections: [1, 10], seconds: opts.audienceSeconds }, log)), measuredAt: at() };
        } else if (part === 'neighbours') {
          results.neighbours = { ...(await runNeighbours(stack, { subscribers: opts.noisy, seconds: opts.seconds, connections: 4 }, log)), measuredAt: at() };
        } else if (part === 'year') {
          results.year = { ...(await runYear(stack, { days: opts.yearDays, subscribers: opts.yearSubscribers, seconds: opts.yearSeconds }, log)), measuredAt: at() };
        } else if (part === 'notifications') {
          results.notifications = await runNotifications(stack, { campaign: opts.notifyCampaign, perSecond: opts.notifyRate, seconds: opts.notifySeconds, targets: opts.notifyTargets }, log);
        } else if (part === 'automations') {
          results.automations = await runAutomations(stack, { people: opts.automationPeople, due: opts.automationDue, eventSeconds: opts.eventSeconds, eventConnections: opts.eventConnections }, log);
        } else if (part === 'login') {
          results.login = { ...(await runLoginFlood(stack, { tries: LOGIN_TRIES }, log)), measuredAt: at() };
        } else {
          results.scheduler = { ...(await runScheduler(stack, { campaigns: opts.scheduled, concurrency: 10 }, log)), measuredAt: at() };
        }
      } catch (err) {
        if (interrupted) break;
        log(`${part} FAILED: ${(err as Error).stack ?? err}`);
        log(`last service lines:\n${stack.logs.slice(-30).join('\n')}`);
        results.errors.push({ part, message: (err as Error).message });
      }
    }
  } catch (err) {
    log(`FAILED: ${(err as Error).stack ?? err}`);
    results.errors.push({ part: 'setup', message: (err as Error).message });
  } finally {
    log('stopping everything…');
    await cleanup.run(log);
  }
  if (interrupted) return 130;

  if (opts.profile) {
    const files = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
    const role = (f: string) => Object.entries(pids).find(([, pid]) => f.includes(`.${pid}.`))?.[0] ?? 'other';
    const summaries = files.map((f) => ({ role: role(f), ...summariseProfile(path.join(profileDir, f), 25) }));
    for (const s of summaries) log(`profile of ${s.role} (main thread):\n${formatSummary(s)}`);
    const heapFiles = readdirSync(profileDir).filter((f) => f.endsWith('.heapprofile'));
    const allocations = heapFiles.map((f) => ({ role: role(f), ...summariseAllocations(path.join(profileDir, f), 25) }));
    for (const s of allocations) log(`allocations of ${s.role} (main thread):\n${formatAllocations(s)}`);
    results.profiles = { dir: path.relative(path.join(HERE, '..'), profileDir), summaries, allocations };
  }

  results.finishedAt = new Date().toISOString();
  results.targets = evaluateTargets(results);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(path.join(RESULTS, `${runId}.json`), JSON.stringify(results, null, 2) + '\n');
  const latestFile = path.join(RESULTS, 'latest.json');
  const latest = mergeWithPrevious(results, latestFile);
  latest.targets = evaluateTargets(latest);
  writeFileSync(latestFile, JSON.stringify(latest, null, 2) + '\n');
  writeFileSync(path.join(RESULTS, 'latest.svg'), renderSvg(latest));
  const tables = formatTables(latest);
  writeFileSync(path.join(RESULTS, 'latest.md'), tables + '\n');
  process.stdout.write('\n' + tables + '\n\n');
  log(`results: bench/results/${runId}.json, bench/results/latest.json, latest.md, latest.svg (took ${((Date.now() - started) / 60_000).toFixed(1)} min)`);
  return results.errors.length ? 1 : 0;
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error).message}\n`);
  return 2;
});
// Handles and sockets left by libraries must not keep a finished run alive.
setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
