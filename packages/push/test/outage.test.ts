// The sender through push-service outages, against the push-service simulator (real HTTP/2,
// VAPID checks, decryption): a 503 storm compressed to a few seconds, a storm longer than the
// retry budget, a 429, permanent answers, and a connection reset after the push was accepted.
// Timings are small settings (budget, probe waits); nothing asserts on elapsed time, only on
// outcomes and on how many requests reached the push service.
import { expect } from 'chai';
import webpush from 'web-push';
import { startPushSimulator, type PushSimulator, type SimulatedSubscription } from '../../../tools/push-simulator/src/index.js';
import { createEncryptPool, type EncryptPool } from '../src/encryption/pool.js';
import { createPushSender, type PushJob, type PushResult, type PushSender, type PushSenderOptions } from '../src/sender.js';
import { createVapidHeaderCache } from '../src/vapid.js';

const TOPIC = 'outagetest';

describe('push sender through push-service outages (simulator)', function () {
  this.timeout(60_000);
  const keys = webpush.generateVAPIDKeys();
  let sim: PushSimulator;
  let pool: EncryptPool;
  const senders: PushSender[] = [];

  before(async () => {
    sim = await startPushSimulator({ host: '127.0.0.1', port: 0, tls: true, mode: 'record', seed: 11 });
    pool = createEncryptPool({ size: 1 });
  });
  after(async () => {
    await pool?.close();
    await sim?.close();
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close()));
    sim.clearBehaviours();
    sim.reset();
  });

  function sender(opts: PushSenderOptions = {}) {
    const s = createPushSender({
      ca: sim.caCertPem,
      testHosts: ['127.0.0.1'],
      encryptor: pool,
      concurrencyPerOrigin: 10,
      baseBackoffMs: 50,
      maxBackoffMs: 400,
      outage: { probeBaseMs: 100, probeMaxMs: 800 },
      ...opts,
    });
    senders.push(s);
    return s;
  }

  function job(subs: SimulatedSubscription[], ttl = 3600): PushJob {
    return {
      payload: JSON.stringify({ v: 1, title: 'Outage', body: 'test' }),
      ttl,
      urgency: 'normal',
      topic: TOPIC,
      vapid: createVapidHeaderCache({ subject: 'mailto:ops@example.com', ...keys }),
      subscriptions: subs.map((s) => ({ id: s.id, endpoint: s.endpoint, ...s.keys })),
    };
  }

  const audience = (n: number) => Array.from({ length: n }, () => sim.createSubscription(keys.publicKey));
  const count = (results: PushResult[], outcome: PushResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const answered = (status: number) => sim.stats().byStatus[String(status)] ?? 0;
  const waitFor = async (what: () => boolean, ms: number) => {
    for (const until = Date.now() + ms; !what() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 5));
  };

  it('when the push service answers 503 to everything for 3 s mid-batch, then every push is sent in the end, none failed, and the storm saw a bounded number of requests', async () => {
    const N = 300;
    const subs = audience(N);
    sim.setBehaviour({ latencyMs: 5 });
    const s = sender({ retryBudgetMs: 30_000 });
    const sending = s.sendBatch(job(subs));
    await waitFor(() => sim.stats().accepted >= 60, 20_000);
    const acceptedBefore = sim.stats().accepted;
    sim.setBehaviour({ status: 503, latencyMs: 5 });
    await new Promise((r) => setTimeout(r, 3000));
    sim.clearBehaviours();
    sim.setBehaviour({ latencyMs: 5 });
    const during = answered(503);
    const results = await sending;

    const summary = { sent: count(results, 'sent'), failed: count(results, 'failed'), acceptedBefore, requestsDuringStorm: during, accepted: sim.stats().accepted };
    console.log(`      503 storm 3 s, ${N} pushes, concurrency 10: ${JSON.stringify(summary)}`);
    expect(summary.sent, JSON.stringify(summary)).to.equal(N);
    expect(summary.failed).to.equal(0);
    for (const sub of subs) expect(sim.received(sub.id), sub.id).to.have.length.at.least(1);
    // A push resent after the storm carries what was left of its TTL, not the whole TTL again.
    const ttls = subs.map((sub) => sim.received(sub.id).at(-1)!.headers.ttl);
    expect(Math.max(...ttls)).to.equal(3600);
    expect(Math.min(...ttls)).to.be.within(3600 - 60, 3600 - 1);
    // Not hammered: what was in flight when the storm began (the 10 concurrent and the ones that
    // tripped the pause), then one probe at a time — waits 100, 200, 400, 800, 800 ms … (3 s: ≤ 8).
    expect(during, 'requests answered 503').to.be.within(1, 2 * 10 + 10 + 8);
    expect(results.filter((r) => r.ambiguous)).to.have.length(0);
  });

  it('when the storm outlasts the retry budget, then each push fails with a reason naming the budget, and the origin was probed, not hammered', async () => {
    const subs = audience(40);
    sim.setBehaviour({ status: 503 });
    const s = sender({ retryBudgetMs: 1500 });
    const results = await s.sendBatch(job(subs));
    expect(count(results, 'failed')).to.equal(40);
    for (const r of results) {
      expect(r.status, r.reason).to.equal(503);
      expect(r.reason).to.match(/^gave up after \d+ attempts \(retry budget 1\.5 s(; origin down)?\): 503 push service unavailable$/);
    }
    // The first attempts (5 at once: the limit starts at half of 10 and falls with each 503,
    // and 5 failures make the origin down), then probes: waits of 100, 200, 400, 800 ms fit
    // about 5 in 1.5 s. Without a pause each push would be tried every 50–400 ms.
    expect(answered(503)).to.be.within(5 + 3, 40 + 10);
    expect(Math.max(...results.map((r) => r.attempts))).to.be.below(12);
  });

  it("when the campaign's TTL is shorter than the budget, then retries stop at the TTL", async () => {
    const subs = audience(3);
    sim.setBehaviour({ status: 503 });
    const results = await sender({ retryBudgetMs: 300_000 }).sendBatch(job(subs, 1));
    for (const r of results) expect(r.reason).to.match(/^gave up after \d+ attempts \(retry budget 1 s, the TTL(; origin down)?\): 503/);
  });

  it('when one push gets a 429 with Retry-After, then the origin waits it out and every push is sent', async () => {
    const subs = audience(20);
    sim.setBehaviour({ status: 429, retryAfter: '1', times: 1 });
    const results = await sender({ retryBudgetMs: 30_000 }).sendBatch(job(subs));
    expect(count(results, 'sent')).to.equal(20);
    expect(answered(429)).to.equal(1);
    expect(results.filter((r) => r.attempts === 2)).to.have.length(1);
  });

  it('when answers are permanent (400, 401, 403, 404, 410, 413), then each push ends at its first attempt and the others are unaffected', async () => {
    const subs = audience(30);
    const statuses = [400, 401, 403, 404, 410, 413];
    statuses.forEach((status, i) => sim.setBehaviour({ status, forSubscription: subs[i].id }));
    const results = await sender({ retryBudgetMs: 30_000 }).sendBatch(job(subs));
    expect(results.slice(0, 6).map((r) => [r.outcome, r.status, r.attempts])).to.deep.equal([
      ['failed', 400, 1],
      ['failed', 401, 1],
      ['failed', 403, 1],
      ['expired', 404, 1],
      ['expired', 410, 1],
      ['failed', 413, 1],
    ]);
    expect(results.slice(6).every((r) => r.outcome === 'sent' && r.attempts === 1)).to.equal(true);
  });

  it('when the push service accepts a push and then resets the connection, then the resend is sent and the push is marked ambiguous', async () => {
    const subs = audience(5);
    sim.setBehaviour({ resetAfterAccept: 1, times: 1, forSubscription: subs[2].id });
    const results = await sender({ retryBudgetMs: 30_000 }).sendBatch(job(subs));
    expect(results[2]).to.include({ outcome: 'sent', attempts: 2, ambiguous: 1 });
    expect(results.filter((r) => r.ambiguous)).to.have.length(1);
    expect(sim.stats().resets.afterAccept).to.equal(1);
    // Both copies reached the push service; the Topic makes the second replace the first.
    expect(sim.stats().replaced + sim.received(subs[2].id).length).to.equal(2);
  });
});
