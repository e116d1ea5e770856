// Automations at scale (issue 37 §4): `people` people enrolled in a two-step series (bulk-inserted
// enrolments, a fixture, not a measurement: as if they had all started it), of whom `due` have
// their first step due in one measured minute, spread evenly over it; the rest are due in the
// following 30 days. The campaign service's runner must turn the minute's steps into
// notifications within it (each step's lateness: its send key's time less its due time) and the
// delivery service push them, rendered per person with their tags (half of the people have a
// `first_name`, the others get the default), to the simulator; the steps due in the minute have
// identified subscriptions at the simulator (people, links and tags inserted directly too).
// Then POST /v2/events through the gateway for `eventSeconds` (autocannon, each event a new
// person starting an event automation, each with its own Idempotency-Key): events accepted per
// second. The load average at the start and end of each phase is kept beside the numbers.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { load, type LoadResult } from '../lib/load.js';
import { descendantsNamed, meterCpu } from '../lib/proc.js';
import { api, createSite, percentile, seed, sleep } from '../lib/sites.js';
import type { BenchStack } from '../lib/stack.js';
import { postgresCounters, postgresWork } from './delivery.js';

export interface AutomationsOptions {
  people: number;
  /** Of them, first steps due in the measured minute. */
  due: number;
  eventSeconds: number;
  eventConnections: number;
}

export interface AutomationsResult {
  people: number;
  due: number;
  /** Seconds the fixture took (enrolments, subscriptions, people). */
  fixtureSeconds: number;
  /** Steps due in the minute turned into notifications (send keys), and by the minute's end. */
  sent: number;
  sentByMinuteEnd: number;
  /** Notifications the runner made for them (grouped per batch). */
  notifications: number;
  /** Send key time − due time, ms. */
  latenessMs: { p50: number; p99: number; max: number };
  /** Pushes the simulator accepted for them, by the minute's end and in all (waited for up to 60 s after it). */
  pushedByMinuteEnd: number;
  pushed: number;
  /** From the minute's start to the last push, s. */
  lastPushSeconds: number;
  /** Targets the delivery service rendered with the person's own name (the tagged half; the sink simulator keeps no payloads). */
  renderedWithName: number;
  /** CPU seconds per process over the minute (and its tail). */
  cpuSeconds: Record<string, number>;
  loadAverage: { start: number; end: number };
  events: LoadResult & {
    accepted: number;
    acceptedPerSecond: number;
    loadAverage: { start: number; end: number };
    /** Statement time an event (pg_stat_statements), all statements, and the most costly (per 1,000 events, µs an event). */
    postgres?: { statementMicrosPerEvent: number; statements: { query: string; callsPer1000: number; micros: number }[] };
  };
  measuredAt: string;
}

const load1 = () => Math.round(os.loadavg()[0] * 100) / 100;

