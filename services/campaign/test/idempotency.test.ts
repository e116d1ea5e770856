import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { expectStatus, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('CreateCampaign with an Idempotency-Key', function () {
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_idempotency');
    site = await h.newSite();
  });
  after(async () => h?.stop());

  const create = (bodyJson: string, key: string, siteId = site.siteId) => h.call<{ id: string }>('CreateCampaign', { siteId, bodyJson, idempotencyKey: key });
  const count = async (siteId = site.siteId) => Number((await h.pool.query('SELECT count(*) FROM campaign.campaigns WHERE site_id = $1', [siteId])).rows[0].count);

  it('when the same body is sent again (keys reordered, other spacing), then the same id and nothing new', async () => {
    const before = await count();
    const first = await create(JSON.stringify(validCampaign({ status: 'published' })), 'same-body');
    const again = await create(JSON.stringify({ ...validCampaign({ status: 'published' }) }, null, 2), 'same-body');
    const reordered = await create(JSON.stringify(Object.fromEntries(Object.entries(validCampaign({ status: 'published' })).reverse())), 'same-body');
    expect(again.id).to.equal(first.id);
    expect(reordered.id).to.equal(first.id);
    expect(await count()).to.equal(before + 1);
    const outbox = await h.pool.query('SELECT count(*) FROM campaign.outbox WHERE campaign_id = $1', [first.id]);
    expect(Number(outbox.rows[0].count)).to.equal(1);
  });

  it('when the key is reused with another body, then ALREADY_EXISTS and nothing new', async () => {
    await create(JSON.stringify(validCampaign()), 'other-body');
    const before = await count();
    await expectStatus(
      create(JSON.stringify(validCampaign({ title: 'Another title' })), 'other-body'),
      grpc.status.ALREADY_EXISTS,
      'Idempotency-Key was already used with a different request body',
    );
    expect(await count()).to.equal(before);
  });

  it('when 20 requests with the same key race, then exactly one campaign is created and all get its id', async () => {
    const before = await count();
    const body = JSON.stringify(validCampaign({ status: 'published' }));
    const results = await Promise.all(Array.from({ length: 20 }, () => create(body, 'race-key')));
    expect(new Set(results.map((r) => r.id)).size).to.equal(1);
    expect(await count()).to.equal(before + 1);
    const outbox = await h.pool.query('SELECT count(*) FROM campaign.outbox WHERE campaign_id = $1', [results[0].id]);
    expect(Number(outbox.rows[0].count)).to.equal(1);
  });

  it('when another site uses the same key, then it gets its own campaign', async () => {
    const other = await h.newSite();
    const body = JSON.stringify(validCampaign());
    const mine = await create(body, 'shared-key');
    const theirs = await create(body, 'shared-key', other.siteId);
    expect(theirs.id).to.not.equal(mine.id);
  });

  it('when a request fails validation, then the key stays free', async () => {
    await expectStatus(create(JSON.stringify(validCampaign({ title: 'x' })), 'after-failure'), grpc.status.INVALID_ARGUMENT, 'Title must be between 3 and 100 characters');
    const ok = await create(JSON.stringify(validCampaign({ body: 'A different body' })), 'after-failure');
    expect(ok.id).to.be.a('string');
  });

  it('when the stored key is older than 24 hours, then it is treated as free', async () => {
    const first = await create(JSON.stringify(validCampaign()), 'old-key');
    await h.pool.query(`UPDATE campaign.idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-key'`);
    const second = await create(JSON.stringify(validCampaign({ title: 'Brand new' })), 'old-key');
    expect(second.id).to.not.equal(first.id);
    const stored = await h.pool.query(`SELECT campaign_id FROM campaign.idempotency_keys WHERE key = 'old-key' AND site_id = $1`, [site.siteId]);
    expect(stored.rows[0].campaign_id).to.equal(second.id);
  });

  it('when the key is not 1 to 255 visible ASCII characters, then INVALID_ARGUMENT', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'ключ', 'tab\t']) {
      await expectStatus(create(JSON.stringify(validCampaign()), key), grpc.status.INVALID_ARGUMENT, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
  });
});
