// Automations under faults (issue 37 §4, docs/reliability.md "Automations"): each (automation
// step, person) is pushed exactly once while steps are due and the delivery service is killed
// -9, the Kafka broker is killed -9, Postgres is stopped, or the campaign service is killed -9
// with a batch of the step runner open. One stack on a Postgres server and a Kafka broker of the
// file's own (they are stopped), FAULTS_PEOPLE identified people (one browser each, subscribed
// and identified through the public endpoints). Each scenario makes a 3-step series started by
// an event and an event automation with a delay that a second event cancels for half of the
// people, then injects its fault while the series' later steps and the delay are due, and holds
// the platform to: every (person, step) accepted by the push service (lost = 0), repeats within
// the pushes the delivery counted ambiguous, nothing of the cancelled automation for the people
// who cancelled it, and each step's `results.sent` equal to its people.
import { createHmac } from 'node:crypto';
import { sleep } from '../e2e/support/harness.js';
import { startOwnServers, type OwnServers } from './support/own-servers.js';
import { appendReport, DOWN_SEC, envInt, LATENCY_MS, startRig, waitUntilQuiet, type Rig } from './support/faults.js';

/** People per scenario (each enrolled in both automations of the scenario). */
const PEOPLE = envInt('FAULTS_PEOPLE', 100);
/**
 * The series' delays: the first step at once, the second after every event of the scenario was
 * posted (100 people's 250 events take 5–8 s here), the third soon after: both due while the
 * fault lasts.
 */
const SERIES_DELAYS = [0, 10, 5];
/** The event automation's one step waits this long; half of the people cancel it before. */
const CART_DELAY_SEC = 10;
/**
 * Bounded wait: from the first event until every due step was accepted and counted. A broker
 * killed -9 takes 20–30 s to answer again here, and the clients 10–35 s more to rejoin.
 */
const COMPLETE_WITHIN_MS = envInt('FAULTS_AUTOMATIONS_COMPLETE_SEC', 150) * 1000;
/** Due steps per runner transaction: small, so a step's people take several batches (one is open when the campaign service is killed). */
const RUNNER_BATCH = 10;

interface Person {
  externalId: string;
  simId: string;
  cancels: boolean;
}

interface AutomationFigures {
  scenario: string;
  fault: string;
  people: number;
  expected: number;
  lost: number;
  duplicated: number;
  ambiguous: number;
  /** Pushes of the cancelled automation to people who cancelled it. */
  afterCancel: number;
  results: { series: { sent: number; exits: number }[]; cart: { sent: number; exits: number }[] } | null;
  notifications: number;
  notificationsNotCompleted: number;
  rowsNotFinal: number;
  doneAfterSec: number | null;
  problems: string[];
}

