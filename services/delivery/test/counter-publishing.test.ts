// Campaign counters are published from what is stored (issue 11, defects 4 and 6), against a real
// Postgres and the test Kafka: a tracking report is stored and answered without Kafka; the
// counter publisher publishes changed runs, keeps them while publishing fails and publishes them
// once it works, republishes a run changed while it was publishing, runs once across instances;
// failed pushes are counted by class in the run and in the event; a run that finishes during a
// pass is published with its results by browser.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import type { PoolClient } from 'pg';
import { createPool, withTransaction, type Pool } from '@webpush/shared/db.js';
import { createMessaging } from '@webpush/shared/kafka.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCodecs, TOPICS, type DispatchMessage, type StatsMessage } from '@webpush/contracts/messages.js';
import { testKafkaBrokers } from '../../../test/support/kafka.js';
import { freshDatabase } from '../../../test/support/postgres.js';
import { migrateDeliverySchema } from '../src/app.js';
import { changedCounters, markCountersPublished, tryLockPublisher, unlockPublisher, type RunCounters } from '../src/tracking/counter-store.js';
import { claim, recordOutcomes } from '../src/sending/delivery-log-store.js';
import { chunkDone, runFor } from '../src/sending/run-store.js';
import { trackingTokensFor } from '../src/tracking/tracking-token.js';
import { createDeliveryMessaging } from '../src/sending/messaging.js';
import { createCounterPublisher } from '../src/tracking/counter-publisher.js';
import { failureClassOf } from '@webpush/push/outcome.js';
import { createTrackingRecorder } from '../src/tracking/recorder.js';
import { dispatchMessage, newSite, request, startTestDelivery, type TestDelivery } from './support.js';

const log = createLogger('counter-test', 'error');
const codecs = createCodecs();

function job(campaignId: string, siteId: string): DispatchMessage {
  return { ...dispatchMessage(siteId, ['news']), campaignId };
}

