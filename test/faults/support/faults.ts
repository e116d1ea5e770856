// The fault suite's rig (issue 11, docs/reliability.md): a real stack (the three services as
// processes, supervised as `npm start` does), a push-service simulator with latency, N browsers
// subscribed through the public endpoint, and a runner that sends one campaign to all of them
// while a fault is injected, then measures what the simulator accepted against what the
// platform recorded. Vocabulary (Jepsen's): lost, duplicated, ambiguous, as counts of N.
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile, readFile } from 'node:fs/promises';
import pg from 'pg';
import { startPushSimulator, type PushSimulator } from '../../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from '../../e2e/support/fixtures.js';
import { sleep, startStack, type Stack, type StackOptions } from '../../e2e/support/harness.js';
import { pieceTable } from '../../../services/delivery/src/runs.js';

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** Subscribers per scenario: small for CI; FAULTS_N=10000 for a local big run. */
export const N = envInt('FAULTS_N', 1000);
/** The push service's answer time: long enough that a fault lands mid-campaign. */
export const LATENCY_MS = envInt('FAULTS_LATENCY_MS', 80);
/** Pushes in flight per push-service origin; with the latency this sets the sending rate. */
export const CONCURRENCY = envInt('FAULTS_CONCURRENCY', N >= 5000 ? 64 : 16);
/** The compressed outage of the 503 storm. */
export const STORM_SEC = envInt('FAULTS_STORM_SEC', 5);
/** How long Postgres or the Kafka broker stays down. */
export const DOWN_SEC = envInt('FAULTS_DOWN_SEC', 5);
/** The delivery's retry time budget in these runs, sized to outlast the storm. */
export const RETRY_BUDGET_SEC = envInt('FAULTS_RETRY_BUDGET_SEC', Math.max(30, STORM_SEC * 6));
/** Bounded wait: a run must complete on its own within this after its campaign is created. */
export const COMPLETE_WITHIN_MS = envInt('FAULTS_COMPLETE_SEC', 90 + Math.ceil(N / 100)) * 1000;
/** Pushes claimed (and so at most left ambiguous) together per chunk in flight. */
export const CLAIM_BATCH = envInt('FAULTS_CLAIM_BATCH', 25);

/** The delivery settings of every fault stack. */
export function faultEnv(sim: PushSimulator): Record<string, string> {
  return {
    PUSH_EXTRA_CA_FILE: sim.caCertFile,
    SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
    CHUNK_SIZE: String(Math.min(500, Math.max(50, Math.ceil(N / 20)))),
    CLAIM_BATCH_SIZE: String(CLAIM_BATCH),
    PUSH_CONCURRENCY_PER_ORIGIN: String(CONCURRENCY),
    INSTANCE_DEAD_AFTER_SEC: '3',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    // Issue 11: retry a push for a time budget, not a count (docs/reliability.md).
    PUSH_RETRY_BUDGET_SEC: String(RETRY_BUDGET_SEC),
  };
}

export interface Rig {
  stack: Stack;
  sim: PushSimulator;
  site: SiteInfo;
  /** The simulator's ids of the N subscribed browsers. */
  browsers: string[];
  /** A pool on the stack's database (application_name `faults-test`, never terminated by the suite). */
  db: pg.Pool;
  figures: Figures[];
  stop(): Promise<void>;
}

export async function startRig(
  label: string,
  opts: { env?: Record<string, string>; stack?: StackOptions; /** Anonymous browsers to subscribe (default N; 0 for a suite that makes its own people). */ subscribers?: number } = {},
): Promise<Rig> {
  // keepReplaced: every accepted copy stays in received(), so repeats are counted per campaign.
  const sim = await startPushSimulator({ seed: 11, keepReplaced: true, maxRecorded: Math.max(100_000, N * 4) });
  let stack: Stack | undefined;
  try {
    stack = await startStack(label, { ...faultEnv(sim), ...opts.env }, {}, { supervise: true, ...opts.stack });
    const site = await siteWithPermissions(stack, ALL, `faults-${label}`);
    const browsers = await subscribeBrowsers(stack, sim, site, opts.subscribers ?? N);
    const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 3, application_name: 'faults-test', connectionTimeoutMillis: 3000 });
    db.on('error', () => {});
    const figures: Figures[] = [];
    const s = stack;
    return {
      stack,
      sim,
      site,
      browsers,
      db,
      figures,
      async stop() {
        await db.end().catch(() => {});
        await s.stop();
        await sim.close();
      },
    };
  } catch (err) {
    await stack?.stop().catch(() => {});
    await sim.close();
    throw err;
  }
}

