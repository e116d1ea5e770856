import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { createScheduler } from '../src/scheduler/scheduler.js';
import { createLogger } from '@webpush/shared/log.js';
import { expectStatus, getCampaign, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('GetCampaign and DeleteCampaign', function () {
  let h: Harness;
  let site: TestSite;
  let other: TestSite;

  before(async () => {
    h = await startHarness('campaign_get_delete');
    site = await h.newSite();
    other = await h.newSite();
  });
  after(async () => h?.stop());

  const create = async (overrides: Record<string, unknown> = {}) =>
    (await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign(overrides)), idempotencyKey: '' })).id;
  const get = (id: string, s = site) => getCampaign(h, s.siteId, id);
  const del = (id: string, s = site) => h.call<{ id: string; deleted: boolean }>('DeleteCampaign', { siteId: s.siteId, campaignId: id });
  const outboxCount = async (id: string) => Number((await h.pool.query('SELECT count(*) FROM campaign.outbox WHERE campaign_id = $1', [id])).rows[0].count);

  it("when another site asks for a campaign, then NOT_FOUND like a random id", async () => {
    const id = await create();
    await expectStatus(get(id, other), grpc.status.NOT_FOUND, 'Campaign not found');
    await expectStatus(del(id, other), grpc.status.NOT_FOUND, 'Campaign not found');
    await expectStatus(get('7d9f3c1e-0000-4000-8000-000000000000'), grpc.status.NOT_FOUND, 'Campaign not found');
    expect((await get(id)).id).to.equal(id);
  });

  it('when the id is not a UUID, then NOT_FOUND and never an internal error', async () => {
    for (const id of ['abc', '1', "' OR 1=1 --", '{7d9f3c1e-0000-4000-8000-000000000000}', '7d9f3c1e00004000800000000000000x', '']) {
      await expectStatus(get(id), grpc.status.NOT_FOUND, 'Campaign not found');
      await expectStatus(del(id), grpc.status.NOT_FOUND, 'Campaign not found');
    }
  });

  it('when a draft is deleted, then it is gone', async () => {
    const id = await create({ status: 'draft' });
    expect(await del(id)).to.deep.equal({ id, deleted: true });
    await expectStatus(get(id), grpc.status.NOT_FOUND, 'Campaign not found');
    await expectStatus(del(id), grpc.status.NOT_FOUND, 'Campaign not found');
  });

  it('when a failed campaign is deleted, then it is gone', async () => {
    const id = await create({ status: 'failed' });
    expect(await del(id)).to.deep.equal({ id, deleted: true });
  });

  it('when a scheduled campaign is deleted before its dispatch, then it is never dispatched', async () => {
    const id = await create({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2020-01-01T00:00:00Z' });
    expect(await del(id)).to.deep.equal({ id, deleted: true });
    const scheduler = createScheduler({ pool: h.pool, log: createLogger('test', 'error') }, { intervalMs: 1000, batchSize: 100 });
    await scheduler.tick();
    expect(await outboxCount(id)).to.equal(0);
  });

  it('when the campaign was already dispatched, then FAILED_PRECONDITION and it stays', async () => {
    const id = await create({ status: 'published', scheduleMode: 'now' });
    await expectStatus(del(id), grpc.status.FAILED_PRECONDITION, 'Cannot delete a campaign that has already been sent');
    expect((await get(id)).id).to.equal(id);
    expect(await outboxCount(id)).to.equal(1);
  });
});
