// Best time per subscriber (issue 40; docs/api-decisions.md, "Best time"). A site of 100,000
// subscribers from the push simulator's hourly population (tools/push-simulator/src/hourly.ts:
// each device engages in its two peak hours, UTC, known only to the simulator; at a fifth of
// its rates in any other hour) with three weeks of history — three campaigns a day, each
// subscriber's at a random hour, its impression and click drawn by the simulator's functions and
// stored as the tracking endpoint stores them (rows of delivery.tracking at the moment of the
// report, so the platform's own trigger learns from them: weeks cannot be waited for). Then a
// best-time campaign through the API (24 h window, 10 % holdout) with a throttle and the site's
// frequency cap on. Measured: the slots the delivery service planned (every subscriber in one,
// every slot's moment inside the window), the hours chosen against the devices' true peak hours,
// and the lift of best time over the holdout in CTR and impressions per push — each group's pushes
// drawn by the simulator at the hour it is planned for (the holdout's: the window's start),
// since the window itself lasts a day — with Newcombe's 95 % interval.
import { randomUUID } from 'node:crypto';
import { rateLift, type Lift } from '@webpush/contracts/best-time.js';
import { engagementFactor, inPeak, seededRandom, subscriptionIdOf, type HourlyPopulation } from '../../tools/push-simulator/src/index.js';
import { apiOk, createSite, deliveryOperators, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN, settle } from './delivery.js';

export interface BestTimeResult {
  subscribers: number;
  historyDays: number;
  historyCampaignsPerDay: number;
  /** Tracking reports stored as history, and how long storing them (with the model's trigger) took. */
  historyReports: number;
  historySeconds: number;
  /** From the create's answer to every subscriber's slot stored and the run handed to the pacer. */
  planSeconds: number;
  /**
   * The longest the freeze's progress (delivery.best_time_plans) stood still, read every 200 ms:
   * an upper bound of its longest batch, each a transaction of its own. Null when the plan made no
   * progress row (one statement for the whole audience, before batches).
   */
  longestFreezeBatchSeconds: number | null;
  holdout: number;
  /** Subscribers planned in a slot (or the holdout) ÷ the audience, and slots whose moment is inside the window ÷ all. */
  plannedShare: number;
  slotsInWindowShare: number;
  /** Best-time subscribers whose chosen hour is one of their true peak hours. */
  accuracy: number;
  /** The same for the holdout's hour (the window's start): what sending at once gets. */
  holdoutAccuracy: number;
  ctr: { bestTime: number; holdout: number; lift: Lift };
  impressionRate: { bestTime: number; holdout: number; lift: Lift };
  /** Subscribers per slot (index = slot; the holdout apart). */
  perSlot: number[];
  throttlePerMinute: number;
  frequencyCap: { campaigns: number; hours: number };
  measuredAt: string;
}

const SUBSCRIBERS = 100_000;
const HISTORY_DAYS = 21;
const CAMPAIGNS_PER_DAY = 3;
const POPULATION: HourlyPopulation = { seed: 40, width: 2, offPeak: 0.2 };
/** The devices' rates in their peak hours. */
const IMPRESSION_RATE = 0.6;
const CLICK_RATE = 0.3;
const THROTTLE = 60_000;
const CAP = { campaigns: 100, hours: 24 };
const INSERT_BATCH = 5_000;
const HOUR = 3600_000;

