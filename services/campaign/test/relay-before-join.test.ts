// A (re)started campaign service relays its outbox at once, whatever its stats consumer's group
// join is doing (issue 11, defect 5). The join is held deterministically: a "ghost" member of
// the stats group (a previous instance that has not left) is stuck in a batch, so the broker's
// rebalance waits for it; only when the test lets it go can the new instance join. The test
// asserts the order of events — the dispatch is published, readiness answers, before the join —
// not durations.
import { expect } from 'chai';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import type { Pool } from '@webpush/shared/db.js';
import { createMessaging } from '@webpush/shared/kafka.js';
import { createLogger, type Logger } from '@webpush/shared/log.js';
import { createCodecs, TOPICS } from '@webpush/contracts/messages.js';
import { startInProcess, type InProcessStack } from '../../../test/support/in-process.js';
import { migrateCampaignSchema, type RunningCampaignService } from '../src/app.js';
import { migrateDeliverySchema } from '../../delivery/src/app.js';
import { insertOutbox } from '../src/outbox/outbox-store.js';
import { dispatchJob } from '../src/outbox/dispatch-job.js';
import { STATS_GROUP } from '../src/messaging/campaign-messaging.js';
import { statsMessage } from './support/harness.js';

/** A logger that keeps the messages (in order) and also writes errors. */
function recordingLogger(events: string[]): Logger {
  const quiet = createLogger('campaign-test', 'error');
  const logger: Logger = {
    debug: (msg) => void events.push(msg),
    info: (msg) => void events.push(msg),
    warn: (msg) => void events.push(msg),
    error: (msg, fields) => {
      events.push(msg);
      quiet.error(msg, fields);
    },
    child: () => logger,
  };
  return logger;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('campaign service start: the outbox relay does not wait for the stats consumer group', function () {
  this.timeout(120_000);
  const codecs = createCodecs();
  let stack: InProcessStack;
  let prefix: string;
  let pool: Pool;
  let siteId: string;
  let ghost: Consumer | undefined;
  let service: RunningCampaignService | undefined;
  let kafka: Kafka;
  let producer: Producer;

  before(async () => {
    // A database and Kafka; the campaign service is started by each test, after its ghost.
    stack = await startInProcess('relay_join', { kafka: true });
    const brokers = stack.kafka!.brokers;
    prefix = stack.kafka!.prefix;
    kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
    producer = kafka.producer();
    pool = stack.pool;
    await migrateCampaignSchema(pool);
    // A site is created whole: the delivery schema learns it too.
    await migrateDeliverySchema(pool);
    const ops = stack.operators.campaign;
    await ops.createPlan('p', ['create']);
    siteId = (await ops.createSite({ name: 's', plan: 'p' }, stack.operators.delivery.registerSite)).site.id;
    const messaging = createMessaging({ brokers: [brokers], prefix, clientId: 'join-test', log: createLogger('t', 'error') });
    await messaging.ensureTopics();
    await messaging.disconnect();
    await producer.connect();
  });
  after(async () => {
    await service?.stop();
    await ghost?.disconnect().catch(() => {});
    await producer?.disconnect();
    await stack?.stop();
  });

  async function campaignInOutbox(): Promise<string> {
    const { rows } = await pool.query(
      `INSERT INTO campaign.campaigns (site_id, title, body, link, topics, status, schedule_mode, schedule_date, dispatched_at, ttl, total_users)
       VALUES ($1, 'title', 'body', 'https://x.example', '{news}', 'published', 'now', now(), now(), 60, 5) RETURNING id`,
      [siteId],
    );
    await pool.query('INSERT INTO campaign.campaign_stats (campaign_id) VALUES ($1)', [rows[0].id]);
    await insertOutbox(pool, [dispatchJob(rows[0].id)]);
    return rows[0].id;
  }


  it('when the stats group cannot complete a join, then the dispatch is published and the service is ready before it joins; the consumer joins once it can', async () => {
    // The ghost: a member of the stats group stuck in a batch (no heartbeats, no rejoin).
    let releaseGhost!: () => void;
    const ghostReleased = new Promise<void>((r) => (releaseGhost = r));
    let ghostStuck!: () => void;
    const ghostIsStuck = new Promise<void>((r) => (ghostStuck = r));
    ghost = kafka.consumer({ groupId: prefix + STATS_GROUP, sessionTimeout: 60_000, rebalanceTimeout: 60_000, heartbeatInterval: 1000, maxWaitTimeInMs: 100 });
    await ghost.connect();
    await ghost.subscribe({ topic: prefix + TOPICS.stats, fromBeginning: true });
    await ghost.run({
      eachBatchAutoResolve: false,
      eachBatch: async () => {
        ghostStuck();
        await ghostReleased;
      },
    });
    const earlier = await campaignInOutbox();
    await producer.send({ topic: prefix + TOPICS.stats, messages: [{ key: earlier, value: codecs.stats.encode(statsMessage(earlier, { sent: 1 })) }] });
    await ghostIsStuck;

    const id = await campaignInOutbox();
    const events: string[] = [];
    service = await stack.startCampaign({ env: { OUTBOX_RELAY_INTERVAL_MS: '50' }, log: recordingLogger(events) });
    expect(events).to.include('campaign service listening');

    // The outbox is relayed while the join is held by the ghost.
    await until('the dispatch to be published', async () => (await pool.query(`SELECT 1 FROM campaign.outbox WHERE published_at IS NULL`)).rowCount === 0);
    const ready = await fetch(`http://127.0.0.1:${service.metricsPort}/readyz`);
    expect(ready.status).to.equal(200);
    expect(events).to.include('dispatch job published');
    expect(events, 'joined while the ghost still held the group').to.not.include('stats consumer joined its group');

    // Let the ghost go (it leaves, as a dead member eventually would): the consumer joins and
    // applies counters, the held message included.
    releaseGhost();
    await ghost.disconnect();
    ghost = undefined;
    await until('the stats consumer to join', async () => events.includes('stats consumer joined its group'), 60_000);
    expect(events.indexOf('dispatch job published')).to.be.lessThan(events.indexOf('stats consumer joined its group'));
    await producer.send({ topic: prefix + TOPICS.stats, messages: [{ key: id, value: codecs.stats.encode(statsMessage(id, { sent: 4, failed: 1, audience: 5, state: 'completed' })) }] });
    const row = await until('counters to be applied', async () => {
      const { rows } = await pool.query(`SELECT sent::int, failed::int, audience::int, delivery_finished FROM campaign.campaign_stats WHERE campaign_id = $1`, [id]);
      return rows[0]?.sent === 4 ? rows[0] : undefined;
    }, 30_000);
    expect(row).to.deep.equal({ sent: 4, failed: 1, audience: 5, delivery_finished: true });
    const { rows: held } = await pool.query(`SELECT sent::int FROM campaign.campaign_stats WHERE campaign_id = $1`, [earlier]);
    expect(held[0].sent).to.equal(1);
  });

  it('when the service stops while its consumer is still joining, then it stops (bounded) and nothing restarts behind it', async () => {
    let releaseGhost!: () => void;
    const ghostReleased = new Promise<void>((r) => (releaseGhost = r));
    let ghostStuck!: () => void;
    const ghostIsStuck = new Promise<void>((r) => (ghostStuck = r));
    await service?.stop();
    service = undefined;
    ghost = kafka.consumer({ groupId: prefix + STATS_GROUP, sessionTimeout: 60_000, rebalanceTimeout: 60_000, heartbeatInterval: 1000, maxWaitTimeInMs: 100 });
    await ghost.connect();
    await ghost.subscribe({ topic: prefix + TOPICS.stats, fromBeginning: true });
    await ghost.run({ eachBatchAutoResolve: false, eachBatch: async () => { ghostStuck(); await ghostReleased; } });
    const id = await campaignInOutbox();
    await producer.send({ topic: prefix + TOPICS.stats, messages: [{ key: id, value: codecs.stats.encode(statsMessage(id, { sent: 1 })) }] });
    await ghostIsStuck;
    const events: string[] = [];
    const s = await stack.startCampaign({ env: { OUTBOX_RELAY_INTERVAL_MS: '50' }, log: recordingLogger(events) });
    await until('the dispatch to be published', async () => (await pool.query(`SELECT 1 FROM campaign.outbox WHERE published_at IS NULL`)).rowCount === 0);
    await s.stop();
    releaseGhost();
    await ghost.disconnect();
    ghost = undefined;
    // Give a restart (which kafkajs would schedule for a crashed consumer) the time to show itself.
    await new Promise((r) => setTimeout(r, 1500));
    expect(events).to.not.include('stats consumer joined its group');
  });
});
