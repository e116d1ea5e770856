// Part: the compressed year (issue 35, item 4). One site sends a campaign every day for --year-days
// days; the database's size (by kind of data), list p99 and create p99 are recorded at the start,
// the middle and the end. Only the clock is compressed, by back-dating (docs/performance.md,
// "The compressed year"): every campaign is real (API → scheduler → Kafka → delivery → the device
// simulator, whose devices report impressions and clicks through the public endpoint, and whose
// webhook events go to a receiver here), and retention is the service's own code
// (retention/retention.ts: the pass `retention run` makes, with the service's default settings).
// After each simulated week the bench moves everything the retention code reads a week into the
// past (ageOneWeek), then runs a pass; time itself never moves.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { loadRetentionSettings } from '../../services/delivery/src/config.js';
import { createRetention, type RetentionReport } from '../../services/delivery/src/retention/retention.js';
import { pieceTable } from '../../services/delivery/src/runs.js';
import { DEFAULT_WEBHOOK_LOOP } from '../../services/delivery/src/webhooks/delivery-loop.js';
import { load } from '../lib/load.js';
import { api, apiOk, createSite, deliveryOperators, sleep, type BenchSite } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN } from './delivery.js';

export interface YearOptions {
  days: number;
  subscribers: number;
  /** Seconds of each autocannon scenario at the start, the middle and the end. */
  seconds: number;
}

/** The kinds of data whose size is recorded (tableKind). */
export const KINDS = ['deliveryLog', 'tracking', 'capHistory', 'webhookDeliveries', 'series', 'other'] as const;
export type Kind = (typeof KINDS)[number];

export interface YearSizes {
  /** Days sent so far. */
  day: number;
  databaseBytes: number;
  bytes: Record<Kind, number>;
  /** Detail pieces with a delivery-log table (not yet dropped). */
  pieces: number;
}

export interface YearPoint extends YearSizes {
  list: { p50: number; p99: number; reqPerSec: number; non2xx: number };
  create: { p50: number; p99: number; reqPerSec: number; non2xx: number };
  /** The machine's one-minute load average when measured. */
  load: number;
}

export interface YearResult {
  days: number;
  subscribers: number;
  retention: { deliveryLogDays: number; trackingDays: number; capHistoryDays: number; webhookDeliveriesDays: number };
  pushes: number;
  impressions: number;
  clicks: number;
  webhookRequests: number;
  start: YearPoint;
  middle: YearPoint;
  end: YearPoint;
  /** Size after every simulated week (after its retention pass). */
  weekly: YearSizes[];
  /** end.databaseBytes / middle.databaseBytes: the target is ≤ 1.1. */
  endToMiddle: number;
  piecesDropped: number;
  seconds: number;
}

/** A cap the daily campaigns never reach (a week's seven are sent within a minute), so every push is counted in the cap history. */
const FREQUENCY_CAP = { campaigns: 10, hours: 24 };
const TOPIC = 'daily';
const DEVICE_SUBSCRIBE_PARALLEL = 16;

/** A table's kind: the per-push and per-report detail (with their weekly pieces), cap history, webhook deliveries, the per-minute series, the rest. */
const KIND_SQL = `CASE
    WHEN n.nspname = 'delivery' AND c.relname ~ '^delivery_log(_[0-9]{8})?$' THEN 'deliveryLog'
    WHEN n.nspname = 'delivery' AND c.relname ~ '^tracking(_[0-9]{8})?$' THEN 'tracking'
    WHEN n.nspname = 'delivery' AND c.relname = 'subscriber_pushes' THEN 'capHistory'
    WHEN n.nspname = 'delivery' AND c.relname IN ('webhook_deliveries', 'webhook_tracking_buffer') THEN 'webhookDeliveries'
    WHEN n.nspname = 'delivery' AND c.relname = 'campaign_minutes' THEN 'series'
    ELSE 'other' END`;

async function sizes(pool: Pool, day: number): Promise<YearSizes> {
  const { rows } = await pool.query<{ kind: Kind; bytes: string }>(
    `SELECT ${KIND_SQL} AS kind, sum(pg_total_relation_size(c.oid))::bigint::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('delivery', 'campaign') AND c.relkind = 'r' GROUP BY 1`,
  );
  const bytes = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  for (const r of rows) bytes[r.kind] = Number(r.bytes);
  const { rows: db } = await pool.query(`SELECT pg_database_size(current_database())::text AS bytes,
      (SELECT count(*)::int FROM delivery.detail_pieces WHERE log_dropped_at IS NULL) AS pieces`);
  return { day, databaseBytes: Number(db[0].bytes), bytes, pieces: db[0].pieces };
}

