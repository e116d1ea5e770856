// GET/DELETE /v2/campaign/{id} and the move of scheduled campaigns to sent.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ALL, inSeconds, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

describe('e2e: getting, deleting and scheduling campaigns', function () {
  this.timeout(120_000);
  let stack: Stack;
  let site: SiteInfo;
  let other: SiteInfo;
  const create = async (overrides: Record<string, unknown>, key = site.apiKey) => {
    const res = await stack.api.request('POST', '/v2/campaign/create', { key, body: validCampaign(overrides) });
    expect(res.status, res.text).to.equal(200);
    return res.body.id as string;
  };
  const get = (id: string, key = site.apiKey) => stack.api.request('GET', `/v2/campaign/${encodeURIComponent(id)}`, { key });
  const del = (id: string, key = site.apiKey) => stack.api.request('DELETE', `/v2/campaign/${encodeURIComponent(id)}`, { key });
  const listIds = async (status: string) =>
    (await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { status: [status], limit: 60 } })).body.items.map((c: { id: string }) => c.id);

  before(async () => {
    stack = await startStack('e2e_delete');
    site = await siteWithPermissions(stack, ALL, 'deleter');
    other = await siteWithPermissions(stack, ALL, 'intruder');
  });
  after(async () => {
    await stack?.stop();
  });

  it('when a draft is deleted, then 200 {id, deleted: true} and it is gone', async () => {
    const id = await create({ status: 'draft' });
    const res = await del(id);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ id, deleted: true });
    expect((await get(id)).body).to.deep.equal({ message: 'Campaign not found' });
    expect((await del(id)).status).to.equal(404);
  });

  it('when a campaign scheduled for the future is deleted, then it is removed and never sent', async () => {
    const id = await create({ status: 'published', scheduleMode: 'scheduled', scheduleDate: inSeconds(2) });
    expect((await del(id)).body).to.deep.equal({ id, deleted: true });
    await new Promise((r) => setTimeout(r, 3000));
    expect(await listIds('sent')).to.not.include(id);
    expect((await get(id)).status).to.equal(404);
  });

  it('when a published campaign was sent now, then delete answers 409 and nothing is deleted', async () => {
    const id = await create({ status: 'published', scheduleMode: 'now' });
    const res = await del(id);
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ message: 'Cannot delete a campaign that has already been sent' });
    expect((await get(id)).status).to.equal(200);
  });

  it('when the schedule date comes, then the campaign moves from scheduled to sent and can no longer be deleted', async () => {
    const id = await create({ status: 'published', scheduleMode: 'scheduled', scheduleDate: inSeconds(2) });
    expect(await listIds('scheduled')).to.include(id);
    await eventually(async () => ((await listIds('sent')).includes(id) ? true : undefined), 15_000, 250);
    expect(await listIds('scheduled')).to.not.include(id);
    expect((await get(id)).body.status).to.equal('published');
    expect((await del(id)).status).to.equal(409);
  });

  it('when a draft carries a schedule, then it is never sent', async () => {
    const id = await create({ status: 'draft', scheduleMode: 'scheduled', scheduleDate: inSeconds(1) });
    await new Promise((r) => setTimeout(r, 2000));
    expect(await listIds('draft')).to.include(id);
    expect(await listIds('sent')).to.not.include(id);
    expect((await del(id)).status).to.equal(200);
  });

  it('when an id is unknown, malformed or of another site, then get and delete answer 404 Campaign not found', async () => {
    const foreign = await create({ status: 'draft' }, other.apiKey);
    for (const id of [randomUUID(), 'abc', '1 OR 1=1', 'x'.repeat(500), foreign, '00000000-0000-0000-0000-000000000000', foreign.toUpperCase()]) {
      for (const res of [await get(id), await del(id)]) {
        expect(res.status, id).to.equal(404);
        expect(res.body).to.deep.equal({ message: 'Campaign not found' });
      }
    }
    expect((await get(foreign, other.apiKey)).status).to.equal(200);
  });

  it('when the id is missing from the URL, then 400 campaignId is required', async () => {
    for (const method of ['GET', 'DELETE']) {
      for (const path of ['/v2/campaign/', '/v2/campaign']) {
        const res = await stack.api.request(method, path, { key: site.apiKey });
        expect(res.status, `${method} ${path}`).to.equal(400);
        expect(res.body).to.deep.equal({ message: 'campaignId is required' });
      }
    }
  });
});
