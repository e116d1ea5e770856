// People's signals (docs/people.md, "Signals"): written to the delivery service's outbox in the
// transaction of their fact — a new or moved link, a person's last active subscription ending
// (however it ended; not a subscription the browser replaced), tags set to new values, a privacy
// delete in place of the person's unpublished signals — and published from there: a publisher
// that fails (or dies) before its delete leaves every row, and the next one publishes them to
// delivery.people.v1 in order and deletes them. Real Postgres; the test Kafka for the publishing.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { createMessaging } from '@webpush/shared/kafka.js';
import { createLogger } from '@webpush/shared/log.js';
import { createCodecs, TOPICS, type PeopleMessage } from '@webpush/contracts/messages.js';
import { testKafkaBrokers } from '../../../../test/support/kafka.js';
import { createPeople, createSignalPublisher, identitySignature } from '../../src/people/index.js';
import { createDeliveryMessaging } from '../../src/sending/messaging.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from '../support.js';

const log = createLogger('signals-test', 'error');

describe("delivery: people's signals, written with their facts and published from the outbox", function () {
  this.timeout(120_000);
  let t: TestDelivery;
  let people: ReturnType<typeof createPeople>;

  // Without Kafka the service runs no publisher: what is written stays in the outbox to be read.
  before(async () => {
    t = await startTestDelivery('people_signals', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    people = createPeople(t.pool);
  });
  after(async () => t?.stop());

  async function siteWithSecret() {
    const site = await newSite(t);
    const { secret } = await t.operators.identitySecret(site.siteId);
    return { ...site, secret };
  }
  type Site = Awaited<ReturnType<typeof siteWithSecret>>;
  async function subscribed(site: Site): Promise<string> {
    const endpoint = pushEndpoint();
    expect((await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint, keys: browserKeys() } } })).status).to.equal(201);
    return endpoint;
  }
  async function identify(site: Site, endpoint: string, externalId: string) {
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/identity`, { body: { endpoint, externalId, signature: identitySignature(site.secret, externalId) } });
    expect(res.body).to.deep.equal({ identified: true });
  }
  const unsubscribe = async (site: Site, endpoint: string) => expect((await request(t, 'DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint } })).status).to.equal(200);
  /** The site's signals in the outbox, oldest first, as [kind, external id, what else the kind carries]. */
  const signals = async (site: Site) =>
    (
      await t.pool.query(`SELECT kind, external_id, subscribed_at IS NOT NULL AS dated, tags FROM delivery.person_signals WHERE site_id = $1 ORDER BY id`, [site.siteId])
    ).rows.map((r) => [r.kind, r.external_id, ...(r.dated ? ['dated'] : []), ...(r.tags ? [r.tags] : [])]);

  it('when a subscription is identified, then person.subscribed is written once; again for the same person nothing, moved to another person once more', async () => {
    const site = await siteWithSecret();
    const endpoint = await subscribed(site);
    await identify(site, endpoint, 'ana');
    await identify(site, endpoint, 'ana');
    await identify(site, endpoint, 'bea');
    expect(await signals(site)).to.deep.equal([
      ['person.subscribed', 'ana', 'dated'],
      ['person.subscribed', 'bea', 'dated'],
    ]);
  });

  it("when a person's subscriptions end one by one, however they end, then person.unsubscribed is written only when the last one does; a replaced subscription is no end", async () => {
    const site = await siteWithSecret();
    const [first, second] = [await subscribed(site), await subscribed(site)];
    await identify(site, first, 'uma');
    await identify(site, second, 'uma');
    await unsubscribe(site, first);
    expect((await signals(site)).filter(([kind]) => kind === 'person.unsubscribed')).to.deep.equal([]);
    // The browser replaced its subscription: the new one is uma's before the old one ends.
    const next = await subscribed(site);
    expect((await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscription-changes`, { body: { oldEndpoint: second, endpoint: next } })).body).to.deep.equal({ replaced: true });
    expect((await signals(site)).filter(([kind]) => kind === 'person.unsubscribed')).to.deep.equal([]);
    // The push service said it is gone (any statement that ends it: here the sending's own update).
    await t.pool.query(`UPDATE delivery.subscribers SET active = false, deactivated_at = now() WHERE site_id = $1 AND endpoint = $2`, [site.siteId, next]);
    expect((await signals(site)).filter(([kind]) => kind === 'person.unsubscribed')).to.deep.equal([['person.unsubscribed', 'uma']]);
  });

  it('when tags are set, then person.tagged carries only those whose value changed (a date as its ISO text); the same values again write nothing', async () => {
    const site = await siteWithSecret();
    const tag = (tags: object) => people.update(site.siteId, 'tia', JSON.stringify({ tags }));
    await tag({ plan: 'pro', seats: 3, trial: true });
    await tag({ plan: 'pro', seats: 4, renews: '2026-12-24' });
    await tag({ plan: 'pro', seats: 4 });
    await tag({ plan: null });
    expect(await signals(site)).to.deep.equal([
      ['person.tagged', 'tia', { plan: 'pro', seats: 3, trial: true }],
      ['person.tagged', 'tia', { seats: 4, renews: '2026-12-24T00:00:00.000Z' }],
    ]);
  });

  it("when a person is deleted, then person.deleted is written in place of their signals not yet published; another person's stay", async () => {
    const site = await siteWithSecret();
    const endpoint = await subscribed(site);
    await identify(site, endpoint, 'dora');
    await people.update(site.siteId, 'dora', JSON.stringify({ tags: { plan: 'pro' } }));
    await people.update(site.siteId, 'eve', JSON.stringify({ tags: { plan: 'pro' } }));
    await people.remove(site.siteId, 'dora');
    expect(await signals(site)).to.deep.equal([
      ['person.tagged', 'eve', { plan: 'pro' }],
      ['person.deleted', 'dora'],
    ]);
  });

  it('when publishing fails (or the publisher dies before its delete), then every signal stays; the next publisher publishes them in order and deletes them', async () => {
    const site = await siteWithSecret();
    // What earlier tests of this file left belongs to other sites: published too, and not checked.
    await people.update(site.siteId, 'pia', JSON.stringify({ tags: { plan: 'free' } }));
    await people.update(site.siteId, 'pia', JSON.stringify({ tags: { plan: 'pro' } }));
    await people.remove(site.siteId, 'pia');
    await people.update(site.siteId, 'quinn', JSON.stringify({ tags: { plan: 'pro' } }));
    const before = await signals(site);
    expect(before).to.have.length(2);

    // Kafka unreachable, or the process gone between the publish and the delete: the batch's transaction never commits.
    const dying = createSignalPublisher({ pool: t.pool, log, publish: async () => Promise.reject(new Error('broker gone')) }, { intervalMs: 60_000, batchSize: 500 });
    await dying.publishPending().then(
      () => expect.fail('the publish failed'),
      (err: Error) => expect(err.message).to.equal('broker gone'),
    );
    expect(await signals(site)).to.deep.equal(before);

    const prefix = `signals-${randomBytes(3).toString('hex')}.`;
    await createMessaging({ brokers: [testKafkaBrokers()], prefix, clientId: 'signals-test', log }).ensureTopics();
    const messaging = createDeliveryMessaging({ brokers: [testKafkaBrokers()], prefix, chunkPartitions: 12, log, chunkConcurrency: 1, sessionTimeoutMs: 30_000 });
    try {
      const publisher = createSignalPublisher({ pool: t.pool, log, publish: messaging.publishPeople }, { intervalMs: 60_000, batchSize: 2 });
      expect(await publisher.publishPending()).to.be.at.least(2);
      expect(await signals(site)).to.deep.equal([]);
      const mine = (await peopleMessages(prefix, (ms) => ms.filter((m) => m.siteId === site.siteId).length >= 2)).filter((m) => m.siteId === site.siteId);
      expect(mine).to.deep.equal([
        { type: 'person.deleted', version: 1, siteId: site.siteId, externalId: 'pia' },
        { type: 'person.tagged', version: 1, siteId: site.siteId, externalId: 'quinn', tags: { plan: 'pro' } },
      ]);
    } finally {
      await messaging.stop();
    }
  });
});

/** The people topic's messages (from the beginning, a fresh group) until `done` holds or 20 s pass. */
async function peopleMessages(prefix: string, done: (messages: PeopleMessage[]) => boolean): Promise<PeopleMessage[]> {
  const codecs = createCodecs();
  const kafka = new Kafka({ brokers: [testKafkaBrokers()], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `check-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
  const messages: PeopleMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: prefix + TOPICS.people, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void messages.push(codecs.people.decode(message.value)) });
    const until = Date.now() + 20_000;
    while (!done(messages) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await consumer.disconnect();
  }
  return messages;
}