const TIMESTAMPS_MOVED = ['campaign_runs', 'detail_pieces', 'subscriber_pushes', 'webhook_deliveries'];

/**
 * A week passes: everything retention reads moves seven days into the past, under the lock a
 * retention pass holds (so no pass sees half of it). The pieces are renamed to the week before
 * theirs (oldest first, so a name is free when taken) and their bookkeeping follows; the runs'
 * pieces and every timestamp of the runs, the pieces, the cap history and the webhook deliveries
 * move back. Only while the platform is idle (every run of the week final): the send path's
 * cached piece of a running campaign would name a renamed table.
 */
async function ageOneWeek(pool: Pool): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('delivery:retention'))`);
    const { rows: pieces } = await tx.query<{ piece: string; older: string; log: boolean; tracking: boolean }>(
      `SELECT to_char(piece, 'YYYY-MM-DD') AS piece, to_char(piece - 7, 'YYYY-MM-DD') AS older,
              log_dropped_at IS NULL AS log, tracking_dropped_at IS NULL AS tracking
         FROM delivery.detail_pieces ORDER BY piece`,
    );
    for (const p of pieces) {
      for (const [half, kept] of [['delivery_log', p.log], ['tracking', p.tracking]] as const) {
        if (kept) await tx.query(`ALTER TABLE ${pieceTable(half, p.piece)} RENAME TO ${pieceTable(half, p.older).replace('delivery.', '')}`);
      }
      await tx.query('UPDATE delivery.detail_pieces SET piece = $2 WHERE piece = $1', [p.piece, p.older]);
    }
    await tx.query(`UPDATE delivery.campaign_runs SET log_piece = log_piece - 7 WHERE log_piece IS NOT NULL`);
    const { rows: columns } = await tx.query<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns
        WHERE table_schema = 'delivery' AND table_name = ANY($1) AND data_type = 'timestamp with time zone' ORDER BY 1, 2`,
      [TIMESTAMPS_MOVED],
    );
    for (const table of TIMESTAMPS_MOVED) {
      const set = columns.filter((c) => c.table === table).map((c) => `${c.column} = ${c.column} - interval '7 days'`);
      if (set.length) await tx.query(`UPDATE delivery.${table} SET ${set.join(', ')}`);
    }
  });
  // The week of autovacuum the compressed clock does not give: the moved rows' old versions become free space.
  for (const table of TIMESTAMPS_MOVED) await pool.query(`VACUUM delivery.${table}`);
}

/** One retention pass, as `retention run` makes it (waits while the service's own pass holds the lock). */
async function retentionPass(pass: () => Promise<RetentionReport | null>): Promise<RetentionReport> {
  for (let i = 0; i < 600; i++) {
    const report = await pass();
    if (report) return report;
    await sleep(100);
  }
  throw new Error('a retention pass could not take its lock within 60 s');
}

/** Browsers of the device simulator subscribed through the public endpoint (their pushes are decrypted and reported). */
async function subscribeDevices(stack: BenchStack, site: BenchSite, count: number): Promise<void> {
  const sim = stack.deviceSim!;
  let next = 0;
  await Promise.all(
    Array.from({ length: DEVICE_SUBSCRIBE_PARALLEL }, async () => {
      while (next < count) {
        next++;
        const sub = await sim.subscribe(site.vapidPublicKey);
        // A browser tries again when its subscribe is lost or answered 5xx (a loaded machine drops some).
        for (let attempt = 1; ; attempt++) {
          const res = await api(stack.services.gatewayUrl, '', 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
            subscription: { endpoint: sub.endpoint, keys: sub.keys },
            topics: [TOPIC],
          }).catch((err: Error) => ({ status: 0, body: err.message }));
          if (res.status === 201) break;
          if (attempt >= 5 || (res.status >= 400 && res.status < 500)) throw new Error(`subscribe answered ${res.status}: ${JSON.stringify(res.body)}`);
          await sleep(500 * attempt);
        }
      }
    }),
  );
}

