// UpdateDraft (the console's "Drafts", docs/console.md): a draft edited in place with a whole
// create body, kept a draft, published now (one dispatch job, in the edit's transaction) or
// scheduled; validated exactly as a create, its audience counted again and a local time's plan
// made at the edit; anything but a draft of the site refused (409, 404) with nothing written;
// racing edits, publishes and deletes leave exactly one outcome.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import { createCodecs } from '@webpush/contracts/messages.js';
import { createLogger } from '@webpush/shared/log.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { createScheduler } from '../src/scheduler/scheduler.js';
import { expectStatus, getCampaign, listCampaigns, rejection, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('UpdateDraft', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;
  const log = createLogger('test', 'error');

  before(async () => {
    h = await startHarness('campaign_update_draft');
    site = await h.newSite({
      subscribers: [
        { count: 7, topics: ['sports'], countries: ['br'] },
        { count: 5, topics: ['news'], countries: ['us'] },
      ],
    });
    other = await h.newSite();
  });
  after(async () => h?.stop());

  const create = async (overrides: Record<string, unknown> = {}, s = site) =>
    (await h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId: s.siteId, bodyJson: JSON.stringify(validCampaign(overrides)), idempotencyKey: '' })).id;
  const update = (id: string, body: unknown, s = site) =>
    h.call<CreateCampaignResponse__Output>('UpdateDraft', { siteId: s.siteId, campaignId: id, bodyJson: typeof body === 'string' ? body : JSON.stringify(body) });
  const get = (id: string) => getCampaign(h, site.siteId, id);
  const outboxCount = async (id: string) => Number((await h.pool.query('SELECT count(*) FROM campaign.outbox WHERE campaign_id = $1', [id])).rows[0].count);
  /** The stored row, every column: what an edit that is refused must leave as it was. */
  const row = async (id: string) => (await h.pool.query('SELECT * FROM campaign.campaigns WHERE id = $1', [id])).rows[0] as Record<string, unknown>;

  it('when a draft is edited and kept a draft, then every field is the new body\'s, its audience counted again, nothing dispatched', async () => {
    const id = await create({ topics: ['sports'] });
    expect((await get(id)).totalUsers).to.equal(7);
    const before = await get(id);
    const answer = await update(id, validCampaign({
      title: 'Edited title',
      body: 'Edited body text',
      link: 'https://shop.example/edited',
      topics: ['news'],
      countries: ['br'],
      icon: 'https://shop.example/icon.png',
      callToAction: 'Look',
      utmSource: 'push',
      ttl: 3600,
    }));
    expect(answer).to.deep.equal({ id, localTimeJson: '' });
    const c = await get(id);
    expect(c).to.deep.include({
      id,
      title: 'Edited title',
      body: 'Edited body text',
      link: 'https://shop.example/edited',
      topics: ['news', 'country__br'],
      status: 'draft',
      scheduleMode: 'now',
      // A draft "now" reads as its creation, as a create's does; the creation is the creation.
      scheduleDate: before.createdAt,
      createdAt: before.createdAt,
      updatedAt: null,
      icon: 'https://shop.example/icon.png',
      image: null,
      callToAction: 'Look',
      utmSource: 'push',
      ttl: 3600,
      // news (5) or br (7): 12 subscribers.
      totalUsers: 12,
    });
    expect(await outboxCount(id)).to.equal(0);
    expect((await row(id)).edited_at).to.be.instanceOf(Date);
  });

  it('when a draft is published to send now, then it is dispatched once, in the same transaction, and reads sent from the edit', async () => {
    const id = await create();
    await update(id, validCampaign({ title: 'Now it goes', status: 'published', scheduleMode: 'now' }));
    const c = await get(id);
    expect([c.status, c.title, c.scheduleMode]).to.deep.equal(['published', 'Now it goes', 'now']);
    const stored = await row(id);
    expect(stored.dispatched_at).to.be.instanceOf(Date);
    // Sent at the edit: the dispatch moment is its scheduleDate (not the draft's creation).
    expect(Date.parse(c.scheduleDate)).to.be.at.least(Date.parse(c.createdAt));
    expect(c.scheduleDate).to.equal(new Date(Math.floor((stored.dispatched_at as Date).getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(await outboxCount(id)).to.equal(1);
    const sent = await listCampaigns(h, site.siteId, JSON.stringify({ status: ['sent'], limit: 100 }));
    expect(sent.items.map((i) => i.id)).to.include(id);
    // No longer a draft: a second edit is refused, and nothing changes.
    const after = await row(id);
    await expectStatus(update(id, validCampaign({ title: 'Too late' })), grpc.status.FAILED_PRECONDITION, 'Only a draft can be edited');
    expect(await row(id)).to.deep.equal(after);
    expect(await outboxCount(id)).to.equal(1);
  });

  it('when a draft is scheduled, then the scheduler dispatches it at its date like a created scheduled campaign', async () => {
    const id = await create();
    await update(id, validCampaign({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-01-02T03:04:05Z' }));
    const c = await get(id);
    expect([c.status, c.scheduleMode, c.scheduleDate]).to.deep.equal(['published', 'scheduled', '2031-01-02T03:04:05Z']);
    expect(await outboxCount(id)).to.equal(0);
    expect((await listCampaigns(h, site.siteId, JSON.stringify({ status: ['scheduled'], limit: 100 }))).items.map((i) => i.id)).to.include(id);
    await h.pool.query(`UPDATE campaign.campaigns SET schedule_date = now() - interval '1 second' WHERE id = $1`, [id]);
    await createScheduler({ pool: h.pool, log }, { intervalMs: 1000, batchSize: 1000 }).tick();
    expect(await outboxCount(id)).to.equal(1);
  });

  it('when a local-time draft is published, then its plan is made at the edit and the dispatch message measures the groups from the edit', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const id = await create({ topics: ['sports'] });
    // A draft created a while ago: the plan and the dispatch must not be measured from then.
    await h.pool.query(`UPDATE campaign.campaigns SET created_at = created_at - interval '1 day' WHERE id = $1`, [id]);
    const res = await update(id, validCampaign({ topics: ['sports'], status: 'published', scheduleMode: 'scheduled', scheduleDate: `${today}T00:00:00Z`, localTime: '23:59' }));
    const plan = JSON.parse(res.localTimeJson) as { firstSendAt: string; sends: { users: number }[] };
    expect(plan.sends.reduce((n, g) => n + g.users, 0)).to.equal(7);
    const c = (await get(id)) as { localTime?: unknown; scheduleDate: string };
    expect(c.localTime).to.deep.equal(plan);
    expect(c.scheduleDate).to.equal(plan.firstSendAt);
    const editedAt = (await row(id)).edited_at as Date;
    await h.pool.query(`UPDATE campaign.campaigns SET schedule_date = now() - interval '1 second' WHERE id = $1`, [id]);
    await createScheduler({ pool: h.pool, log }, { intervalMs: 1000, batchSize: 1000 }).tick();
    const sent: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log, publish: async (_topic, messages) => void sent.push(...messages.map((m) => m.value)) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    const message = sent.map((v) => createCodecs().dispatch.decode(v)).find((m) => m.campaignId === id);
    expect(message?.localTime).to.deep.equal({ date: today, time: '23:59', createdAt: editedAt.toISOString() });
  });

  it('when the body is invalid, then the create\'s INVALID_ARGUMENT and messages, and the draft is as it was', async () => {
    const id = await create();
    const before = await row(id);
    await expectStatus(update(id, { ...validCampaign(), title: 'x', link: 'javascript:alert(1)', topics: [] }), grpc.status.INVALID_ARGUMENT,
      'Title must be between 3 and 100 characters, Link must be a valid URL, At least one topic or country must be specified');
    await expectStatus(update(id, validCampaign({ status: 'sent' })), grpc.status.INVALID_ARGUMENT, 'Invalid campaign status');
    await expectStatus(update(id, validCampaign({ scheduleMode: 'scheduled' })), grpc.status.INVALID_ARGUMENT, 'Schedule date is required for schedule mode');
    await expectStatus(update(id, validCampaign({ title: 'Hello\u0000' })), grpc.status.INVALID_ARGUMENT, 'Title must not contain NUL characters or unpaired surrogates');
    for (const body of ['', 'null', '[]', '"text"', '{', '{"title": 1}']) expect((await rejection(update(id, body))).code, body).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(await row(id)).to.deep.equal(before);
  });

  it("when the campaign is another site's, none, or not an id, then NOT_FOUND and nothing changes", async () => {
    const mine = await create();
    const theirs = await create({}, other);
    const before = await row(theirs);
    await expectStatus(update(theirs, validCampaign({ title: 'Not yours' })), grpc.status.NOT_FOUND, 'Campaign not found');
    expect(await row(theirs)).to.deep.equal(before);
    await expectStatus(update(mine, validCampaign(), other), grpc.status.NOT_FOUND, 'Campaign not found');
    for (const bad of ['7d9f3c1e-0000-4000-8000-000000000000', 'abc', "' OR 1=1 --", '']) {
      await expectStatus(update(bad, validCampaign()), grpc.status.NOT_FOUND, 'Campaign not found');
    }
    await expectStatus(h.call('UpdateDraft', { siteId: 'not-a-site', campaignId: mine, bodyJson: JSON.stringify(validCampaign()) }), grpc.status.NOT_FOUND, 'Campaign not found');
  });

  it('when the campaign is scheduled, failed or deleted, then it is not a draft: FAILED_PRECONDITION (NOT_FOUND once deleted)', async () => {
    const scheduled = await create({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-01-01T00:00:00Z' });
    const failed = await create({ status: 'failed' });
    for (const id of [scheduled, failed]) {
      const before = await row(id);
      await expectStatus(update(id, validCampaign()), grpc.status.FAILED_PRECONDITION, 'Only a draft can be edited');
      expect(await row(id)).to.deep.equal(before);
    }
    const gone = await create();
    await h.call('DeleteCampaign', { siteId: site.siteId, campaignId: gone });
    await expectStatus(update(gone, validCampaign()), grpc.status.NOT_FOUND, 'Campaign not found');
  });

  it('when two publishes of one draft race, then exactly one wins and the campaign is dispatched once', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await create();
      const outcomes = await Promise.allSettled([
        update(id, validCampaign({ title: 'First', status: 'published' })),
        update(id, validCampaign({ title: 'Second', status: 'published' })),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect([refused.reason.code, refused.reason.details]).to.deep.equal([grpc.status.FAILED_PRECONDITION, 'Only a draft can be edited']);
      expect(await outboxCount(id)).to.equal(1);
    }
  });

  it('when a publish races a delete, then either it is sent (and the delete refused) or it is gone (and the edit not found)', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await create();
      const [edit, del] = await Promise.allSettled([
        update(id, validCampaign({ status: 'published' })),
        h.call('DeleteCampaign', { siteId: site.siteId, campaignId: id }),
      ]);
      if (edit.status === 'fulfilled') {
        expect(del.status).to.equal('rejected');
        expect((del as PromiseRejectedResult).reason.code).to.equal(grpc.status.FAILED_PRECONDITION);
        expect(await outboxCount(id)).to.equal(1);
      } else {
        expect(del.status).to.equal('fulfilled');
        expect((edit as PromiseRejectedResult).reason.code).to.equal(grpc.status.NOT_FOUND);
        expect(await row(id)).to.equal(undefined);
      }
    }
  });

  it('when a draft was read (and its fixed fields could be cached) and is then edited, then every read shows the edit', async () => {
    const id = await create();
    expect((await get(id)).title).to.equal('Big sale');
    await listCampaigns(h, site.siteId, JSON.stringify({ limit: 100 }));
    await update(id, validCampaign({ title: 'After the read' }));
    expect((await get(id)).title).to.equal('After the read');
    expect((await listCampaigns(h, site.siteId, JSON.stringify({ limit: 100 }))).items.find((i) => i.id === id)?.title).to.equal('After the read');
    await update(id, validCampaign({ title: 'Published now', status: 'published' }));
    expect((await get(id)).title).to.equal('Published now');
    expect((await get(id)).title).to.equal('Published now');
  });
});