/** Stats events of the topic (read from the beginning with a fresh group) until `done` holds or 20 s pass. */
async function statsEvents(prefix: string, done: (events: StatsMessage[]) => boolean): Promise<StatsMessage[]> {
  const kafka = new Kafka({ brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `check-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
  const events: StatsMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: prefix + TOPICS.stats, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void events.push(codecs.stats.decode(message.value)) });
    const until = Date.now() + 20_000;
    while (!done(events) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await consumer.disconnect();
  }
  return events;
}

const latest = (events: StatsMessage[], campaignId: string) => events.filter((e) => e.campaignId === campaignId).at(-1);

describe('campaign counters published from what is stored', function () {
  this.timeout(60_000);
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;
  const prefix = `counters-${randomBytes(3).toString('hex')}.`;
  let messaging: ReturnType<typeof createDeliveryMessaging>;
  const siteId = randomUUID();

  before(async () => {
    db = await freshDatabase('counters');
    pool = createPool(db.url);
    await migrateDeliverySchema(pool);
    messaging = createDeliveryMessaging({ brokers: [testKafkaBrokers()], prefix, chunkPartitions: 12, log, chunkConcurrency: 1, sessionTimeoutMs: 30_000 });
    // Topics only: no consumers are started here.
    await createMessaging({ brokers: [testKafkaBrokers()], prefix, clientId: 'counter-test', log }).ensureTopics();
    await pool.query(`INSERT INTO delivery.sites (site_id, public_id, vapid_public_key, vapid_private_key_enc) VALUES ($1, 'pub_counters', 'k', '\\x00')`, [siteId]);
  });
  after(async () => {
    await messaging?.stop();
    await pool?.end();
    await db?.drop();
  });

  /** A run whose current changes are already published (as if the publisher had just passed). */
  async function publishedRun(): Promise<string> {
    const campaignId = randomUUID();
    await runFor(pool, job(campaignId, randomUUID()));
    await pool.query(`UPDATE delivery.campaign_runs SET stats_published = stats_version WHERE campaign_id = $1`, [campaignId]);
    return campaignId;
  }
  async function subscriber(): Promise<string> {
    const { rows } = await pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country) VALUES ($1, $2, 'k', 'a', 'country__pt') RETURNING id::text`,
      [siteId, `https://fcm.googleapis.com/fcm/send/${randomUUID()}`],
    );
    return rows[0].id;
  }
  const changedIds = async () => (await changedCounters(pool, 1000)).map((c) => c.campaignId);

  it('when a tracking report is stored, then it resolves without Kafka and only marks the run changed', async () => {
    const campaignId = await publishedRun();
    expect(await changedIds()).to.not.include(campaignId);
    const recorder = createTrackingRecorder({ pool, log }, { flushMs: 5, maxBatch: 100 });
    const [a, b] = [await subscriber(), await subscriber()];
    await Promise.all([
      recorder.record({ campaignId, subscriberId: a, kind: 'impression' }),
      recorder.record({ campaignId, subscriberId: b, kind: 'impression' }),
      recorder.record({ campaignId, subscriberId: a, kind: 'click' }),
      recorder.record({ campaignId, subscriberId: a, kind: 'impression' }), // a repeat, counted once
    ]);
    await recorder.close();
    const [c] = (await changedCounters(pool, 1000)).filter((x) => x.campaignId === campaignId);
    expect(c).to.deep.include({ impressions: 2, clicks: 1, state: 'expanding' });
  });

  it('when publishing fails (Kafka down), then the counters stay stored as changed and are published by the first pass that works, with no report retried', async () => {
    const campaignId = await publishedRun();
    const recorder = createTrackingRecorder({ pool, log }, { flushMs: 5, maxBatch: 100 });
    const subs = [await subscriber(), await subscriber(), await subscriber()];
    await Promise.all(subs.map((s) => recorder.record({ campaignId, subscriberId: s, kind: 'impression' })));
    await recorder.close();

    let attempts = 0;
    let down = true;
    const publisher = createCounterPublisher(
      {
        pool,
        log,
        publish: async (runs) => {
          attempts++;
          if (down) throw new Error('broker down');
          await messaging.publishStats(runs);
        },
      },
      { intervalMs: 20, batchSize: 2 },
    );
    for (let i = 0; i < 3; i++) {
      const err = await publisher.publishChanged().then(() => null, (e: Error) => e);
      expect(err?.message).to.equal('broker down');
    }
    expect(await changedIds()).to.include(campaignId);
    down = false;
    publisher.start();
    const until = Date.now() + 10_000;
    while ((await changedIds()).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await publisher.stop();
    expect(await changedIds()).to.deep.equal([]);
    expect(attempts).to.be.greaterThan(3);
    const events = await statsEvents(prefix, (e) => latest(e, campaignId)?.impressions === 3);
    expect(latest(events, campaignId)).to.deep.include({ campaignId, impressions: 3, clicks: 0, state: 'sending', audience: 0 });
    expect(latest(events, campaignId)?.failedBy).to.deep.equal({ rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 });
  });

  it('when a run changes after its counters were read, then marking the old version published leaves it changed', async () => {
    const campaignId = await publishedRun();
    await pool.query(`UPDATE delivery.campaign_runs SET impressions = impressions + 1 WHERE campaign_id = $1`, [campaignId]);
    const [read] = (await changedCounters(pool, 1000)).filter((c) => c.campaignId === campaignId);
    await pool.query(`UPDATE delivery.campaign_runs SET impressions = impressions + 1 WHERE campaign_id = $1`, [campaignId]);
    await markCountersPublished(pool, [read]);
    expect(await changedIds()).to.include(campaignId);
    const [again] = (await changedCounters(pool, 1000)).filter((c) => c.campaignId === campaignId);
    expect(again.impressions).to.equal(2);
    await markCountersPublished(pool, [again]);
    expect(await changedIds()).to.not.include(campaignId);
    // An update that changes no counter (here: the heartbeat-like chunk bookkeeping) is not a change.
    await pool.query(`UPDATE delivery.campaign_runs SET chunks_published = chunks_published WHERE campaign_id = $1`, [campaignId]);
    expect(await changedIds()).to.not.include(campaignId);
  });

  it('when another instance is publishing, then a pass publishes nothing and leaves the changes to it', async () => {
    const campaignId = await publishedRun();
    await pool.query(`UPDATE delivery.campaign_runs SET clicks = 1 WHERE campaign_id = $1`, [campaignId]);
    const other = await pool.connect();
    try {
      expect(await tryLockPublisher(other)).to.equal(true);
      const published: RunCounters[] = [];
      const publisher = createCounterPublisher({ pool, log, publish: async (runs) => void published.push(...runs) }, { intervalMs: 20, batchSize: 10 });
      expect(await publisher.publishChanged()).to.equal(0);
      expect(published).to.deep.equal([]);
      await unlockPublisher(other);
      expect(await publisher.publishChanged()).to.be.greaterThan(0);
      expect(published.map((p) => p.campaignId)).to.include(campaignId);
    } finally {
      other.release();
    }
  });

  it('when woken many times during a pass, then one more pass publishes what changed meanwhile', async () => {
    const [a, b] = [await publishedRun(), await publishedRun()];
    const calls: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const publisher = createCounterPublisher(
      {
        pool,
        log,
        publish: async (runs) => {
          calls.push(runs.map((r) => r.campaignId));
          if (calls.length === 1) await held;
        },
      },
      { intervalMs: 60_000, batchSize: 100 },
    );
    publisher.start();
    try {
      // Whatever other tests left changed is published along with a.
      await pool.query(`UPDATE delivery.campaign_runs SET impressions = impressions + 1 WHERE campaign_id = $1`, [a]);
      publisher.wake();
      const until = Date.now() + 10_000;
      while (calls.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(calls[0]).to.include(a);
      await pool.query(`UPDATE delivery.campaign_runs SET impressions = impressions + 1 WHERE campaign_id = $1`, [b]);
      for (let i = 0; i < 5; i++) publisher.wake();
      release();
      while (calls.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(calls[1]).to.deep.equal([b]);
      await new Promise((r) => setTimeout(r, 300));
      expect(calls).to.have.length(2);
    } finally {
      await publisher.stop();
    }
  });

  it('when a run completes between the pass filling results by browser and reading changed counters, then it is published with them', async () => {
    const campaignId = await publishedRun();
    const sub = await subscriber();
    await pool.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by) VALUES ($1, $2, 'sent', $3)`, [campaignId, sub, randomUUID()]);
    await pool.query(`UPDATE delivery.campaign_runs SET state = 'sending', chunks_total = 1, sent = 1, audience_size = 1 WHERE campaign_id = $1`, [campaignId]);
    // The publisher's connection completes the run (the chunk worker's own statement, on another
    // connection) right after its fill statement: the moment a one-chunk campaign can finish at.
    let completed = false;
    const completeAfterFill = (client: PoolClient) =>
      new Proxy(client, {
        get(target, prop, receiver) {
          if (prop !== 'query') return Reflect.get(target, prop, receiver);
          return async (...args: Parameters<PoolClient['query']>) => {
            const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
            const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
            if (!completed && text.includes('jsonb_object_agg')) {
              completed = true;
              expect(await withTransaction(pool, (tx) => chunkDone(tx, campaignId, 0, [sub]))).to.deep.include({ state: 'completed' });
            }
            return result;
          };
        },
      });
    const racingPool = new Proxy(pool, {
      get(target, prop, receiver) {
        if (prop === 'connect') return async () => completeAfterFill(await target.connect());
        return Reflect.get(target, prop, receiver);
      },
    });
    const published: RunCounters[] = [];
    const publisher = createCounterPublisher({ pool: racingPool, log, publish: async (runs) => void published.push(...runs) }, { intervalMs: 20, batchSize: 1000 });
    await publisher.publishChanged();
    expect(completed).to.equal(true);
    await publisher.publishChanged();
    const finished = published.filter((p) => p.campaignId === campaignId && p.state === 'completed');
    expect(finished, 'the completed run was published').to.not.deep.equal([]);
    for (const p of finished) expect(p.byBrowser).to.deep.equal({ chrome: { sent: 1, failed: 0, expired: 0, capped: 0 } });
  });

  it('when pushes fail, then the run counts them by class and the event carries failedBy', async () => {
    const campaignId = await publishedRun();
    const subs = await Promise.all(Array.from({ length: 7 }, () => subscriber()));
    const me = randomUUID();
    await withTransaction(pool, (tx) => claim(tx, campaignId, subs, { instanceId: me, lease: me, liveLeases: [me] }, 10));
    const results = [
      { id: subs[0], outcome: 'sent' as const, status: 201 },
      { id: subs[1], outcome: 'failed' as const, status: 400 },
      { id: subs[2], outcome: 'failed' as const, status: 403 },
      { id: subs[3], outcome: 'failed' as const, status: 503 },
      { id: subs[4], outcome: 'failed' as const, refused: true as const },
      { id: subs[5], outcome: 'expired' as const, status: 410 },
      { id: subs[6], outcome: 'failed' as const }, // timeouts until the budget ran out
    ];
    await withTransaction(pool, (tx) =>
      recordOutcomes(
        tx,
        campaignId,
        me,
        results.map((r) => ({ subscriberId: r.id, outcome: r.outcome, status: r.status ?? null, reason: null, failureClass: failureClassOf(r) })),
      ),
    );
    const [c] = (await changedCounters(pool, 1000)).filter((x) => x.campaignId === campaignId);
    expect(c).to.deep.include({ sent: 1, failed: 5, expired: 1 });
    expect(c.failedBy).to.deep.equal({ rejected: 1, unauthorized: 1, unreachable: 2, refused: 1 });
    const publisher = createCounterPublisher({ pool, log, publish: messaging.publishStats }, { intervalMs: 20, batchSize: 100 });
    expect(await publisher.publishChanged()).to.be.greaterThan(0);
    const events = await statsEvents(prefix, (e) => latest(e, campaignId)?.failed === 5);
    expect(latest(events, campaignId)?.failedBy).to.deep.equal({ rejected: 1, unauthorized: 1, unreachable: 2, refused: 1 });
  });
});

describe('failure classes', () => {
  it('classifies a final result by its last status, refusal and attempts', () => {
    const cases: [Parameters<typeof failureClassOf>[0], ReturnType<typeof failureClassOf>][] = [
      [{ outcome: 'sent', status: 201 }, null],
      [{ outcome: 'expired', status: 404 }, null],
      [{ outcome: 'expired', status: 410 }, null],
      [{ outcome: 'failed', status: 400 }, 'rejected'],
      [{ outcome: 'failed', status: 413 }, 'rejected'],
      [{ outcome: 'failed', status: 422 }, 'rejected'],
      [{ outcome: 'failed', status: 401 }, 'unauthorized'],
      [{ outcome: 'failed', status: 403 }, 'unauthorized'],
      [{ outcome: 'failed', status: 429 }, 'unreachable'], // still rate limited when the budget ran out
      [{ outcome: 'failed', status: 500 }, 'unreachable'],
      [{ outcome: 'failed', status: 503 }, 'unreachable'],
      [{ outcome: 'failed' }, 'unreachable'], // timeouts, resets, or waiting behind a down origin
      [{ outcome: 'failed', refused: true, reason: 'destination refused: private address' }, 'refused'],
      [{ outcome: 'failed', reason: 'invalid endpoint URL' }, 'refused'], // the stored subscription is unusable
      [{ outcome: 'failed', reason: 'invalid subscription keys' }, 'refused'],
    ];
    for (const [result, expected] of cases) expect(failureClassOf(result), JSON.stringify(result)).to.equal(expected);
  });
});

describe('tracking reports through the delivery service', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  const prefix = `track-${randomBytes(3).toString('hex')}.`;

  before(async () => {
    t = await startTestDelivery('counters_http', { KAFKA_BROKERS: testKafkaBrokers(), KAFKA_TOPIC_PREFIX: prefix, STATS_PUBLISH_INTERVAL_MS: '50' });
  });
  after(async () => t?.stop());

  it('when a service worker reports an impression, then 202 and the campaign counters are published on their own', async () => {
    const site = await newSite(t);
    const campaignId = randomUUID();
    await runFor(t.pool, job(campaignId, site.siteId));
    const { rows } = await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country) VALUES ($1, $2, 'k', 'a', 'country__pt') RETURNING id::text`,
      [site.siteId, `https://fcm.googleapis.com/fcm/send/${randomUUID()}`],
    );
    const tokens = trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] });
    const token = tokens.sign({ campaignId, subscriberId: rows[0].id });
    for (const type of ['impression', 'click', 'impression']) {
      const res = await request(t, 'POST', '/public/v1/events', { body: { type, token } });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
    }
    const events = await statsEvents(prefix, (e) => latest(e, campaignId)?.clicks === 1 && latest(e, campaignId)?.impressions === 1);
    expect(latest(events, campaignId)).to.deep.include({ impressions: 1, clicks: 1 });
  });
});