export async function runAutomations(stack: BenchStack, o: AutomationsOptions, log: (l: string) => void): Promise<AutomationsResult> {
  if (o.due > o.people) throw new Error('--automation-due must be at most --automation-people');
  const site = await createSite(stack, 'bench-automations');
  const base = stack.services.gatewayUrl;
  const ok = async (method: string, path: string, body: unknown) => {
    const res = await api(base, site.apiKey, method, path, body);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const template = await ok('POST', '/v2/templates', { name: 'series', title: 'Hi {{ first_name | "there" }}', body: 'Day {{ day }} of your series', link: 'https://shop.example/series' });
  const series = await ok('POST', '/v2/automations', {
    name: 'Series',
    trigger: { type: 'event', name: 'series_start' },
    steps: [
      { delaySeconds: 0, templateId: template.id, variables: { day: 1 } },
      { delaySeconds: 86_400, templateId: template.id, variables: { day: 2 } },
    ],
  });

  log(`enrolling ${o.people.toLocaleString('en')} people (bulk SQL fixture), ${o.due.toLocaleString('en')} with subscriptions at the simulator…`);
  const f0 = Date.now();
  const person = (i: string) => `'person-' || lpad(${i}::text, 8, '0')`;
  // Everyone due in the next 30 days but not before a day from now; the minute's people are moved into it below.
  await stack.pool.query(
    `INSERT INTO campaign.automation_enrolments (automation_id, external_id, due_at, state)
     SELECT $1, ${person('i')}, now() + interval '1 day' + (i % 2592000) * interval '1 second', 'active'
       FROM generate_series(0, $2::int - 1) AS i`,
    [series.id, o.people],
  );
  // The minute's people: subscriptions at the simulator, identified, half of them tagged.
  await seed(stack, site, { count: o.due, topics: ['series'], countries: ['br'], perSubscriber: 1, endpointBase: `${stack.sim.origin}/push/` }, () => {});
  await stack.pool.query(`INSERT INTO delivery.people (site_id, external_id) SELECT $1, ${person('i')} FROM generate_series(0, $2::int - 1) AS i`, [site.id, o.due]);
  await stack.pool.query(
    `INSERT INTO delivery.person_subscriptions (subscriber_id, person_id)
     SELECT s.id, p.id
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM delivery.subscribers WHERE site_id = $1) s
       JOIN (SELECT id, row_number() OVER (ORDER BY external_id) AS n FROM delivery.people WHERE site_id = $1) p ON p.n = s.n`,
    [site.id],
  );
  await stack.pool.query(
    `INSERT INTO delivery.person_tags (person_id, key, kind, string_value)
     SELECT id, 'first_name', 'string', 'Name' || id FROM delivery.people WHERE site_id = $1 AND id % 2 = 0`,
    [site.id],
  );
  await stack.pool.query('VACUUM ANALYZE campaign.automation_enrolments');
  await stack.pool.query('VACUUM ANALYZE delivery.people, delivery.person_subscriptions, delivery.person_tags');
  await stack.pool.query('CHECKPOINT');
  const fixtureSeconds = Math.round((Date.now() - f0) / 100) / 10;
  log(`  fixture in ${fixtureSeconds} s`);

  // The measured minute starts 5 s from now; person i < due is due at start + i/due of a minute.
  const start = new Date(Math.ceil((Date.now() + 5000) / 1000) * 1000);
  const end = new Date(start.getTime() + 60_000);
  await stack.pool.query(
    `UPDATE campaign.automation_enrolments SET due_at = $3::timestamptz + (substr(external_id, 8)::int * 60.0 / $4) * interval '1 second'
      WHERE automation_id = $1 AND external_id < ${person('$2::int')}`,
    [series.id, o.due, start.toISOString(), o.due],
  );
  const pushed = async () => {
    const s = await stack.sim.stats();
    return s.accepted + s.rejected.total;
  };
  const pushedBefore = await pushed();
  await sleep(Math.max(0, start.getTime() - Date.now()));
  const loadStart = load1();
  const meter = meterCpu({
    campaign: () => [stack.pids.campaign],
    delivery: () => [stack.pids.delivery],
    postgres: () => descendantsNamed(process.pid, 'postgres'),
    kafka: () => [stack.pids.kafka],
  });
  log(`  the minute ${start.toISOString()} – ${end.toISOString()}: ${o.due.toLocaleString('en')} first steps due`);
  let lastPushAt = 0;
  let pushedByMinuteEnd = 0;
  let count = 0;
  for (const until = end.getTime() + 60_000; Date.now() < until; ) {
    const now = Date.now();
    const c = (await pushed()) - pushedBefore;
    if (c > count) lastPushAt = now;
    count = c;
    if (now <= end.getTime()) pushedByMinuteEnd = c;
    if (now > end.getTime() && c >= o.due) break;
    await sleep(250);
  }
  const cpuSeconds = Object.fromEntries(Object.entries(meter.read()).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  const loadEnd = load1();
  const { rows } = await stack.pool.query<{ ms: number; at: Date; notification_id: string }>(
    `SELECT extract(epoch FROM s.sent_at - (e.due_at - interval '86400 seconds')) * 1000 AS ms, s.sent_at AS at, s.notification_id
       FROM campaign.automation_sends s JOIN campaign.automation_enrolments e ON e.automation_id = s.automation_id AND e.external_id = s.external_id
      WHERE s.automation_id = $1 AND s.step = 0 ORDER BY 1`,
    [series.id],
  );
  const lateness = rows.map((r) => Number(r.ms));
  const rendered = await stack.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM delivery.notification_targets WHERE notification_id = ANY($1::uuid[]) AND content->>'title' LIKE 'Hi Name%'`,
    [[...new Set(rows.map((r) => r.notification_id))]],
  );
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const minute = {
    people: o.people,
    due: o.due,
    fixtureSeconds,
    sent: rows.length,
    sentByMinuteEnd: rows.filter((r) => r.at.getTime() <= end.getTime()).length,
    notifications: new Set(rows.map((r) => r.notification_id)).size,
    latenessMs: { p50: r1(percentile(lateness, 50)), p99: r1(percentile(lateness, 99)), max: r1(lateness.at(-1) ?? NaN) },
    pushedByMinuteEnd,
    pushed: count,
    lastPushSeconds: r1((lastPushAt - start.getTime()) / 1000),
    renderedWithName: rendered.rows[0].n,
    cpuSeconds,
    loadAverage: { start: loadStart, end: loadEnd },
  };
  log(
    `  ${minute.sent.toLocaleString('en')}/${o.due.toLocaleString('en')} steps made notifications (${minute.sentByMinuteEnd.toLocaleString('en')} by the minute's end) in ${minute.notifications} notifications; ` +
      `lateness p50 ${minute.latenessMs.p50} ms, p99 ${minute.latenessMs.p99} ms, max ${minute.latenessMs.max} ms; pushed ${minute.pushedByMinuteEnd.toLocaleString('en')} by the minute's end, ` +
      `${minute.pushed.toLocaleString('en')} in all, the last ${minute.lastPushSeconds} s after the minute began; ${minute.renderedWithName.toLocaleString('en')} rendered with a name; ` +
      `CPU s ${Object.entries(cpuSeconds).map(([k, v]) => `${k} ${v}`).join(', ')}; load ${loadStart} → ${loadEnd}`,
  );

  // Events: each a new person abandoning a cart, which starts an event automation for them (its step an hour later).
  await ok('POST', '/v2/automations', { name: 'Cart', trigger: { type: 'event', name: 'cart_abandoned' }, steps: [{ delaySeconds: 3600, templateId: template.id, variables: { day: 1 } }], exitOn: { events: ['checkout_completed'] } });
  log(`  POST /v2/events for ${o.eventSeconds} s, ${o.eventConnections} connections…`);
  const eventsLoadStart = load1();
  const pgBefore = await postgresCounters(stack);
  let n = 0;
  const run = randomUUID().slice(0, 8);
  const events = await load({
    name: 'POST /v2/events',
    url: base,
    connections: o.eventConnections,
    seconds: o.eventSeconds,
    method: 'POST',
    path: '/v2/events',
    headers: { Authorization: site.apiKey },
    body: () => JSON.stringify({ externalId: `shopper-${run}-${n++}`, name: 'cart_abandoned', properties: { product: 'red shoes', price: 49.9 } }),
    headersFor: () => ({ 'Idempotency-Key': `evt-${run}-${n}` }),
    // The delivery service's share is the gateway's audit entry of each call (an append over gRPC).
    meter: () => meterCpu({ gateway: () => [stack.pids.gateway], campaign: () => [stack.pids.campaign], delivery: () => [stack.pids.delivery], postgres: () => descendantsNamed(process.pid, 'postgres'), autocannon: () => [process.pid] }),
  });
  const eventsLoadEnd = load1();
  const pgAfter = await postgresCounters(stack);
  const accepted = Number((await stack.pool.query(`SELECT count(*) AS n FROM campaign.automation_enrolments WHERE external_id LIKE $1`, [`shopper-${run}-%`])).rows[0].n);
  const result: AutomationsResult = {
    ...minute,
    events: { ...events, accepted, acceptedPerSecond: Math.round(accepted / o.eventSeconds), loadAverage: { start: eventsLoadStart, end: eventsLoadEnd }, postgres: statementsPerEvent(pgBefore, pgAfter, events.requests) },
    measuredAt: new Date().toISOString(),
  };
  const cpu = Object.entries(events.cpuMsPerRequest ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');
  const pg = result.events.postgres!;
  log(`  events, Postgres statements ${pg.statementMicrosPerEvent} µs an event, the most: ${pg.statements.map((q) => `${q.micros} µs (${q.callsPer1000}/1,000) ${q.query}`).join('; ')}`);
  log(`  events: ${accepted.toLocaleString('en')} accepted in ${o.eventSeconds} s = ${result.events.acceptedPerSecond}/s (p50 ${events.p50} ms, p99 ${events.p99} ms, ${events.non2xx} non-2xx, ${events.errors} errors); CPU ms per event: ${cpu}; load ${eventsLoadStart} → ${eventsLoadEnd}`);
  return result;
}

/** The statements' time per call of the events' load (every call: the audit entries' inserts are the calls', not the runs'). */
function statementsPerEvent(a: Awaited<ReturnType<typeof postgresCounters>>, b: Awaited<ReturnType<typeof postgresCounters>>, calls: number): NonNullable<AutomationsResult['events']['postgres']> {
  const w = postgresWork(a, b, calls);
  return { statementMicrosPerEvent: w.statementMicrosPerPush, statements: w.statements.slice(0, 6).map((q) => ({ query: q.query, callsPer1000: q.callsPer1000, micros: q.microsPerPush })) };
}
