// A/B tests through the real stack (issue 13, part 5; docs/api-decisions.md "A/B tests"): 2,000
// simulator browsers (imported with the operator CLI, which is cheap; the simulator holds their
// keys, so it decrypts every push and the test reads the title each browser was shown). A
// campaign with three variants and a 30 % test share: the test share gets the variants' titles,
// split evenly within statistical bounds, each browser exactly the variant the shared assignment
// (variantOfBucket(abBucket(campaign, subscriber))) gives; the rest gets nothing before a winner.
// Impressions and clicks reported through the public tracking endpoint make one variant clearly
// best; the test ends its window early (time control: the window is a week) and the winner chosen
// by its metric goes to the rest, once each. A second campaign's winner is picked by the customer
// (POST /v2/campaign/{id}/winner) before its window ends, with the call's refusals.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { abBucket, variantOfBucket, type AbTest } from '@webpush/contracts/ab-test.js';
import { startPushSimulator, type PushSimulator, type ReceivedMessage } from '../../tools/push-simulator/src/index.js';
import { ALL, DATE_RE, inSeconds, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, sleep, startStack, type Stack } from './support/harness.js';

const BROWSERS = 2000;
/** The first of them also take the topic of the second campaign. */
const PICK_BROWSERS = 200;
const TITLES = ['Variant A: half price', 'Variant B: two for one', 'Variant C: free shipping'];
const TEST_PERCENT = 30;
const WINDOW_MINUTES = 10080; // a week: the window is ended by the test (time control)

const abTest = (): Pick<AbTest, 'variants' | 'testPercent' | 'winnerMetric' | 'windowMinutes'> => ({
  variants: TITLES.map((title) => ({ title })),
  testPercent: TEST_PERCENT,
  winnerMetric: 'ctr',
  windowMinutes: WINDOW_MINUTES,
});

/** A percentage as the API rounds it: two decimals, half up; 0 on a base of 0. */
const percent = (part: number, base: number) => (base > 0 ? Math.round((part * 10000) / base) / 100 : 0);