describe('faults: automations (each step to each person once, under kill -9 and outages)', function () {
  this.timeout(600_000);
  let servers: OwnServers | undefined;
  let rig: Rig;
  const people: Person[] = [];
  let scenarioSeq = 0;

  before(async () => {
    servers = await startOwnServers('wp_faults_automations');
    rig = await startRig('faults_auto', {
      subscribers: 0,
      env: { KAFKA_BROKERS: servers.kafkaBrokers, AUTOMATIONS_BATCH_SIZE: String(RUNNER_BATCH), AUTOMATIONS_INTERVAL_MS: '500' },
      stack: { database: servers.database },
    });
    const { secret } = await rig.stack.cli('sites', 'identity-secret', rig.site.id);
    await inParallel(PEOPLE, async (i) => {
      const sub = rig.sim.createSubscription(rig.site.vapidPublicKey);
      const site = rig.site.publicId;
      const created = await rig.stack.api.request('POST', `/public/v1/sites/${site}/subscriptions`, { body: { subscription: { endpoint: sub.endpoint, keys: sub.keys }, topics: ['all'] } });
      if (created.status !== 201) throw new Error(`subscribe: ${created.status} ${created.text}`);
      const externalId = `person-${i}`;
      const signature = createHmac('sha256', secret).update(externalId).digest('hex');
      const identified = await rig.stack.api.request('POST', `/public/v1/sites/${site}/identity`, { body: { endpoint: sub.endpoint, externalId, signature } });
      if (identified.body?.identified !== true) throw new Error(`identify: ${identified.status} ${identified.text}`);
      people[i] = { externalId, simId: sub.id, cancels: i % 2 === 0 };
    });
  });

  // A scenario that failed leaves nothing running into the next one.
  const running: string[] = [];
  afterEach(async () => {
    for (const id of running.splice(0)) await rig.stack.api.request('PATCH', `/v2/automations/${id}`, { key: rig.site.apiKey, body: { status: 'paused' } }).catch(() => {});
  });

  after(async () => {
    await rig?.stop().catch((err) => console.log(`      stopping the stack: ${(err as Error).message}`));
    await servers?.close();
  });

  /** A call of the API with the site's key that must answer 2xx (setup, before any fault). */
  async function api(method: string, path: string, body?: unknown) {
    const res = await rig.stack.api.request(method, path, { key: rig.site.apiKey, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  /** The same call during or after a fault: undefined while the stack does not answer. */
  async function tryGet(path: string) {
    try {
      const res = await rig.stack.api.request('GET', path, { key: rig.site.apiKey });
      return res.status === 200 ? res.body : undefined;
    } catch {
      return undefined;
    }
  }

  async function query<T>(sql: string, params: unknown[] = []): Promise<T[] | undefined> {
    try {
      return (await rig.db.query(sql, params)).rows as T[];
    } catch {
      return undefined; // Postgres down or restarting: polled again
    }
  }

  /**
   * Creates the scenario's two automations, starts them for every person (half cancel the event
   * automation at once), injects the fault, waits (bounded) until everything due was sent and
   * every notification's run completed, then measures by what the push service accepted.
   */
  async function runAutomationScenario(scenario: string, fault: (ctx: {
      tag: string;
      /** Waits until this fraction of the people got the series' second step (the push service accepted it). */
      waitForSecondStep(fraction: number): Promise<number>;
      /** Waits until the series' second step was made (its notification committed) for this fraction of the people. */
      waitForSecondStepMade(fraction: number): Promise<number>;
    }) => Promise<string>): Promise<AutomationFigures> {
    const tag = `f${++scenarioSeq}`;
    rig.sim.clearBehaviours();
    rig.sim.reset();
    rig.sim.setBehaviour({ latencyMs: LATENCY_MS });

    // Each step's template has a title of its own: the push says which (automation, step) it is.
    const template = async (title: string) => (await api('POST', '/v2/templates', { name: title, title, body: 'Faults: automations', link: 'https://shop.example/' })).id as string;
    const seriesTitles = SERIES_DELAYS.map((_, i) => `${tag} series ${i}`);
    const cartTitle = `${tag} cart 0`;
    const seriesSteps = [];
    for (const [i, delaySeconds] of SERIES_DELAYS.entries()) seriesSteps.push({ delaySeconds, templateId: await template(seriesTitles[i]) });
    const series = await api('POST', '/v2/automations', { name: `${tag} series`, trigger: { type: 'event', name: `${tag}_signup` }, steps: seriesSteps });
    const cart = await api('POST', '/v2/automations', {
      name: `${tag} cart`,
      trigger: { type: 'event', name: `${tag}_cart` },
      steps: [{ delaySeconds: CART_DELAY_SEC, templateId: await template(cartTitle) }],
      exitOn: { events: [`${tag}_checkout`] },
    });
    running.push(series.id, cart.id);

    // All signups first, then each person's cart (and the half's checkout right after it): the
    // series' second step falls due after the last event, while the fault is made.
    const started = Date.now();
    await inParallel(PEOPLE, (i) => api('POST', '/v2/events', { externalId: people[i].externalId, name: `${tag}_signup` }));
    let slowestCancelMs = 0;
    await inParallel(PEOPLE, async (i) => {
      const p = people[i];
      const from = Date.now();
      await api('POST', '/v2/events', { externalId: p.externalId, name: `${tag}_cart`, properties: { cart: i } });
      if (!p.cancels) return;
      await api('POST', '/v2/events', { externalId: p.externalId, name: `${tag}_checkout` });
      slowestCancelMs = Math.max(slowestCancelMs, Date.now() - from);
    });
    const enrolledSec = (Date.now() - started) / 1000;
    // A cancel that came after its step was due would fail the check below for the wrong reason.
    if (slowestCancelMs >= CART_DELAY_SEC * 1000) throw new Error(`${scenario}: a checkout was answered ${slowestCancelMs} ms after its cart, not within the cart's delay of ${CART_DELAY_SEC} s`);

    const person = new Map(people.map((p) => [p.simId, p]));
    const titles = new Set([...seriesTitles, cartTitle]);
    /** Accepted copies per (title, person), and the notifications they came from. */
    const tally = () => {
      const copies = new Map<string, number>();
      const notifications = new Set<string>();
      let foreign = 0;
      for (const m of rig.sim.received()) {
        const payload = JSON.parse(m.payload) as { id: string; title: string };
        const p = person.get(m.subscriptionId);
        // An earlier scenario's push (one that failed and left its series running) is not this one's.
        if (!payload.title.startsWith(`${tag} `)) continue;
        if (!p || !titles.has(payload.title)) {
          foreign++;
          continue;
        }
        notifications.add(payload.id);
        const key = `${payload.title}|${p.externalId}`;
        copies.set(key, (copies.get(key) ?? 0) + 1);
      }
      return { copies, notifications, foreign };
    };
    const progress = (title: string) => people.filter((p) => tally().copies.has(`${title}|${p.externalId}`)).length;
    const faultLine = await fault({
      tag,
      async waitForSecondStep(fraction) {
        const title = seriesTitles[1];
        const until = Date.now() + 60_000;
        for (;;) {
          const n = progress(title);
          if (n >= Math.ceil(fraction * PEOPLE)) return n;
          if (Date.now() > until) throw new Error(`${scenario}: only ${n}/${PEOPLE} got "${title}" within 60 s, before the fault`);
          await sleep(20);
        }
      },
      async waitForSecondStepMade(fraction) {
        const until = Date.now() + 60_000;
        for (;;) {
          const n = ((await tryGet(`/v2/automations/${series.id}`))?.steps[1].results.sent as number | undefined) ?? 0;
          if (n >= Math.ceil(fraction * PEOPLE)) return n;
          if (Date.now() > until) throw new Error(`${scenario}: the second step was made for only ${n}/${PEOPLE} within 60 s, before the fault`);
          await sleep(20);
        }
      },
    });

    const expectedKeys: string[] = [];
    for (const p of people) {
      for (const t of seriesTitles) expectedKeys.push(`${t}|${p.externalId}`);
      if (!p.cancels) expectedKeys.push(`${cartTitle}|${p.externalId}`);
    }
    const cancelled = people.filter((p) => p.cancels).length;
    const resultsOf = async () => {
      const [s, c] = await Promise.all([tryGet(`/v2/automations/${series.id}`), tryGet(`/v2/automations/${cart.id}`)]);
      if (!s || !c) return null;
      const steps = (a: { steps: { results: { sent: number; exits: number } }[] }) => a.steps.map((x) => x.results);
      return { series: steps(s), cart: steps(c), seriesEnrolments: s.enrolments, cartEnrolments: c.enrolments };
    };
    const runsOf = async (ids: string[]) =>
      (
        await query<{ runs: number; completed: number; ambiguous: number; rows_not_final: number }>(
          `SELECT (SELECT count(*)::int FROM delivery.campaign_runs WHERE campaign_id = ANY($1::uuid[])) AS runs,
                  (SELECT count(*)::int FROM delivery.campaign_runs WHERE campaign_id = ANY($1::uuid[]) AND state = 'completed') AS completed,
                  (SELECT coalesce(sum(ambiguous), 0)::int FROM delivery.campaign_runs WHERE campaign_id = ANY($1::uuid[])) AS ambiguous,
                  (SELECT count(*)::int FROM delivery.delivery_log WHERE campaign_id = ANY($1::uuid[]) AND state NOT IN ('sent', 'failed', 'expired')) AS rows_not_final`,
          [ids],
        )
      )?.[0];

    // Bounded wait: every due step accepted, each step's results counted, every run completed.
    const wantResults = (r: Awaited<ReturnType<typeof resultsOf>>) =>
      r !== null && r.series.every((x) => x.sent === PEOPLE) && r.cart[0].sent === PEOPLE - cancelled && r.cart[0].exits === cancelled && r.seriesEnrolments.completed === PEOPLE;
    let doneAfterSec: number | null = null;
    let acceptedAfterSec: number | null = null;
    let results: Awaited<ReturnType<typeof resultsOf>> = null;
    let runs: Awaited<ReturnType<typeof runsOf>> = undefined;
    while (Date.now() - started < COMPLETE_WITHIN_MS) {
      const t = tally();
      if (expectedKeys.every((k) => t.copies.has(k))) {
        acceptedAfterSec ??= (Date.now() - started) / 1000;
        results = (await resultsOf()) ?? results;
        runs = (await runsOf([...t.notifications])) ?? runs;
        if (wantResults(results) && runs && runs.runs === t.notifications.size && runs.completed === runs.runs && runs.rows_not_final === 0) {
          doneAfterSec = (Date.now() - started) / 1000;
          break;
        }
      }
      await sleep(250);
    }
    // Stragglers: a retried ambiguous push, or a step that should not be there, would come now.
    await sleep(2000);
    const t = tally();
    results = (await resultsOf()) ?? results;
    runs = await runsOf([...t.notifications]);

    const lost = expectedKeys.filter((k) => !t.copies.has(k)).length;
    const expected = new Set(expectedKeys);
    let duplicated = 0;
    let afterCancel = 0;
    for (const [k, n] of t.copies) {
      if (expected.has(k)) duplicated += n - 1;
      else afterCancel += n;
    }
    const ambiguous = runs?.ambiguous ?? 0;
    const f: AutomationFigures = {
      scenario,
      fault: faultLine,
      people: PEOPLE,
      expected: expectedKeys.length,
      lost,
      duplicated,
      ambiguous,
      afterCancel,
      results: results && { series: results.series, cart: results.cart },
      notifications: t.notifications.size,
      notificationsNotCompleted: runs ? runs.runs - runs.completed + (t.notifications.size - runs.runs) : -1,
      rowsNotFinal: runs?.rows_not_final ?? -1,
      doneAfterSec,
      problems: [],
    };
    const problems = f.problems;
    if (doneAfterSec === null) problems.push(`not everything due was sent, counted and completed within ${COMPLETE_WITHIN_MS / 1000} s`);
    if (lost > 0) problems.push(`lost ${lost} of ${expectedKeys.length} (person, step) pushes`);
    if (duplicated > ambiguous) problems.push(`duplicated ${duplicated} > ambiguous ${ambiguous}: repeats the platform did not count`);
    if (afterCancel > 0) problems.push(`${afterCancel} pushes of the cancelled automation to people who cancelled it`);
    if (t.foreign > 0) problems.push(`${t.foreign} pushes that are no step of this scenario's automations`);
    if (!results) problems.push('GET /v2/automations/{id} did not answer');
    else {
      if (!results.series.every((x) => x.sent === PEOPLE && x.exits === 0)) problems.push(`the series' results ${JSON.stringify(results.series)}, want sent ${PEOPLE} and no exits per step`);
      if (results.cart[0].sent !== PEOPLE - cancelled || results.cart[0].exits !== cancelled) problems.push(`the cart's results ${JSON.stringify(results.cart)}, want sent ${PEOPLE - cancelled}, exits ${cancelled}`);
      if (JSON.stringify(results.seriesEnrolments) !== JSON.stringify({ active: 0, completed: PEOPLE, exited: 0, exitReasons: {} })) problems.push(`the series' enrolments ${JSON.stringify(results.seriesEnrolments)}`);
      if (JSON.stringify(results.cartEnrolments) !== JSON.stringify({ active: 0, completed: PEOPLE - cancelled, exited: cancelled, exitReasons: { event: cancelled } })) problems.push(`the cart's enrolments ${JSON.stringify(results.cartEnrolments)}`);
    }
    if (f.notificationsNotCompleted !== 0) problems.push(`${f.notificationsNotCompleted} of ${t.notifications.size} notifications' runs not completed`);
    if (f.rowsNotFinal !== 0) problems.push(`${f.rowsNotFinal} delivery-log rows without a final outcome`);

    console.log(
      `      ${scenario} (${faultLine}): ${PEOPLE} people × ${SERIES_DELAYS.length} series steps + ${PEOPLE - cancelled} cart steps = ${expectedKeys.length} pushes due; ` +
        `lost ${lost}, duplicated ${duplicated}, ambiguous ${ambiguous}; to the ${cancelled} who cancelled: ${afterCancel}; ` +
        `results sent ${results ? `${results.series.map((x) => x.sent).join('/')} + ${results.cart[0].sent} (exits ${results.cart[0].exits})` : 'none'}; ` +
        `${t.notifications.size} notifications; events in ${enrolledSec.toFixed(1)} s; ` +
        `${acceptedAfterSec === null ? 'not all accepted in time' : `all accepted after ${acceptedAfterSec.toFixed(1)} s`}, ${doneAfterSec === null ? 'not done in time' : `all counted and completed after ${doneAfterSec.toFixed(1)} s`}`,
    );
    await appendReport(f);
    if (problems.length > 0) {
      const tail = rig.stack.logs.slice(-12).map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l));
      throw new Error(`${scenario}:\n  - ${problems.join('\n  - ')}\n${tail.join('\n')}`);
    }
    return f;
  }

  it('when the delivery service is killed with SIGKILL while steps are due and restarted by its supervisor, then each step reaches each person once', async () => {
    await runAutomationScenario('kill -9 delivery', async (ctx) => {
      const at = await ctx.waitForSecondStep(0.3);
      rig.stack.services.signal('delivery', 'SIGKILL');
      return `killed at ${at}/${PEOPLE} of the second step`;
    });
  });

  it(`when the Kafka broker is killed with SIGKILL while steps are due and restarted ${DOWN_SEC} s later, then each step reaches each person once`, async () => {
    await runAutomationScenario('kill -9 Kafka broker', async (ctx) => {
      const at = await ctx.waitForSecondStep(0.3);
      servers!.killBroker();
      const from = Date.now();
      await sleep(DOWN_SEC * 1000);
      await servers!.startBroker();
      return `killed at ${at}/${PEOPLE} of the second step, answering again after ${((Date.now() - from) / 1000).toFixed(1)} s`;
    });
  });

  it(`when Postgres is stopped while steps are due and started ${DOWN_SEC} s later, then each step reaches each person once`, async () => {
    await runAutomationScenario('Postgres stopped and started', async (ctx) => {
      const at = await ctx.waitForSecondStep(0.3);
      const quiet = await waitUntilQuiet(rig, 2000);
      const from = Date.now();
      await servers!.stopPostgres();
      await sleep(DOWN_SEC * 1000);
      await servers!.startPostgres();
      return `stopped at ${at}/${PEOPLE} of the second step${quiet ? '' : ' (delivery busy in a transaction)'}, accepting connections again after ${((Date.now() - from) / 1000).toFixed(1)} s`;
    });
  });

  it('when the campaign service is killed with SIGKILL with a batch of the step runner open and restarted by its supervisor, then each step reaches each person once', async () => {
    await runAutomationScenario('kill -9 campaign mid-batch', async (ctx) => {
      // The runner is ahead of the push service: counted by its own results, not by pushes.
      const at = await ctx.waitForSecondStepMade(0.3);
      // A runner transaction between its claim and its commit, with a send key written: a
      // campaign backend holding the claim's ROW SHARE lock on the enrolments and a send's ROW
      // EXCLUSIVE lock on the send keys (both are held until the transaction ends).
      const until = Date.now() + 15_000;
      let open = false;
      while (!open && Date.now() < until) {
        const rows = await query(
          `SELECT 1 FROM pg_locks s JOIN pg_locks e ON e.pid = s.pid JOIN pg_stat_activity a ON a.pid = s.pid
            WHERE a.application_name = 'campaign'
              AND s.relation = 'campaign.automation_sends'::regclass AND s.mode = 'RowExclusiveLock'
              AND e.relation = 'campaign.automation_enrolments'::regclass AND e.mode = 'RowShareLock'`,
        );
        open = (rows?.length ?? 0) > 0;
        if (!open) await sleep(1);
      }
      if (!open) throw new Error('the fault did not land: no batch of the step runner was seen open within 15 s');
      rig.stack.services.signal('campaign', 'SIGKILL');
      const made = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM campaign.automation_sends s JOIN campaign.automations a ON a.id = s.automation_id WHERE a.name LIKE $1`, [`${ctx.tag} %`]))?.[0]?.n;
      return `killed with a runner batch open once ${at}/${PEOPLE} of the second step were made, ${made} of ${PEOPLE * SERIES_DELAYS.length + Math.floor(PEOPLE / 2)} steps committed`;
    });
  });
});

/** Runs `each(0..n-1)` with 16 at a time. */
async function inParallel(n: number, each: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(16, n) }, async () => {
      while (next < n) await each(next++);
    }),
  );
}
