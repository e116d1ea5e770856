// Notifications beside a campaign (issue 37: "campaigns and one-to-one notifications must not
// queue behind each other"): a campaign of `campaign` subscribers (seeded, pointing at the main
// simulator) is sent, and once its pushes flow, notifications are created at `perSecond` for
// `seconds` (open loop: one every 1/perSecond s whatever the answers), each to `targets`
// subscriptions issued by the device simulator, which decrypts every push and stamps when it got
// it. The latency of a push is that stamp less the moment the API answered its create (both
// Date.now() on this machine); target p99 < 200 ms. The campaign's progress before and after the
// load says whether it was sending throughout.
import { api, createSite, percentile, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { BENCH_CAMPAIGN, sendBenchCampaign, settle } from './delivery.js';

export interface NotificationsOptions {
  /** Subscribers of the campaign sending meanwhile. */
  campaign: number;
  perSecond: number;
  seconds: number;
  /** Subscriptions each notification names. */
  targets: number;
}

export interface NotificationsResult {
  campaign: number;
  perSecond: number;
  seconds: number;
  targets: number;
  created: number;
  /** Creates not answered 202 (or not at all within 30 s). */
  failedCreates: number;
  /** The failed creates by answer: an HTTP status, or `none` (no answer within 30 s, or the connection failed). */
  failedCreatesBy: Record<string, number>;
  /** Pushes the device simulator got of the notifications (of created × targets). */
  pushes: number;
  /** From the API's answer to the push service's receipt, ms. */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** The create call itself, ms. */
  createMs: { p50: number; p99: number };
  /**
   * Where a notification's time went, from the timestamps the services store (Postgres's clock
   * and this process's Date.now(), one machine), p50 and p99 over the notifications, ms: the
   * create until its transaction began (gateway, key check, gRPC, a connection of the campaign
   * service's pool); from then to its audit entry's insert (the transaction, the answer back to
   * the gateway, the append's gRPC call and a connection of the delivery service's pool), and
   * on to the answer; from the answer to the relay publishing its job (negative: published
   * before the answer left); to the delivery service creating its run; to its pushes' first
   * claim; to the last push received.
   */
  stagesMs: Record<'beforeTransaction' | 'transactionToAudit' | 'auditToAnswer' | 'answerToPublished' | 'publishedToRun' | 'runToClaim' | 'claimToReceived', { p50: number; p99: number }>;
  /** Pushes of the campaign when the load began and ended (it was sending throughout when both are under `campaign`). */
  campaignPushedAtStart: number;
  campaignPushedAtEnd: number;
  measuredAt: string;
}

/** Subscriptions the notifications pick their targets from. */
const POOL = 200;

export async function runNotifications(stack: BenchStack, o: NotificationsOptions, log: (l: string) => void): Promise<NotificationsResult> {
  const devices = stack.deviceSim;
  if (!devices) throw new Error('the notifications part needs the device simulator (StackOptions.devices)');
  const base = stack.services.gatewayUrl;
  const site = await createSite(stack, 'bench-notifications');
  // The people: subscriptions the device simulator issued, subscribed through the site plugin's endpoint.
  const people: string[] = [];
  for (let i = 0; i < POOL; i++) {
    const sub = await devices.subscribe(site.vapidPublicKey);
    const res = await api(base, '', 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['people'] });
    if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${JSON.stringify(res.body)}`);
    people.push(res.body.id as string);
  }
  // The campaign's audience, on the same site: one site sends both.
  await seed(stack, site, { count: o.campaign, topics: ['bench'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, log);
  await settle(stack, log);
  const pushed = async () => {
    const s = await stack.sim.stats();
    return s.accepted + s.rejected.total;
  };
  const before = await pushed();
  const campaignId = await sendBenchCampaign(stack, site.apiKey);
  // Under way: a twentieth of its audience (at most 20,000) pushed.
  const under = Math.min(20_000, Math.ceil(o.campaign / 20));
  for (const until = Date.now() + 300_000; (await pushed()) - before < under; ) {
    if (Date.now() > until) throw new Error(`campaign ${campaignId} did not start sending within 300 s`);
    await sleep(200);
  }
  const campaignPushedAtStart = (await pushed()) - before;
  log(`  campaign ${campaignId} of ${o.campaign.toLocaleString('en')} sending (${campaignPushedAtStart.toLocaleString('en')} pushed): ${o.perSecond} notifications a second for ${o.seconds} s, ${o.targets} targets each`);

  // The simulator keeps its last 1,000 messages: read every 250 ms, kept by message id.
  const received = new Map<string, { payload: string; receivedAt: number }>();
  let reading = true;
  const reader = (async () => {
    while (reading) {
      for (const m of await devices.messages().catch(() => [])) received.set(m.id, m);
      await sleep(250);
    }
  })();
  const answeredAt = new Map<string, number>();
  const calledAt = new Map<string, number>();
  const createMs: number[] = [];
  const failures: string[] = [];
  const failedBy: Record<string, number> = {};
  const calls: Promise<void>[] = [];
  const count = o.perSecond * o.seconds;
  let campaignPushedAtEnd = 0;
  const mine = () => [...received.values()].filter((m) => answeredAt.has(JSON.parse(m.payload).id as string));
  try {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const due = t0 + (i * 1000) / o.perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const subscriptionIds = Array.from({ length: o.targets }, (_, k) => people[(i * o.targets + k) % POOL]);
      calls.push(
        (async () => {
          const started = performance.now();
          const called = Date.now();
          const res = await api(base, site.apiKey, 'POST', '/v2/notifications', { ...BENCH_CAMPAIGN, subscriptionIds, transactional: true }).catch((err: Error) => ({ status: 0, body: err.message }));
          createMs.push(performance.now() - started);
          if (res.status !== 202) {
            failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
            const by = res.status === 0 ? 'none' : String(res.status);
            failedBy[by] = (failedBy[by] ?? 0) + 1;
          }
          else {
            answeredAt.set((res.body as { id: string }).id, Date.now());
            calledAt.set((res.body as { id: string }).id, called);
          }
        })(),
      );
    }
    await Promise.all(calls);
    campaignPushedAtEnd = (await pushed()) - before;
    const expected = answeredAt.size * o.targets;
    for (const until = Date.now() + 60_000; mine().length < expected && Date.now() < until; ) await sleep(250);
  } finally {
    reading = false;
    await reader;
  }
  if (failures.length > 0) log(`  ${failures.length} creates failed (${Object.entries(failedBy).map(([by, n]) => `${n} × ${by}`).join(', ')}), e.g. ${failures.slice(0, 3).join('; ')}`);
  const latencies = mine()
    .map((m) => m.receivedAt - answeredAt.get(JSON.parse(m.payload).id as string)!)
    .sort((a, b) => a - b);
  const creates = [...createMs].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  const stagesMs = await stages(stack, calledAt, answeredAt, mine(), round);
  const result: NotificationsResult = {
    campaign: o.campaign,
    perSecond: o.perSecond,
    seconds: o.seconds,
    targets: o.targets,
    created: answeredAt.size,
    failedCreates: failures.length,
    failedCreatesBy: failedBy,
    pushes: latencies.length,
    latencyMs: { p50: round(percentile(latencies, 50)), p90: round(percentile(latencies, 90)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? NaN) },
    createMs: { p50: round(percentile(creates, 50)), p99: round(percentile(creates, 99)) },
    stagesMs,
    campaignPushedAtStart,
    campaignPushedAtEnd,
    measuredAt: new Date().toISOString(),
  };
  log(
    `  notifications: ${result.created} created (${result.failedCreates} failed), ${result.pushes} of ${result.created * o.targets} pushes received; API answer → push service p50 ${result.latencyMs.p50} ms, p90 ${result.latencyMs.p90} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms ` +
      `(create p50 ${result.createMs.p50} ms, p99 ${result.createMs.p99} ms); the campaign pushed ${campaignPushedAtStart.toLocaleString('en')} → ${campaignPushedAtEnd.toLocaleString('en')} of ${o.campaign.toLocaleString('en')} meanwhile`,
  );
  log(`  stages, p50 / p99 ms: ${Object.entries(stagesMs).map(([k, v]) => `${k} ${v.p50} / ${v.p99}`).join(', ')}`);
  return result;
}

/** The stages of NotificationsResult.stagesMs, read from the campaign and delivery schemas once the load is over. */
async function stages(
  stack: BenchStack,
  calledAt: ReadonlyMap<string, number>,
  answeredAt: ReadonlyMap<string, number>,
  received: readonly { payload: string; receivedAt: number }[],
  round: (x: number) => number,
): Promise<NotificationsResult['stagesMs']> {
  const ids = [...answeredAt.keys()];
  const { rows } = await stack.pool.query<{ id: string; created: number; audited: number | null; published: number | null; run: number | null; claimed: number | null }>(
    `SELECT n.id::text,
            extract(epoch FROM n.created_at) * 1000 AS created,
            (SELECT extract(epoch FROM min(a.at)) * 1000 FROM delivery.audit_log a WHERE a.site_id = n.site_id AND a.target = n.id::text) AS audited,
            extract(epoch FROM o.published_at) * 1000 AS published,
            extract(epoch FROM r.created_at) * 1000 AS run,
            (SELECT extract(epoch FROM min(l.claimed_at)) * 1000 FROM delivery.delivery_log l WHERE l.campaign_id = n.id) AS claimed
       FROM campaign.notifications n
       JOIN campaign.outbox o ON o.campaign_id = n.id AND o.kind = 'notification.dispatch'
       LEFT JOIN delivery.campaign_runs r ON r.campaign_id = n.id
      WHERE n.id = ANY($1::uuid[])`,
    [ids],
  );
  const lastReceived = new Map<string, number>();
  for (const m of received) {
    const id = JSON.parse(m.payload).id as string;
    lastReceived.set(id, Math.max(lastReceived.get(id) ?? 0, m.receivedAt));
  }
  const spans: Record<keyof NotificationsResult['stagesMs'], number[]> = {
    beforeTransaction: [],
    transactionToAudit: [],
    auditToAnswer: [],
    answerToPublished: [],
    publishedToRun: [],
    runToClaim: [],
    claimToReceived: [],
  };
  const add = (k: keyof typeof spans, from: number | null | undefined, to: number | null | undefined) => {
    if (from != null && to != null) spans[k].push(Number(to) - Number(from));
  };
  for (const r of rows) {
    add('beforeTransaction', calledAt.get(r.id), r.created);
    add('transactionToAudit', r.created, r.audited);
    add('auditToAnswer', r.audited, answeredAt.get(r.id));
    add('answerToPublished', answeredAt.get(r.id), r.published);
    add('publishedToRun', r.published, r.run);
    add('runToClaim', r.run, r.claimed);
    add('claimToReceived', r.claimed, lastReceived.get(r.id));
  }
  const summary = (xs: number[]) => {
    const sorted = xs.sort((a, b) => a - b);
    return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
  };
  return Object.fromEntries(Object.entries(spans).map(([k, xs]) => [k, summary(xs)])) as NotificationsResult['stagesMs'];
}
