// A notification to people (POST /v2/notifications with `externalIds`; docs/api-decisions.md,
// "Notifications") where it is stored: validated by the people's rule, stored with its dispatch
// job in one transaction, relayed as a job naming the people (the delivery service resolves
// them); storeNotification does the same inside another feature's own transaction; anything
// refused writes nothing.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CreateNotificationResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateNotificationResponse.js';
import { createCodecs, TOPICS, type DispatchMessage } from '@webpush/contracts/messages.js';
import { withTransaction } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import { storeNotification, validateNotificationInput } from '../src/notifications/index.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { expectStatus, startHarness, type Harness, type TestSite } from './support/harness.js';

const content = { title: 'Your order shipped', body: 'Parcel 1234 is on its way', link: 'https://shop.example/orders/1234' };

describe('notifications to people (externalIds)', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  const log = createLogger('test', 'error');

  before(async () => {
    h = await startHarness('campaign_notify_people');
    site = await h.newSite();
  });
  after(async () => h?.stop());

  const create = (body: unknown) => h.call<CreateNotificationResponse__Output>('CreateNotification', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: '' });
  const stored = async () => Number((await h.pool.query(`SELECT count(*) FROM campaign.notifications WHERE site_id = $1`, [site.siteId])).rows[0].count);
  /** What the relay publishes now on the notifications' topic, decoded as the delivery service decodes it. */
  const relayed = async (): Promise<DispatchMessage[]> => {
    const values: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log, publish: async (topic, messages) => void (topic === TOPICS.notifications && values.push(...messages.map((m) => m.value))) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    return values.map((v) => createCodecs().dispatch.decode(v));
  };

  it('when people are named, then the notification is stored with them in order and relayed as a job naming them, not subscriptions', async () => {
    await relayed();
    const { id } = await create({ externalIds: ['user-2', 'Ana María', 'user-1'], ...content, transactional: true });
    const { rows } = await h.pool.query(`SELECT subscription_ids::text[] AS s, external_ids AS e FROM campaign.notifications WHERE id = $1`, [id]);
    expect(rows[0]).to.deep.equal({ s: [], e: ['user-2', 'Ana María', 'user-1'] });
    const jobs = (await relayed()).filter((m) => m.campaignId === id);
    expect(jobs).to.have.length(1);
    expect(jobs[0]).to.deep.include({ notification: { externalIds: ['user-2', 'Ana María', 'user-1'] }, ignoreFrequencyCap: true, audience: [] });
  });

  it('when another feature stores a notification to one person in its own transaction, then it is there with its job only if that transaction commits', async () => {
    await relayed();
    const input = validateNotificationInput({ externalIds: ['user-9'], ...content });
    const rolledBack = await withTransaction(h.pool, async (tx) => {
      const id = await storeNotification(tx, site.siteId, input);
      await tx.query('SELECT 1/0');
      return id;
    }).catch(() => null);
    expect(rolledBack).to.equal(null);
    const id = await withTransaction(h.pool, (tx) => storeNotification(tx, site.siteId, input));
    const jobs = await relayed();
    expect(jobs.map((m) => [m.campaignId, m.notification])).to.deep.equal([[id, { externalIds: ['user-9'] }]]);
  });

  it('when the targets are wrong, then 400 names what is wrong and nothing is stored', async () => {
    const before = await stored();
    const refusals: [unknown, string][] = [
      [{ ...content }, 'A notification names either subscriptionIds or externalIds (exactly one of them)'],
      [{ externalIds: ['a'], subscriptionIds: ['3f1e7c52-9a0b-4c1d-8e2f-5a6b7c8d9e01'], ...content }, 'A notification names either subscriptionIds or externalIds (exactly one of them)'],
      [{ externalIds: null, ...content }, 'externalIds must be a non-empty array of external ids'],
      [{ externalIds: Array.from({ length: 10_001 }, (_, i) => `u${i}`), ...content }, 'externalIds may name at most 10000 people'],
      [{ externalIds: ['ok', '\u0085next-line'], ...content }, 'externalIds must contain only external ids: strings of 1 to 128 characters without control characters'],
      [{ externalIds: ['\ud800'], ...content }, 'externalIds must not contain NUL characters or unpaired surrogates'],
      [{ externalIds: ['nul\u0000'], ...content }, 'externalIds must contain only external ids: strings of 1 to 128 characters without control characters'],
      [{ externalIds: ['😀'.repeat(128)], ...content, title: 'x' }, 'Title must be between 3 and 100 characters'],
      [{ externalIds: ['User', 'User'], ...content }, 'externalIds must not name a person twice'],
      [{ externalIds: [], subscriptionIds: [], ...content }, 'A notification names either subscriptionIds or externalIds (exactly one of them)'],
    ];
    for (const [body, message] of refusals) await expectStatus(create(body), grpc.status.INVALID_ARGUMENT, message);
    // Ids are compared exactly: two spellings are two people.
    await create({ externalIds: ['User', 'user'], ...content });
    expect(await stored()).to.equal(before + 1);
  });

  it('when both lists are given and one is empty (as Java\'s generated client sends them), then the other one names whom', async () => {
    await relayed();
    const { id } = await create({ externalIds: ['user-3'], subscriptionIds: [], ...content });
    const bySubscription = await create({ subscriptionIds: ['3f1e7c52-9a0b-4c1d-8e2f-5a6b7c8d9e01'], externalIds: [], ...content });
    const { rows } = await h.pool.query(`SELECT id, subscription_ids::text[] AS s, external_ids AS e FROM campaign.notifications WHERE id = ANY($1::uuid[]) ORDER BY id = $2 DESC`, [[id, bySubscription.id], id]);
    expect(rows.map((r) => [r.s, r.e])).to.deep.equal([[[], ['user-3']], [['3f1e7c52-9a0b-4c1d-8e2f-5a6b7c8d9e01'], []]]);
  });
});
