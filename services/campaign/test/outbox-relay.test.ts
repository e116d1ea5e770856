// The outbox relay against a real Kafka broker and a real Postgres: rows committed out of id
// order are all published, and a relay that dies between publishing and committing loses
// nothing (the rows are published again: at-least-once, the consumer dedupes by campaign id).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { createPool, withTransaction, type Pool } from '../../shared/src/db.js';
import { createLogger } from '../../shared/src/log.js';
import { createMessaging } from '../../shared/src/kafka.js';
import { TOPICS } from '../../shared/src/messages.js';
import { testKafkaBrokers } from '../../../test/support/kafka.js';
import { freshDatabase } from '../../../test/support/postgres.js';
import { migrateCampaignSchema } from '../src/app.js';
import { insertOutbox } from '../src/db/outbox-repo.js';
import { dispatchJob } from '../src/domain/dispatch-job.js';
import { createOutboxRelay } from '../src/domain/outbox-relay.js';
import { createOperators } from '../src/domain/operators.js';

describe('outbox relay', function () {
  this.timeout(60_000);
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;
  let siteId: string;
  const prefix = `relay-${randomBytes(3).toString('hex')}.`;
  const log = createLogger('test', 'error');
  let messaging: ReturnType<typeof createMessaging>;

  before(async () => {
    messaging = createMessaging({ brokers: [testKafkaBrokers()], clientId: 'relay-test', log, prefix });
    db = await freshDatabase('relay');
    pool = createPool(db.url);
    await migrateCampaignSchema(pool);
    await messaging.ensureTopics();
    const ops = createOperators(pool);
    await ops.createPlan('p', ['create']);
    siteId = (await ops.createSite({ name: 's', plan: 'p' })).id;
  });
  after(async () => {
    await messaging?.disconnect();
    await pool?.end();
    await db?.drop();
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
    const kafka = new Kafka({ brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING });
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
      await insertOutbox(tx, [dispatchJob(early, siteId, new Date())]);
      await aHeld;
    });
    await new Promise((r) => setTimeout(r, 100));
    await withTransaction(pool, (tx) => insertOutbox(tx, [dispatchJob(late, siteId, new Date())]));
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
    await withTransaction(pool, (tx) => insertOutbox(tx, ids.map((id) => dispatchJob(id, siteId, new Date()))));
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
});
