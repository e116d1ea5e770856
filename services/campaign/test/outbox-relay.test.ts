// The outbox relay against a real Kafka broker and a real Postgres: rows committed out of id
// order are all published, and a relay that dies between publishing and committing loses
// nothing (the rows are published again: at-least-once, the consumer dedupes by campaign id).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import { createMessaging } from '@webpush/shared/kafka.js';
import { TOPICS } from '@webpush/contracts/messages.js';
import { REQUEST_ID_KEY } from '@webpush/shared/observability/request-context.js';
import { startInProcess, type InProcessStack } from '../../../test/support/in-process.js';
import { migrateCampaignSchema } from '../src/app.js';
import { migrateDeliverySchema } from '../../delivery/src/app.js';
import { insertOutbox } from '../src/outbox/outbox-store.js';
import { dispatchJob } from '../src/outbox/dispatch-job.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('outbox relay', function () {
  this.timeout(60_000);
  let stack: InProcessStack;
  let pool: Pool;
  let siteId: string;
  let brokers: string;
  let prefix: string;
  const log = createLogger('test', 'error');
  let messaging: ReturnType<typeof createMessaging>;

  before(async () => {
    // A database and Kafka, no service: the relays here are the tests' own.
    stack = await startInProcess('relay', { kafka: true, poolSize: 10 });
    ({ brokers, prefix } = stack.kafka!);
    pool = stack.pool;
    messaging = createMessaging({ brokers: [brokers], clientId: 'relay-test', log, prefix });
    await migrateCampaignSchema(pool);
    // A site is created whole: the delivery schema learns it too.
    await migrateDeliverySchema(pool);
    await messaging.ensureTopics();
    const ops = stack.operators.campaign;
    await ops.createPlan('p', ['create']);
    siteId = (await ops.createSite({ name: 's', plan: 'p' }, stack.operators.delivery.registerSite)).site.id;
  });
  after(async () => {
    await messaging?.disconnect();
    await stack?.stop();
  });

  async function campaign(): Promise<string> {
    const { rows } = await pool.query(
      `INSERT INTO campaign.campaigns (site_id, title, body, link, topics, status, schedule_mode, schedule_date, dispatched_at, ttl)
       VALUES ($1, 'title', 'body', 'https://x.example', '{news}', 'published', 'now', now(), now(), 60) RETURNING id`,
      [siteId],
    );
    return rows[0].id;
  }

  /** Every dispatch message on the topic, read from the beginning with a fresh group. */
  async function published(expected: number): Promise<string[]> {
    const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `check-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
    const ids: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: prefix + TOPICS.dispatch, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void ids.push(JSON.parse(message.value!.toString()).campaignId) });
    const until = Date.now() + 20_000;
    while (ids.length < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    await consumer.disconnect();
    return ids;
  }

  const unpublished = async () => (await pool.query(`SELECT count(*)::int AS n FROM campaign.outbox WHERE published_at IS NULL`)).rows[0].n;

  it('when a smaller outbox id commits after a larger one, then both are published', async () => {
    const early = await campaign();
    const late = await campaign();
    const relay = createOutboxRelay({ pool, log, publish: messaging.publish }, { intervalMs: 50, batchSize: 10 });
    // Transaction A takes the smaller id and holds it open; B takes the larger one and commits.
    let releaseA!: () => void;
    const aHeld = new Promise<void>((r) => (releaseA = r));
    const a = withTransaction(pool, async (tx) => {
      await insertOutbox(tx, [dispatchJob(early)]);
      await aHeld;
    });
    await new Promise((r) => setTimeout(r, 100));
    await withTransaction(pool, (tx) => insertOutbox(tx, [dispatchJob(late)]));
    expect(await relay.publishBatch()).to.equal(1);
    releaseA();
    await a;
    expect(await relay.publishBatch()).to.equal(1);
    expect(await unpublished()).to.equal(0);
    const ids = await published(2);
    expect(ids.sort()).to.deep.equal([early, late].sort());
    const message = (await pool.query(`SELECT id FROM campaign.outbox ORDER BY id`)).rows;
    expect(message).to.have.length(2);
  });

  it('when a relay dies after publishing but before committing, then the rows are published again and nothing is lost', async () => {
    const ids = [await campaign(), await campaign(), await campaign()];
    await withTransaction(pool, (tx) => insertOutbox(tx, ids.map((id) => dispatchJob(id))));
    const dying = createOutboxRelay(
      {
        pool,
        log,
        publish: async (topic, messages) => {
          await messaging.publish(topic, messages);
          throw new Error('killed after publishing');
        },
      },
      { intervalMs: 50, batchSize: 10 },
    );
    await dying.publishBatch().then(
      () => expect.fail('should have died'),
      (err: Error) => expect(err.message).to.equal('killed after publishing'),
    );
    expect(await unpublished()).to.equal(3);
    const healthy = createOutboxRelay({ pool, log, publish: messaging.publish }, { intervalMs: 50, batchSize: 10 });
    healthy.start();
    const until = Date.now() + 10_000;
    while ((await unpublished()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await healthy.stop();
    expect(await unpublished()).to.equal(0);
    const all = await published(2 + 6);
    for (const id of ids) expect(all.filter((x) => x === id)).to.have.length(2);
  });

  it('when an outbox row still has the payload of earlier versions (the whole job), then it is published with its request id', async () => {
    const id = await campaign();
    const old = { type: 'campaign.dispatch', version: 1, campaignId: id, siteId, dispatchedAt: new Date().toISOString(), requestId: 'earlier-row-7' };
    await pool.query(`INSERT INTO campaign.outbox (campaign_id, kind, payload) VALUES ($1, 'campaign.dispatch', $2)`, [id, JSON.stringify(old)]);
    const sent: { key: string; value: Buffer; headers?: Record<string, string> }[] = [];
    const relay = createOutboxRelay({ pool, log, publish: async (_topic, messages) => void sent.push(...messages) }, { intervalMs: 50, batchSize: 10 });
    expect(await relay.publishBatch()).to.equal(1);
    expect(sent.map((m) => ({ key: m.key, campaignId: JSON.parse(m.value.toString()).campaignId, headers: m.headers }))).to.deep.equal([
      { key: id, campaignId: id, headers: { [REQUEST_ID_KEY]: 'earlier-row-7' } },
    ]);
  });
});

describe('outbox relay: woken by a committed dispatch job', function () {
  this.timeout(60_000);
  // The relay's interval is ten minutes: only a wake can publish a dispatch within a test.
  const RELAY_INTERVAL_MS = 600_000;
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('relay_wake', { OUTBOX_RELAY_INTERVAL_MS: String(RELAY_INTERVAL_MS), SCHEDULER_ENABLED: 'true', SCHEDULER_INTERVAL_MS: '50' }, { kafka: true });
    site = await h.newSite();
  });
  after(async () => h?.stop());

  /** Milliseconds from now until the campaign's outbox row is published (bounded). */
  async function publishedWithin(id: string, timeoutMs = 10_000): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < timeoutMs) {
      const { rows } = await h.pool.query(`SELECT published_at FROM campaign.outbox WHERE campaign_id = $1`, [id]);
      if (rows[0]?.published_at) return Date.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`campaign ${id} not published within ${timeoutMs} ms`);
  }

  const create = async (body: object) =>
    (await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' })).id;

  it('when a campaign is created to send now, then its dispatch is published at once, not on the relay interval', async () => {
    const id = await create(validCampaign({ status: 'published', scheduleMode: 'now' }));
    expect(await publishedWithin(id)).to.be.below(RELAY_INTERVAL_MS);
  });

  it('when the scheduler dispatches a due campaign, then its dispatch is published at once too', async () => {
    const id = await create(validCampaign({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2020-01-01T00:00:00Z' }));
    expect(await publishedWithin(id)).to.be.below(RELAY_INTERVAL_MS);
  });
});