/** Real browsers' keys from the simulator, registered through the public endpoint (the gateway). */
async function subscribeBrowsers(stack: Stack, sim: PushSimulator, site: SiteInfo, n: number): Promise<string[]> {
  const browsers: string[] = [];
  const subscribeOne = async () => {
    const sub = sim.createSubscription(site.vapidPublicKey);
    for (let attempt = 1; ; attempt++) {
      const res = await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
        body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['all'] },
      });
      if (res.status === 201) break;
      if (attempt >= 3 || res.status < 500) throw new Error(`subscribe: ${res.status} ${res.text}`);
    }
    browsers.push(sub.id);
  };
  const parallel = 24;
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        next++;
        await subscribeOne();
      }
    }),
  );
  return browsers;
}

export interface Figures {
  scenario: string;
  campaignId: string;
  n: number;
  /** Subscribers of the audience the push service never accepted the campaign for. */
  lost: number;
  /** Accepted copies beyond the first, per subscriber. */
  duplicated: number;
  /** The platform's own count of pushes whose outcome it could not know (delivery.campaign_runs). */
  ambiguous: number;
  accepted: number;
  distinct: number;
  run: { state: string; sent: number; failed: number; expired: number } | null;
  /** Delivery-log rows of the campaign: all, and those without a final outcome (claimed or sending). */
  logRows: number;
  claimedLeft: number;
  /** The campaign service's copy of the counters (campaign.campaign_stats). */
  stats: { sent: number; failed: number; expired: number } | null;
  /** GET /v2/campaign/{id} `delivery` (issue 11), when the API has it. */
  api: Record<string, unknown> | null;
  /** Seconds from create to the run's completion (null: not within the bound). */
  completedAfterSec: number | null;
  fault: string;
  problems: string[];
  /** Index of the scenario's first line in the stack's logs. */
  logsFrom: number;
}

export interface FaultContext {
  campaignId: string;
  rig: Rig;
  /** Subscribers the push service accepted this campaign for so far. */
  progress(): number;
  /** Waits until at least `fraction` of N accepted this campaign (bounded). */
  waitForProgress(fraction: number, timeoutMs?: number): Promise<number>;
}

