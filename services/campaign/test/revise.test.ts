// ReviseCampaign (POST /v2/campaign/{campaignId}/update and /recall; docs/api-decisions.md,
// "Update and recall"): only a campaign that finished sending is revised; each revision is
// numbered after the last and handed to the delivery service through the outbox in the same
// transaction, as a version 2 dispatch job of its own id naming the campaign; a recall is final
// and a second one answers the first; anything refused writes nothing.
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';
import type { ReviseCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/ReviseCampaignResponse.js';
import { createCodecs, type DispatchMessage } from '@webpush/contracts/messages.js';
import { createLogger } from '@webpush/shared/log.js';
import { createOutboxRelay } from '../src/outbox/outbox-relay.js';
import { applyStats } from '../src/stats/stats-store.js';
import { expectStatus, rejection, startHarness, statsMessage, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('ReviseCampaign (update and recall)', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;
  const log = createLogger('test', 'error');

  before(async () => {
    h = await startHarness('campaign_revise');
    site = await h.newSite({ subscribers: [{ count: 3, topics: ['sports'], countries: ['br'] }] });
    other = await h.newSite();
  });
  after(async () => h?.stop());

  const create = async (overrides: Record<string, unknown> = {}) =>
    (await h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign({ status: 'published', ...overrides })), idempotencyKey: '' })).id;
  /** A campaign sent now whose run the delivery service reported finished. */
  const sent = async (overrides: Record<string, unknown> = {}) => {
    const id = await create(overrides);
    await applyStats(h.pool, [statsMessage(id, { sent: 3, state: 'completed' })]);
    return id;
  };
  const revise = (id: string, action: 'update' | 'recall', body: unknown = {}, s = site) =>
    h.call<ReviseCampaignResponse__Output>('ReviseCampaign', { siteId: s.siteId, campaignId: id, action, bodyJson: typeof body === 'string' ? body : JSON.stringify(body) });
  const revisionJobs = async (id: string) =>
    Number((await h.pool.query(`SELECT count(*) FROM campaign.outbox WHERE campaign_id = $1 AND kind = 'campaign.revision'`, [id])).rows[0].count);
  /** What the relay publishes now, decoded as the delivery service decodes it. */
  const relayed = async (): Promise<DispatchMessage[]> => {
    const values: Buffer[] = [];
    const relay = createOutboxRelay({ pool: h.pool, log, publish: async (_topic, messages) => void values.push(...messages.map((m) => m.value)) }, { intervalMs: 1000, batchSize: 1000 });
    await relay.publishBatch();
    return values.map((v) => createCodecs().dispatch.decode(v));
  };

  it('when a sent campaign is updated twice, then each revision is numbered after the last, merged with what the notification showed, and relayed as a job of its own naming the campaign', async () => {
    const id = await sent({ icon: 'https://shop.example/icon.png', ttl: 3600, utmSource: 'push' });
    await relayed();
    const first = await revise(id, 'update', { title: 'Bigger sale', image: 'https://shop.example/big.png' });
    expect(first).to.deep.include({ id, revision: 1, action: 'update' });
    expect(first.revisedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const second = await revise(id, 'update', { body: 'Everything 70% off today', icon: null });
    expect(second).to.deep.include({ id, revision: 2, action: 'update' });
    const jobs = (await relayed()).filter((m) => m.revision?.campaignId === id);
    expect(jobs.map((m) => m.revision)).to.deep.equal([
      { campaignId: id, number: 1, action: 'update' },
      { campaignId: id, number: 2, action: 'update' },
    ]);
    expect(jobs[0].version, 'never version 1, which the previous release would send to the whole audience').to.equal(2);
    expect(jobs[0].campaignId).to.not.equal(id);
    expect(jobs[0].campaignId).to.not.equal(jobs[1].campaignId);
    expect(jobs[0]).to.deep.include({ siteId: site.siteId, ttl: 3600, audience: [] });
    expect(jobs[0].content).to.deep.include({ title: 'Bigger sale', body: 'Everything half price today', icon: 'https://shop.example/icon.png', image: 'https://shop.example/big.png', utmSource: 'push' });
    expect(jobs[1].content).to.deep.include({ title: 'Bigger sale', body: 'Everything 70% off today', icon: null, image: 'https://shop.example/big.png' });
  });

  it('when a sent campaign is recalled, then once: a second recall answers the first and writes nothing; an update after it is refused', async () => {
    const id = await sent();
    await revise(id, 'update', { title: 'Corrected title' });
    const recall = await revise(id, 'recall', '');
    expect(recall).to.deep.include({ id, revision: 2, action: 'recall' });
    expect(await revise(id, 'recall')).to.deep.equal(recall);
    expect(await revisionJobs(id)).to.equal(2);
    await expectStatus(revise(id, 'update', { title: 'Again' }), grpc.status.FAILED_PRECONDITION, 'The campaign was recalled; it can no longer be updated');
    expect(await revisionJobs(id)).to.equal(2);
    const job = (await relayed()).find((m) => m.revision?.campaignId === id && m.revision.action === 'recall');
    expect(job?.revision).to.deep.equal({ campaignId: id, number: 2, action: 'recall' });
  });

  it('when the campaign is a draft, scheduled, or still sending, then FAILED_PRECONDITION with its message and nothing written', async () => {
    const draft = await create({ status: 'draft' });
    const scheduled = await create({ scheduleMode: 'scheduled', scheduleDate: '2099-01-01T00:00:00Z' });
    const sending = await create();
    await applyStats(h.pool, [statsMessage(sending, { sent: 1, state: 'sending' })]);
    for (const id of [draft, scheduled]) {
      await expectStatus(revise(id, 'recall'), grpc.status.FAILED_PRECONDITION, 'Only a sent campaign can be updated or recalled');
      await expectStatus(revise(id, 'update', { title: 'New title' }), grpc.status.FAILED_PRECONDITION, 'Only a sent campaign can be updated or recalled');
    }
    await expectStatus(revise(sending, 'update', { title: 'New title' }), grpc.status.FAILED_PRECONDITION, 'The campaign is still sending; it can be updated or recalled once it has finished');
    for (const id of [draft, scheduled, sending]) expect(await revisionJobs(id)).to.equal(0);
  });

  it('when the campaign is another site\'s, unknown or malformed, then NOT_FOUND as GetCampaign', async () => {
    const id = await sent();
    await expectStatus(revise(id, 'recall', {}, other), grpc.status.NOT_FOUND, 'Campaign not found');
    for (const odd of ['00000000-0000-4000-8000-000000000000', 'abc', "' OR 1=1 --"]) await expectStatus(revise(odd, 'recall'), grpc.status.NOT_FOUND, 'Campaign not found');
    expect(await revisionJobs(id)).to.equal(0);
  });

  it('when an update\'s fields are wrong, then the create\'s messages (all of them, in order), and nothing written', async () => {
    const id = await sent();
    await expectStatus(revise(id, 'update', {}), grpc.status.INVALID_ARGUMENT, 'At least one of title, body, link, icon or image must be given');
    await expectStatus(revise(id, 'update', { callToAction: 'Buy' }), grpc.status.INVALID_ARGUMENT, 'An update takes only title, body, link, icon and image');
    await expectStatus(revise(id, 'update', { title: 'x', body: 5, link: 'javascript:alert(1)', icon: 'http://shop.example/i.png', image: 'nope' }), grpc.status.INVALID_ARGUMENT,
      'Title must be between 3 and 100 characters, Body must be between 3 and 300 characters, Link must be a valid URL, Icon must be a valid URL, Image must be a valid URL');
    await expectStatus(revise(id, 'update', { title: 'Hello\u0000' }), grpc.status.INVALID_ARGUMENT, 'Title must not contain NUL characters or unpaired surrogates');
    await expectStatus(revise(id, 'update', { body: 'x'.repeat(300), title: 'y'.repeat(100), link: `https://shop.example/${'é'.repeat(1900)}` }), grpc.status.INVALID_ARGUMENT, 'Notification is too large to send (over 4096 bytes encrypted)');
    for (const body of ['null', '[]', '"text"', '{']) expect((await rejection(revise(id, 'update', body))).code, body).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(await revisionJobs(id)).to.equal(0);
  });
});