/** A webhook receiver that takes every event (a customer's endpoint): the webhook deliveries grow as they would. */
async function webhookReceiver(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, requests: () => requests, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * The day's campaign, created through the API. A create lost or answered 5xx (on a loaded
 * machine) is made again with the same Idempotency-Key, so a day never gets two campaigns.
 */
async function createDaily(gateway: string, apiKey: string, runKey: string, day: number): Promise<string> {
  const body = JSON.stringify({ ...BENCH_CAMPAIGN, title: `Daily news, day ${day}`, topics: [TOPIC], status: 'published', scheduleMode: 'now', ttl: 86_400 });
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${gateway}/v2/campaign/create`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/json', 'idempotency-key': `year-${runKey}-${day}` },
      body,
      signal: AbortSignal.timeout(30_000),
    }).then(async (r) => ({ status: r.status, body: await r.text() }), (err: Error) => ({ status: 0, body: err.message }));
    if (res.status === 200) return JSON.parse(res.body).id as string;
    if (attempt >= 5 || (res.status >= 400 && res.status < 500)) throw new Error(`creating the campaign of day ${day} answered ${res.status}: ${res.body}`);
    await sleep(1000 * attempt);
  }
}

/** Waits until the campaign's run is final (sent to every subscriber). */
async function untilFinal(stack: BenchStack, campaignId: string): Promise<void> {
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    const { rows } = await stack.pool.query(`SELECT 1 FROM delivery.campaign_runs WHERE campaign_id = $1 AND state IN ('completed', 'failed')`, [campaignId]);
    if (rows.length) return;
    await sleep(50);
  }
  throw new Error(`campaign ${campaignId} was not final within 300 s`);
}

/** Waits until the runs are final with their counters published and the devices have stopped reporting. */
async function drain(stack: BenchStack, campaignIds: string[]): Promise<void> {
  const until = Date.now() + 300_000;
  let lastDevice = '';
  let stableSince = Date.now();
  for (;;) {
    if (Date.now() > until) throw new Error(`the week's campaigns were not final within 300 s: ${campaignIds.join(', ')}`);
    const { rows } = await stack.pool.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM unnest($1::uuid[]) AS c(id)
        WHERE NOT EXISTS (SELECT 1 FROM delivery.campaign_runs r WHERE r.campaign_id = c.id
                           AND r.state IN ('completed', 'failed') AND r.stats_published >= r.stats_version)`,
      [campaignIds],
    );
    const d = (await stack.deviceSim!.stats()).device;
    const device = `${d.impressionsSent}/${d.clicksSent}/${d.errors}/${d.dropped}`;
    if (device !== lastDevice) {
      lastDevice = device;
      stableSince = Date.now();
    }
    // Reports still arriving bump the counters again: final means both quiet for half a second.
    if (rows[0].open === 0 && Date.now() - stableSince >= 500) return;
    await sleep(100);
  }
}

export async function runYear(stack: BenchStack, opts: YearOptions, log: (l: string) => void): Promise<YearResult> {
  if (!stack.deviceSim) throw new Error('the compressed year needs the device simulator (StackOptions.devices)');
  const started = Date.now();
  const settings = loadRetentionSettings({});
  const retention = createRetention(stack.pool, settings);
  const site = await createSite(stack, 'year-bench');
  await deliveryOperators(stack).setFrequencyCap(site.id, FREQUENCY_CAP);
  const hooks = await webhookReceiver();
  try {
    await apiOk(stack.services.gatewayUrl, site.apiKey, 'POST', '/v2/webhooks', {
      url: hooks.url,
      events: ['campaign.dispatched', 'campaign.completed', 'notification.impressions', 'notification.clicks'],
    });
    log(`subscribing ${opts.subscribers.toLocaleString('en')} browsers of the device simulator through the public endpoint…`);
    await subscribeDevices(stack, site, opts.subscribers);
    const gateway = stack.services.gatewayUrl;
    const auth = { authorization: site.apiKey };
    let drafts = 0;

    const measure = async (day: number): Promise<YearPoint> => {
      const size = await sizes(stack.pool, day);
      const list = await load({ name: 'list', url: gateway, connections: 40, seconds: opts.seconds, method: 'POST', path: '/v2/campaigns', headers: auth, body: () => JSON.stringify({ limit: 60 }) });
      const create = await load({
        name: 'create',
        url: gateway,
        connections: 10,
        seconds: opts.seconds,
        method: 'POST',
        path: '/v2/campaign/create',
        headers: auth,
        body: () => JSON.stringify({ ...BENCH_CAMPAIGN, title: `Year draft ${drafts++}`, topics: [TOPIC], status: 'draft', scheduleMode: 'now' }),
      });
      // The drafts are the measurement's, not the year's: they would count in the next size.
      await stack.pool.query(`DELETE FROM campaign.campaigns WHERE site_id = $1 AND status = 'draft'`, [site.id]);
      await stack.pool.query('VACUUM campaign.campaigns');
      const pick = (r: typeof list) => ({ p50: r.p50, p99: r.p99, reqPerSec: r.reqPerSec, non2xx: r.non2xx });
      const point = { ...size, list: pick(list), create: pick(create), load: Math.round(os.loadavg()[0] * 100) / 100 };
      log(`  day ${day}: database ${mb(size.databaseBytes)} (${KINDS.map((k) => `${k} ${mb(size.bytes[k])}`).join(', ')}; ${size.pieces} pieces); list p99 ${list.p99} ms, create p99 ${create.p99} ms; load ${point.load}`);
      return point;
    };

    // Idempotency keys of this run's daily campaigns (a create lost on a loaded machine is made again).
    const runKey = randomBytes(6).toString('hex');
    const start = await measure(0);
    const middleDay = Math.ceil(opts.days / 2);
    let middle: YearPoint | undefined;
    const weekly: YearSizes[] = [];
    const sim0 = await stack.deviceSim.stats();
    let piecesDropped = 0;
    const phases = { sending: 0, ageing: 0, retention: 0 };
    for (let day = 1; day <= opts.days; ) {
      const t0 = Date.now();
      const batch = Math.min(7, opts.days - day + 1);
      // One campaign a day, each sent before the next is created, as days are apart: created
      // together, a week's campaigns would contend for the same subscribers' frequency-cap locks.
      const ids: string[] = [];
      for (let i = 0; i < batch; i++) {
        const id = await createDaily(gateway, site.apiKey, runKey, day + i);
        ids.push(id);
        await untilFinal(stack, id);
      }
      await drain(stack, ids);
      day += batch;
      const t1 = Date.now();
      await ageOneWeek(stack.pool);
      const t2 = Date.now();
      const report = await retentionPass(retention.pass);
      phases.sending += t1 - t0;
      phases.ageing += t2 - t1;
      phases.retention += Date.now() - t2;
      piecesDropped += report.logDropped.length;
      const s = await sizes(stack.pool, day - 1);
      weekly.push(s);
      if (weekly.length % 4 === 0 || day > opts.days) log(`  day ${day - 1}: database ${mb(s.databaseBytes)}, delivery log ${mb(s.bytes.deliveryLog)} in ${s.pieces} pieces, tracking ${mb(s.bytes.tracking)}, cap history ${mb(s.bytes.capHistory)}; dropped so far ${piecesDropped}; seconds so far: sending ${(phases.sending / 1000).toFixed(0)}, ageing ${(phases.ageing / 1000).toFixed(0)}, retention ${(phases.retention / 1000).toFixed(0)}; load ${os.loadavg()[0].toFixed(1)}`);
      if (!middle && day - 1 >= middleDay) middle = await measure(day - 1);
    }
    const end = await measure(opts.days);
    const sim1 = await stack.deviceSim.stats();
    const result: YearResult = {
      days: opts.days,
      subscribers: opts.subscribers,
      retention: { deliveryLogDays: settings.deliveryLogDays, trackingDays: settings.trackingDays, capHistoryDays: settings.capHistoryDays, webhookDeliveriesDays: DEFAULT_WEBHOOK_LOOP.keepMs / 86_400_000 },
      pushes: sim1.accepted - sim0.accepted,
      impressions: sim1.device.impressionsSent - sim0.device.impressionsSent,
      clicks: sim1.device.clicksSent - sim0.device.clicksSent,
      webhookRequests: hooks.requests(),
      start,
      middle: middle ?? end,
      end,
      weekly,
      endToMiddle: Math.round((end.databaseBytes / (middle ?? end).databaseBytes) * 1000) / 1000,
      piecesDropped,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    log(`  ${result.pushes.toLocaleString('en')} pushes, ${result.impressions.toLocaleString('en')} impressions, ${result.clicks.toLocaleString('en')} clicks, ${result.webhookRequests} webhook requests; end/middle ${result.endToMiddle}× in ${result.seconds} s`);
    return result;
  } finally {
    await hooks.close();
  }
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