const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(2)} %`;

/** Accepted messages of one campaign (each copy; the payload carries the campaign id). */
export function acceptedOf(sim: PushSimulator, campaignId: string) {
  return sim.received().filter((m) => m.payload.includes(campaignId));
}

async function query<T = any>(rig: Rig, sql: string, params: unknown[] = []): Promise<T[] | undefined> {
  try {
    return (await rig.db.query(sql, params)).rows as T[];
  } catch {
    return undefined; // Postgres down or restarting: the caller polls again
  }
}

async function runRow(rig: Rig, campaignId: string) {
  const rows = await query(rig, `SELECT state, sent::int, failed::int, expired::int, ambiguous::int FROM delivery.campaign_runs WHERE campaign_id = $1`, [campaignId]);
  return rows?.[0] as { state: string; sent: number; failed: number; expired: number; ambiguous: number } | undefined;
}

/**
 * Sends one campaign to the rig's N browsers while `fault` runs (it waits for progress, injects,
 * recovers and returns a line describing what it did), waits (bounded) for the run to complete
 * on its own and the counters to converge, then measures and prints the figures.
 */
export async function runScenario(
  rig: Rig,
  scenario: string,
  fault: (ctx: FaultContext) => Promise<string>,
  opts: { behaviour?: Parameters<PushSimulator['setBehaviour']>[0]; /** More fields of the campaign (a throttle). */ campaign?: Record<string, unknown> } = {},
): Promise<Figures> {
  const { sim, stack, site } = rig;
  sim.clearBehaviours();
  sim.reset();
  sim.setBehaviour(opts.behaviour ?? { latencyMs: LATENCY_MS });
  const logsFrom = stack.logs.length;
  const started = Date.now();
  const created = await stack.api.request('POST', '/v2/campaign/create', {
    key: site.apiKey,
    body: validCampaign({ status: 'published', topics: ['all'], title: `Faults: ${scenario}`.slice(0, 60), ...opts.campaign }),
  });
  if (created.status !== 201 && created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
  const campaignId = created.body.id as string;
  const progress = () => new Set(acceptedOf(sim, campaignId).map((m) => m.subscriptionId)).size;
  const ctx: FaultContext = {
    campaignId,
    rig,
    progress,
    async waitForProgress(fraction, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const p = progress();
        if (p >= Math.ceil(fraction * N)) return p;
        if (Date.now() > until) throw new Error(`${scenario}: only ${p}/${N} accepted after ${timeoutMs} ms, before the fault`);
        await sleep(20);
      }
    },
  };
  const faultLine = await fault(ctx);

  // Bounded wait: the run reaches a final state by itself, with no row left without an outcome.
  const problems: string[] = [];
  let completedAfterSec: number | null = null;
  let run = await runRow(rig, campaignId);
  while (Date.now() - started < COMPLETE_WITHIN_MS) {
    run = (await runRow(rig, campaignId)) ?? run;
    if (run && (run.state === 'completed' || run.state === 'failed')) {
      completedAfterSec = (Date.now() - started) / 1000;
      break;
    }
    await sleep(250);
  }
  // Stragglers (a retry of an ambiguous push), rows still finishing, counters travelling to the
  // campaign service: a short settle, bounded, checked until they agree.
  const settleUntil = Date.now() + (completedAfterSec === null ? 2000 : 15_000);
  let log: { rows: number; claimed: number } | undefined;
  let stats: Figures['stats'] = null;
  let api: Figures['api'] = null;
  await sleep(1500);
  for (;;) {
    run = (await runRow(rig, campaignId)) ?? run;
    const l = await query(rig, `SELECT count(*)::int AS rows, count(*) FILTER (WHERE state NOT IN ('sent', 'failed', 'expired'))::int AS claimed FROM delivery.delivery_log WHERE campaign_id = $1`, [campaignId]);
    if (l) log = l[0];
    const s = await query(rig, `SELECT sent::int, failed::int, expired::int FROM campaign.campaign_stats WHERE campaign_id = $1`, [campaignId]);
    if (s?.[0]) stats = s[0];
    const got = await stack.api.request('GET', `/v2/campaign/${campaignId}`, { key: site.apiKey }).catch(() => undefined);
    if (got?.status === 200) api = (got.body.delivery as Record<string, unknown> | undefined) ?? null;
    const distinctNow = progress();
    const settled =
      run !== undefined && log !== undefined && log.claimed === 0 && run.sent === distinctNow && stats !== null && stats.sent === run.sent && stats.failed === run.failed &&
      (api === null || (api.sent === run.sent && api.pending === 0));
    if (settled || Date.now() > settleUntil) break;
    await sleep(250);
  }

  const messages = acceptedOf(sim, campaignId);
  const got = new Set(messages.map((m) => m.subscriptionId));
  const lost = rig.browsers.filter((b) => !got.has(b)).length;
  const duplicated = messages.length - got.size;
  const ambiguous = run?.ambiguous ?? 0;
  const f: Figures = {
    scenario,
    campaignId,
    n: N,
    lost,
    duplicated,
    ambiguous,
    accepted: messages.length,
    distinct: got.size,
    run: run ? { state: run.state, sent: run.sent, failed: run.failed, expired: run.expired } : null,
    logRows: log?.rows ?? -1,
    claimedLeft: log?.claimed ?? -1,
    stats,
    api,
    completedAfterSec,
    fault: faultLine,
    problems,
    logsFrom,
  };

  if (completedAfterSec === null) problems.push(`the run did not complete on its own within ${COMPLETE_WITHIN_MS / 1000} s (state ${run?.state ?? 'none'})`);
  if (lost > 0) problems.push(`lost ${lost} of ${N} (the push service never accepted the campaign for them)`);
  if (duplicated > ambiguous) problems.push(`duplicated ${duplicated} > ambiguous ${ambiguous}: repeats the platform did not count${await uncountedRepeats(rig, campaignId, messages)}`);
  if (f.claimedLeft !== 0) problems.push(`${f.claimedLeft} delivery-log rows left without a final outcome (claimed or sending)`);
  if (f.logRows !== N) problems.push(`${f.logRows} delivery-log rows for ${N} subscribers (want exactly one each)`);
  if (!run || run.sent !== got.size) problems.push(`the run counts ${run?.sent} sent, the push service accepted ${got.size} subscribers`);
  if (run && run.failed + run.expired > 0) problems.push(`the run counts ${run.failed} failed and ${run.expired} expired`);
  if (!stats || stats.sent !== got.size || stats.failed !== 0) problems.push(`the campaign service's counters say ${stats?.sent} sent / ${stats?.failed} failed, the push service accepted ${got.size}`);
  if (api === null) problems.push(`GET /v2/campaign/{id} shows no \`delivery\` counts`);
  else if (api.sent !== got.size || api.failed !== 0 || api.expired !== 0 || api.pending !== 0) problems.push(`the campaign API's delivery counts ${JSON.stringify(api)}, the push service accepted ${got.size}`);

  const line =
    `      ${scenario} (${faultLine}): N=${N} lost ${lost} (${pct(lost, N)}), duplicated ${duplicated} (${pct(duplicated, N)}), ` +
    `ambiguous ${ambiguous} (${pct(ambiguous, N)}); recorded sent ${run?.sent ?? '?'}, failed ${run?.failed ?? '?'}, ` +
    `campaign counters ${stats ? `${stats.sent}/${stats.failed}` : 'none'}, API delivery ${api ? JSON.stringify(api) : 'none'}, ` +
    `rows not final ${f.claimedLeft}; run ${run?.state ?? 'none'}${completedAfterSec === null ? ' (not completed in time)' : ` after ${completedAfterSec.toFixed(1)} s`}`;
  console.log(line);
  rig.figures.push(f);
  await appendReport(f);
  if (problems.length > 0) console.log(problems.map((p) => `        ✗ ${p}`).join('\n'));
  return f;
}