describe('e2e: A/B tests', function () {
  this.timeout(600_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let other: SiteInfo;
  let db: pg.Pool;
  let dir: string;
  /** Simulator id → the delivery service's subscriber id (what the assignment hashes). */
  const subscriberOf = new Map<string, string>();
  const everyone: string[] = [];
  const pickAudience: string[] = [];

  before(async () => {
    sim = await startPushSimulator({ seed: 41, keepReplaced: true });
    stack = await startStack('e2e_ab_test', {
      PUSH_EXTRA_CA_FILE: sim.caCertFile,
      SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0',
      TRACKING_RATE_LIMIT_PER_MINUTE: '0',
      STATS_PUBLISH_INTERVAL_MS: '200',
    });
    db = new pg.Pool({ connectionString: stack.databaseUrl, max: 3 });
    site = await siteWithPermissions(stack, ALL, 'ab-tested');
    other = await siteWithPermissions(stack, ALL, 'someone-else');
    dir = await mkdtemp(path.join(os.tmpdir(), 'webpush-ab-'));
    const subs = Array.from({ length: BROWSERS }, () => sim.createSubscription(site.vapidPublicKey));
    const file = path.join(dir, 'subscriptions.ndjson');
    await writeFile(file, subs.map((s, i) => JSON.stringify({ endpoint: s.endpoint, keys: s.keys, topics: i < PICK_BROWSERS ? ['ab', 'pick'] : ['ab'] })).join('\n') + '\n');
    expect(await stack.cli('subscribers', 'import', site.publicId, file)).to.include({ read: BROWSERS, imported: BROWSERS, refused: 0 });
    const simByEndpoint = new Map(subs.map((s) => [s.endpoint, s.id]));
    const { rows } = await db.query('SELECT id::text AS id, endpoint FROM delivery.subscribers WHERE site_id = $1', [site.id]);
    for (const r of rows) subscriberOf.set(simByEndpoint.get(r.endpoint)!, r.id);
    expect(subscriberOf.size).to.equal(BROWSERS);
    everyone.push(...subs.map((s) => s.id));
    pickAudience.push(...subs.slice(0, PICK_BROWSERS).map((s) => s.id));
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const create = async (extra: Record<string, unknown>, key = site.apiKey) => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key, body: validCampaign({ status: 'published', title: 'The base title', ...extra }) });
    expect(res.status, res.text).to.equal(200);
    return res.body.id as string;
  };
  const get = async (id: string) => (await stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey })).body;
  const pick = (id: string, body: unknown, key = site.apiKey) => stack.api.request('POST', `/v2/campaign/${id}/winner`, { key, body });
  const pushesOf = (id: string): ReceivedMessage[] => sim.received().filter((m) => JSON.parse(m.payload).id === id);
  const titleOf = (m: ReceivedMessage) => JSON.parse(m.payload).title as string;

  /** Each browser's variant by the shared assignment (null: the rest). */
  const assignment = (campaignId: string, browsers: string[]) => {
    const ab = abTest();
    return new Map(browsers.map((b) => [b, variantOfBucket(abBucket(campaignId, subscriberOf.get(b)!), ab)]));
  };

  /** Pushes per browser of a campaign. */
  const countsOf = (id: string) => {
    const counts = new Map<string, number>();
    for (const m of pushesOf(id)) counts.set(m.subscriptionId, (counts.get(m.subscriptionId) ?? 0) + 1);
    return counts;
  };

  /** Waits for the test share's pushes; checks exactly the test share got one each, with its variant's title. */
  async function testShareArrives(id: string, expected: Map<string, number | null>) {
    const test = [...expected].filter(([, v]) => v !== null).map(([b]) => b);
    await eventually(async () => (pushesOf(id).length >= test.length ? true : undefined), 180_000, 250);
    // A rest push would come with them if it came at all: give it time.
    await sleep(3000);
    const counts = countsOf(id);
    expect([...counts.keys()].sort(), 'the test share, exactly').to.deep.equal([...test].sort());
    expect([...counts.values()].filter((n) => n !== 1), 'pushed more than once').to.deep.equal([]);
    const wrong = pushesOf(id).filter((m) => titleOf(m) !== TITLES[expected.get(m.subscriptionId)!]);
    expect(wrong.map((m) => `${m.subscriptionId}: ${titleOf(m)}`), 'a browser shown another variant than its assignment').to.deep.equal([]);
    return test;
  }

  /** Reports `type` for the given pushes through the public tracking endpoint (as a service worker does), a few at a time. */
  async function report(type: 'impression' | 'click', pushes: ReceivedMessage[]) {
    for (let i = 0; i < pushes.length; i += 10) {
      const answers = await Promise.all(
        pushes.slice(i, i + 10).map((m) => stack.api.request('POST', '/public/v1/events', { body: { type, token: JSON.parse(m.payload).token } })),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 202));
    }
  }

  let metricCampaign: string;

  it(`when a campaign tests 3 variants on ${TEST_PERCENT} % of ${BROWSERS} browsers, then the test share gets the variants as assigned, split evenly, and the rest nothing yet`, async () => {
    const id = await create({ topics: ['ab'], abTest: abTest() });
    metricCampaign = id;
    const expected = assignment(id, everyone);
    const test = await testShareArrives(id, expected);

    // The split, within ±4σ: the test share of the audience, and each variant of the test share.
    const n = BROWSERS;
    const p = TEST_PERCENT / 100;
    expect(test.length, 'test share').to.be.within(n * p - 4 * Math.sqrt(n * p * (1 - p)), n * p + 4 * Math.sqrt(n * p * (1 - p)));
    const byVariant = TITLES.map((title) => pushesOf(id).filter((m) => titleOf(m) === title).length);
    const q = 1 / TITLES.length;
    for (const [v, count] of byVariant.entries()) {
      expect(count, `variant ${v} of ${test.length}`).to.be.within(test.length * q - 4 * Math.sqrt(test.length * q * (1 - q)), test.length * q + 4 * Math.sqrt(test.length * q * (1 - q)));
    }
    console.log(`      test share ${test.length} of ${BROWSERS} (${((100 * test.length) / BROWSERS).toFixed(1)} %): ${byVariant.join(' / ')} by variant`);

    // The campaign shows its test, the variants' results (pushes sent so far) and no winner.
    const c = await eventually(async () => {
      const got = await get(id);
      return got.abTest?.results?.every((r: { sent: number }, v: number) => r.sent === byVariant[v]) ? got : undefined;
    }, 30_000, 250);
    const { windowEndsAt, ...shown } = c.abTest;
    expect(shown).to.deep.equal({
      ...abTest(),
      results: byVariant.map((sent, variant) => ({ variant, sent, impressions: 0, clicks: 0, ctr: 0, its: 0 })),
      winner: null,
    });
    // The window (a week) has started: it ends a week after the test's first send.
    expect(windowEndsAt).to.match(DATE_RE);
    expect(Date.parse(windowEndsAt) - WINDOW_MINUTES * 60_000).to.be.at.most(Date.now());
    expect(c.totalUsers).to.equal(BROWSERS);
    expect(c.delivery.sent).to.equal(test.length);
  });

  it('when one variant is clearly best by CTR and the window ends, then it is chosen by the metric and the rest get exactly its title, once each; the campaign shows the results and the winner', async () => {
    const id = metricCampaign;
    expect(id, 'created by the previous test').to.be.a('string');
    const expected = assignment(id, everyone);
    const BEST = 2;
    const SHOWN = 40;
    const CLICKS = [4, 4, 30];
    // Each variant shown to 40 of its browsers; variant C clicked by 30 of them, the others by 4.
    const shown: ReceivedMessage[][] = TITLES.map((title) => pushesOf(id).filter((m) => titleOf(m) === title).slice(0, SHOWN));
    for (const v of TITLES.keys()) {
      await report('impression', shown[v]);
      await report('click', shown[v].slice(0, CLICKS[v]));
    }
    const sent = TITLES.map((title) => pushesOf(id).filter((m) => titleOf(m) === title).length);
    const results = sent.map((s, variant) => ({
      variant,
      sent: s,
      impressions: SHOWN,
      clicks: CLICKS[variant],
      ctr: percent(CLICKS[variant], SHOWN),
      its: percent(SHOWN, s),
    }));
    const measured = await eventually(async () => {
      const got = await get(id);
      return JSON.stringify(got.abTest.results) === JSON.stringify(results) ? got : undefined;
    }, 30_000, 250).catch(async (err) => {
      throw new Error(`${(err as Error).message}: results ${JSON.stringify((await get(id)).abTest.results)}, expected ${JSON.stringify(results)}`);
    });
    expect(measured.abTest.winner).to.equal(null);
    const clicks = CLICKS.reduce((a, b) => a + b, 0);
    const impressions = SHOWN * TITLES.length;
    expect(measured.analytics).to.deep.equal({ clicks, impressions, ctr: percent(clicks, impressions), its: percent(impressions, BROWSERS), totalUsers: BROWSERS });
    // Still nobody of the rest.
    const test = [...expected].filter(([, v]) => v !== null).map(([b]) => b);
    expect(countsOf(id).size).to.equal(test.length);

    // Time control: the window is a week; it is ended now, as if the week had passed. The
    // choice, the rest's expansion and the pushes are the real path.
    await db.query('UPDATE delivery.campaign_runs SET ab_window_ends_at = now() WHERE campaign_id = $1', [id]);
    await eventually(async () => (pushesOf(id).length >= BROWSERS ? true : undefined), 180_000, 250);
    await sleep(3000);
    const counts = countsOf(id);
    expect(counts.size, 'browsers pushed').to.equal(BROWSERS);
    expect([...counts.values()].filter((n) => n !== 1), 'pushed more than once').to.deep.equal([]);
    const rest = new Set([...expected].filter(([, v]) => v === null).map(([b]) => b));
    const restTitles = new Set(pushesOf(id).filter((m) => rest.has(m.subscriptionId)).map(titleOf));
    expect([...restTitles]).to.deep.equal([TITLES[BEST]]);
    const testTitles = pushesOf(id).filter((m) => !rest.has(m.subscriptionId));
    expect(testTitles.every((m) => titleOf(m) === TITLES[expected.get(m.subscriptionId)!])).to.equal(true);

    const c = await eventually(async () => {
      const got = await get(id);
      return got.abTest.winner && got.delivery.sent === BROWSERS && got.delivery.pending === 0 ? got : undefined;
    }, 30_000, 250);
    expect(c.abTest.winner).to.include({ variant: BEST, by: 'metric' });
    expect(c.abTest.winner.decidedAt).to.match(DATE_RE);
    // The results are the test share's: the rest's pushes are not a variant's.
    expect(c.abTest.results).to.deep.equal(results);
    expect(c.analytics).to.deep.equal({ clicks, impressions, ctr: percent(clicks, impressions), its: percent(impressions, BROWSERS), totalUsers: BROWSERS });
    // Chosen already: the customer can no longer pick.
    const again = await pick(id, { variant: 0 });
    expect([again.status, again.body]).to.deep.equal([409, { message: 'The winner has already been chosen' }]);
    console.log(`      winner by CTR: variant ${c.abTest.winner.variant}; rest ${rest.size} got "${TITLES[BEST]}"`);
  });

  it('when the customer picks the winner before the window ends, then the rest get it at once; picking again, a campaign without a test or not started is 409, another site\'s 404', async () => {
    // Not started: a scheduled A/B campaign has sent nothing yet.
    const later = await create({ topics: ['pick'], scheduleMode: 'scheduled', scheduleDate: inSeconds(3600), abTest: abTest() });
    const notStarted = await pick(later, { variant: 1 });
    expect([notStarted.status, notStarted.body]).to.deep.equal([409, { message: 'The A/B test has not started' }]);

    const id = await create({ topics: ['pick'], abTest: abTest() });
    const expected = assignment(id, pickAudience);
    const test = await testShareArrives(id, expected);
    expect(test.length).to.be.within(1, PICK_BROWSERS - 1);

    const wrongVariant = await pick(id, { variant: 3 });
    expect([wrongVariant.status, wrongVariant.body]).to.deep.equal([400, { message: 'variant must be an integer from 0 to 2' }]);
    const foreign = await pick(id, { variant: 1 }, other.apiKey);
    expect([foreign.status, foreign.body]).to.deep.equal([404, { message: 'Campaign not found' }]);

    const PICKED = 1;
    const picked = await pick(id, { variant: PICKED });
    expect(picked.status, picked.text).to.equal(200);
    expect(Object.keys(picked.body)).to.deep.equal(['id', 'winner']);
    expect(picked.body.id).to.equal(id);
    expect(picked.body.winner).to.include({ variant: PICKED, by: 'customer' });
    expect(picked.body.winner.decidedAt).to.match(DATE_RE);
    // The campaign shows it at once.
    expect((await get(id)).abTest.winner).to.deep.equal(picked.body.winner);

    await eventually(async () => (pushesOf(id).length >= PICK_BROWSERS ? true : undefined), 120_000, 250);
    await sleep(2000);
    const counts = countsOf(id);
    expect([...counts.keys()].sort()).to.deep.equal([...pickAudience].sort());
    expect([...counts.values()].filter((n) => n !== 1), 'pushed more than once').to.deep.equal([]);
    const rest = new Set([...expected].filter(([, v]) => v === null).map(([b]) => b));
    expect([...new Set(pushesOf(id).filter((m) => rest.has(m.subscriptionId)).map(titleOf))]).to.deep.equal([TITLES[PICKED]]);

    const again = await pick(id, { variant: 2 });
    expect([again.status, again.body]).to.deep.equal([409, { message: 'The winner has already been chosen' }]);
    const c = await eventually(async () => {
      const got = await get(id);
      return got.delivery.sent === PICK_BROWSERS ? got : undefined;
    }, 30_000, 250);
    expect(c.abTest.winner).to.deep.equal(picked.body.winner);

    const plain = await create({ topics: ['pick'], status: 'draft' });
    const noTest = await pick(plain, { variant: 0 });
    expect([noTest.status, noTest.body]).to.deep.equal([409, { message: 'The campaign has no A/B test' }]);
    // A campaign without a test shows no abTest field.
    expect(await get(plain)).to.not.have.property('abTest');
  });
});