export async function runBestTime(stack: BenchStack, log: (line: string) => void): Promise<BestTimeResult> {
  const site = await createSite(stack, 'bench-best-time');
  await seed(stack, site, { count: SUBSCRIBERS, topics: ['bench'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, log);
  await deliveryOperators(stack).setFrequencyCap(site.id, CAP);
  const { rows: subs } = await stack.pool.query(`SELECT id::text AS id, endpoint FROM delivery.subscribers WHERE site_id = $1 ORDER BY id`, [site.id]);
  const deviceOf = new Map<string, string>(subs.map((s) => [s.id as string, subscriptionIdOf(s.endpoint as string)]));

  // History: day d's campaign c goes to each subscriber at a random moment of that day.
  const random = seededRandom(4040);
  const now = Date.now();
  const t0 = performance.now();
  let reports = 0;
  for (let day = HISTORY_DAYS; day >= 1; day--) {
    const dayStart = Math.floor((now - day * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
    for (let c = 0; c < CAMPAIGNS_PER_DAY; c++) {
      const campaignId = randomUUID();
      let ids: string[] = [];
      let kinds: string[] = [];
      let ats: Date[] = [];
      const flush = async () => {
        if (ids.length === 0) return;
        await stack.pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind, at) SELECT $1, unnest($2::bigint[]), unnest($3::text[]), unnest($4::timestamptz[])`, [campaignId, ids, kinds, ats]);
        reports += ids.length;
        ids = [];
        kinds = [];
        ats = [];
      };
      for (const [id, device] of deviceOf) {
        const at = new Date(dayStart + Math.floor(random() * 24 * HOUR));
        const f = engagementFactor(POPULATION, device, at);
        if (random() >= IMPRESSION_RATE * f) continue;
        ids.push(id);
        kinds.push('impression');
        ats.push(at);
        if (random() < CLICK_RATE * f) {
          ids.push(id);
          kinds.push('click');
          ats.push(new Date(at.getTime() + 30_000));
        }
        if (ids.length >= INSERT_BATCH) await flush();
      }
      await flush();
    }
    log(`  history: day -${day} stored (${reports.toLocaleString('en')} reports so far)`);
  }
  const historySeconds = (performance.now() - t0) / 1000;
  await stack.pool.query('VACUUM ANALYZE delivery.subscriber_hours');
  await settle(stack, log);

  // The campaign, through the API.
  const t1 = performance.now();
  const created = await apiOk(stack.services.gatewayUrl, site.apiKey, 'POST', '/v2/campaign/create', {
    ...BENCH_CAMPAIGN,
    topics: ['bench'],
    status: 'published',
    scheduleMode: 'now',
    ttl: 3600,
    throttlePerMinute: THROTTLE,
    sendTime: { mode: 'bestTime', within: '24h', holdout: 10 },
  });
  // Planned once every subscriber's slot is frozen: the run is then handed to the pacer (next_expand_at).
  let paced = false;
  let progress: string | null = null;
  let progressAt = performance.now();
  let longestBatch: number | null = null;
  for (const deadline = Date.now() + 300_000; !paced && Date.now() < deadline; ) {
    await sleep(200);
    const { rows } = await stack.pool.query(
      `SELECT r.next_expand_at IS NOT NULL AS paced, p.frozen_through::text AS through
         FROM delivery.campaign_runs r LEFT JOIN delivery.best_time_plans p ON p.campaign_id = r.campaign_id WHERE r.campaign_id = $1`,
      [created.id],
    );
    paced = rows[0]?.paced === true;
    const through = (rows[0]?.through as string | null | undefined) ?? null;
    if (through !== null && through !== progress) {
      if (progress !== null) longestBatch = Math.max(longestBatch ?? 0, (performance.now() - progressAt) / 1000);
      progress = through;
      progressAt = performance.now();
    }
  }
  if (!paced) throw new Error('the best-time campaign was not planned within 5 minutes');
  const planSeconds = (performance.now() - t1) / 1000;
  const stages: { at: Date; slot: number }[] = (await stack.pool.query(`SELECT at, best_time_slot AS slot FROM delivery.run_stages WHERE campaign_id = $1 ORDER BY stage_no`, [created.id])).rows;
  const { rows: frozen } = await stack.pool.query(`SELECT subscriber_id::text AS id, slot FROM delivery.best_time_slots WHERE campaign_id = $1`, [created.id]);
  const start = stages[0].at.getTime();
  const windowEnd = start + 24 * HOUR;
  const slotAt = new Map(stages.filter((s) => s.slot >= 0).map((s) => [s.slot, s.at]));
  const slotsInWindow = stages.filter((s) => s.at.getTime() >= start && s.at.getTime() < windowEnd).length;

  // Each group's pushes drawn by the simulator at its planned hour.
  const draw = seededRandom(4041);
  const groups = { bestTime: { sent: 0, impressions: 0, clicks: 0, inPeak: 0 }, holdout: { sent: 0, impressions: 0, clicks: 0, inPeak: 0 } };
  const perSlot = new Array(24).fill(0);
  let planned = 0;
  for (const r of frozen) {
    const device = deviceOf.get(r.id);
    const at = r.slot < 0 ? new Date(start) : slotAt.get(r.slot);
    if (device === undefined || at === undefined) continue;
    if (at.getTime() < start || at.getTime() >= windowEnd) continue;
    planned++;
    if (r.slot >= 0) perSlot[r.slot]++;
    const g = r.slot < 0 ? groups.holdout : groups.bestTime;
    const f = engagementFactor(POPULATION, device, at);
    g.sent++;
    if (inPeak(POPULATION, device, at.getUTCHours())) g.inPeak++;
    if (draw() < IMPRESSION_RATE * f) {
      g.impressions++;
      if (draw() < CLICK_RATE * f) g.clicks++;
    }
  }
  const b = groups.bestTime;
  const h = groups.holdout;
  const result: BestTimeResult = {
    subscribers: SUBSCRIBERS,
    historyDays: HISTORY_DAYS,
    historyCampaignsPerDay: CAMPAIGNS_PER_DAY,
    historyReports: reports,
    historySeconds: Math.round(historySeconds * 10) / 10,
    planSeconds: Math.round(planSeconds * 10) / 10,
    longestFreezeBatchSeconds: longestBatch === null ? null : Math.round(longestBatch * 10) / 10,
    holdout: h.sent,
    plannedShare: planned / SUBSCRIBERS,
    slotsInWindowShare: slotsInWindow / stages.length,
    accuracy: b.inPeak / Math.max(b.sent, 1),
    holdoutAccuracy: h.inPeak / Math.max(h.sent, 1),
    ctr: { bestTime: b.clicks / b.sent, holdout: h.clicks / h.sent, lift: rateLift(b.clicks, b.sent, h.clicks, h.sent) },
    impressionRate: { bestTime: b.impressions / b.sent, holdout: h.impressions / h.sent, lift: rateLift(b.impressions, b.sent, h.impressions, h.sent) },
    perSlot,
    throttlePerMinute: THROTTLE,
    frequencyCap: CAP,
    measuredAt: new Date().toISOString(),
  };
  log(
    `  best time: ${(result.accuracy * 100).toFixed(1)} % of chosen hours are true peak hours (holdout's hour ${(result.holdoutAccuracy * 100).toFixed(1)} %); ` +
      `CTR ${(result.ctr.bestTime * 100).toFixed(2)} % vs ${(result.ctr.holdout * 100).toFixed(2)} %, lift ${result.ctr.lift.relative} % (${result.ctr.lift.low}…${result.ctr.lift.high} points); ` +
      `planned ${(result.plannedShare * 100).toFixed(1)} %, slots in window ${(result.slotsInWindowShare * 100).toFixed(1)} %`,
  );
  return result;
}