/** Where repeats and the delivery log's per-row ambiguity disagree: copies received vs the row, grouped. */
async function uncountedRepeats(rig: Rig, campaignId: string, messages: { subscriptionId: string }[]): Promise<string> {
  const copies = new Map<string, number>();
  for (const m of messages) copies.set(m.subscriptionId, (copies.get(m.subscriptionId) ?? 0) + 1);
  const rows = await query<{ endpoint: string; state: string; attempts: number; ambiguous: number | null }>(
    rig,
    `SELECT s.endpoint, l.state, l.attempts::int, (to_jsonb(l) ->> 'ambiguous')::int AS ambiguous
       FROM delivery.delivery_log l JOIN delivery.subscribers s ON s.id = l.subscriber_id WHERE l.campaign_id = $1`,
    [campaignId],
  );
  if (!rows) return '';
  const groups = new Map<string, number>();
  for (const r of rows) {
    const extra = (copies.get(r.endpoint.slice(r.endpoint.lastIndexOf('/') + 1)) ?? 0) - 1;
    if (extra > (r.ambiguous ?? 0)) {
      const key = `${extra + 1} copies, row ambiguous ${r.ambiguous ?? 'n/a'}, attempts ${r.attempts}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
  }
  return groups.size === 0 ? '' : ` (${[...groups].map(([k, n]) => `${n}× ${k}`).join('; ')})`;
}

/** FAULTS_REPORT=<file>: the figures of every scenario are collected there as JSON (docs/reliability.md). */
export async function appendReport(f: object): Promise<void> {
  const file = process.env.FAULTS_REPORT;
  if (!file) return;
  const list = JSON.parse(await readFile(file, 'utf8').catch(() => '[]')) as object[];
  list.push(f);
  await writeFile(file, JSON.stringify(list, null, 2) + '\n');
}

/** Fails with every problem of the scenario at once, and the services' last lines. */
export function expectNoProblems(rig: Rig, f: Figures): void {
  if (f.problems.length === 0) return;
  const tail = rig.stack.logs
    .slice(f.logsFrom)
    .filter((l) => !/"msg":"push failed"/.test(l))
    .slice(-12)
    .map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l))
    .join('\n');
  throw new Error(`${f.scenario}:\n  - ${f.problems.join('\n  - ')}\n${tail}`);
}

/** Terminates backends of the stack's database; returns how many. */
export async function terminateBackends(rig: Rig, where: string): Promise<number> {
  const rows = await query<{ n: number }>(
    rig,
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> 'faults-test' AND (${where})`,
  );
  return rows?.[0]?.n ?? 0;
}

/** Waits (at most `ms`) until no delivery connection is running a query or holding a transaction open. */
export async function waitUntilQuiet(rig: Rig, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const busy = await query<{ n: number }>(
      rig,
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'delivery' AND state IN ('active', 'idle in transaction')`,
    );
    if (busy?.[0]?.n === 0) return true;
    await sleep(2);
  }
  return false;
}

/**
 * Drops the delivery's connection at the moment issue 11 names: after a claim committed and
 * before the claimed pushes are sent (the read of their subscriptions). Made deterministic with
 * locks: an uncommitted delivery-log row for the next subscriber to be claimed stalls that
 * claim's transaction; an ACCESS EXCLUSIVE lock on delivery.subscribers queues behind it; the
 * row is rolled back, the claim commits, the lock is granted and the read that follows the
 * claim waits on it; that waiting backend is terminated, then the lock released. The delivery
 * process lives on (a failed pool query, not a crash), so the same instance retries the chunk.
 * Returns what it dropped, or '' when the moment did not come.
 */
export async function dropReadAfterClaim(rig: Rig, campaignId: string): Promise<string> {
  const connect = async () => {
    const c = new pg.Client({ connectionString: rig.stack.databaseUrl, application_name: 'faults-test' });
    c.on('error', () => {});
    await c.connect();
    return c;
  };
  const holder = await connect();
  const locker = await connect();
  const blockedBy = async (pid: number, extra = 'true') =>
    (
      await holder.query(
        `SELECT pid, left(query, 60) AS query FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'delivery' AND $1::int = ANY(pg_blocking_pids(pid)) AND (${extra})`,
        [pid],
      )
    ).rows as { pid: number; query: string }[];
  const waitFor = async <T>(check: () => Promise<T[]>, ms: number): Promise<T[]> => {
    const until = Date.now() + ms;
    for (;;) {
      const rows = await check();
      if (rows.length > 0 || Date.now() > until) return rows;
      await sleep(10);
    }
  };
  try {
    const holderPid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const lockerPid = (await locker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    // The next subscriber after the most recently claimed one: the next slice of a chunk in hand.
    const next = (
      await holder.query(
        `SELECT s.id::text AS id FROM delivery.subscribers s
          WHERE s.site_id = (SELECT site_id FROM delivery.campaign_runs WHERE campaign_id = $1) AND s.active
            AND s.id > (SELECT subscriber_id FROM delivery.delivery_log WHERE campaign_id = $1 ORDER BY claimed_at DESC, subscriber_id DESC LIMIT 1)
            AND NOT EXISTS (SELECT 1 FROM delivery.delivery_log l WHERE l.campaign_id = $1 AND l.subscriber_id = s.id)
          ORDER BY s.id LIMIT 1`,
        [campaignId],
      )
    ).rows[0]?.id as string | undefined;
    if (!next) return '';
    // Into the run's own piece of the log, where its claims insert (sending/delivery-log-store.ts).
    const piece = (await holder.query(`SELECT to_char(log_piece, 'YYYY-MM-DD') AS piece FROM delivery.campaign_runs WHERE campaign_id = $1`, [campaignId])).rows[0]?.piece;
    await holder.query('BEGIN');
    const placed = await holder.query(
      `INSERT INTO ${pieceTable('delivery_log', piece ?? null)} (campaign_id, subscriber_id, state, claimed_by) VALUES ($1, $2, 'claimed', $3)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [campaignId, next, randomUUID()],
    );
    if (placed.rowCount === 0) return '';
    // The claim of that slice arrives and waits for our row, its transaction open.
    const claimers = await waitFor(() => blockedBy(holderPid), 5000);
    if (claimers.length === 0) return '';
    await locker.query('BEGIN');
    await locker.query(`SET LOCAL lock_timeout = '10s'`);
    const granted = locker.query('LOCK TABLE delivery.subscribers IN ACCESS EXCLUSIVE MODE').then(
      () => true,
      () => false,
    );
    // Our lock request queues behind the stalled claim (it holds a share lock on subscribers).
    const queued = await waitFor(
      async () => (await holder.query(`SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted`, [lockerPid])).rows,
      2000,
    );
    await holder.query('ROLLBACK');
    if (queued.length === 0 || !(await granted)) return '';
    // The claim committed; the read of the claimed subscriptions now waits for our lock.
    const readers = await waitFor(() => blockedBy(lockerPid, `query ILIKE 'select%'`), 3000);
    for (const r of readers) await locker.query('SELECT pg_terminate_backend($1)', [r.pid]);
    return readers.length > 0 ? `after subscriber ${next}: ${readers.length} read${readers.length > 1 ? 's' : ''} dropped` : '';
  } finally {
    await holder.query('ROLLBACK').catch(() => {});
    await locker.query('COMMIT').catch(() => {});
    await holder.end().catch(() => {});
    await locker.end().catch(() => {});
  }
}

/**
 * Detail retention may drop at once: a run finished 60 days ago and published, with rows in a
 * piece 11 weeks back, and one with rows in the parent (from before pieces). Returns the piece.
 */
export async function seedExpirableDetail(rig: Rig): Promise<string> {
  const { rows } = await rig.db.query(`SELECT to_char(delivery.detail_week(now() - interval '77 days'), 'YYYY-MM-DD') AS piece`);
  const piece = rows[0].piece as string;
  await rig.db.query('SELECT delivery.ensure_detail_piece($1::date)', [piece]);
  const subscriber = (await rig.db.query('SELECT min(id)::text AS id FROM delivery.subscribers')).rows[0].id;
  for (const p of [piece, null]) {
    const campaignId = randomUUID();
    await rig.db.query(
      `INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state, completed_at, log_piece, by_browser)
       VALUES ($1, $2, '{}', 'completed', now() - interval '60 days', $3, '{}')`,
      [campaignId, rig.site.id, p],
    );
    await rig.db.query('UPDATE delivery.campaign_runs SET stats_published = stats_version WHERE campaign_id = $1', [campaignId]);
    await rig.db.query(`INSERT INTO ${pieceTable('delivery_log', p)} (campaign_id, subscriber_id, state, claimed_by) VALUES ($1, $2, 'sent', $3)`, [
      campaignId,
      subscriber,
      randomUUID(),
    ]);
  }
  return piece;
}

export function randomLabel(prefix: string): string {
  return `${prefix}_${randomBytes(3).toString('hex')}`;
}
