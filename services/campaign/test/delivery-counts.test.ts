// The campaign's `delivery` counts (issue 11, defect 6): kept from the delivery service's stats
// events like the other counters (greatest value wins, older events without the new fields
// change nothing), shown on get and on list items after every field the spec states; pending
// counts what a published campaign planned and has no outcome yet (issue 34).
import { expect } from 'chai';
import { applyStats } from '../src/stats/stats-store.js';
import { getCampaign, listCampaigns, startHarness, validCampaign, type Harness, statsMessage, type TestSite } from './support/harness.js';
import type { CreateCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/CreateCampaignResponse.js';

const ZERO = { sent: 0, failed: 0, expired: 0, pending: 0, failedBy: { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 } };

describe('delivery counts on the campaign', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('delivery_counts');
    site = await h.newSite({ subscribers: [{ count: 5, topics: ['sports'], countries: [] }] });
  });
  after(async () => h?.stop());

  const create = async (overrides: Record<string, unknown>) =>
    (await h.call<CreateCampaignResponse__Output>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign(overrides)) })).id;
  const delivery = async (id: string) => (await getCampaign(h, site.siteId, id)).delivery;

  it('when a campaign is a draft, then every count is 0 and the spec fields are as before; published but not yet taken by delivery, every push is pending', async () => {
    const draft = await create({ topics: ['sports'] });
    const c = await getCampaign(h, site.siteId, draft);
    expect(c.delivery).to.deep.equal(ZERO);
    expect(Object.keys(c).slice(-2)).to.deep.equal(['analytics', 'delivery']);
    expect(c.analytics).to.deep.equal({ clicks: 0, impressions: 0, ctr: 0, its: 0, totalUsers: 5 });
    const now = await create({ topics: ['sports'], status: 'published' });
    expect(await delivery(now)).to.deep.equal({ ...ZERO, pending: 5 });
    const later = await create({ topics: ['sports'], status: 'published', scheduleMode: 'scheduled', scheduleDate: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await delivery(later)).to.deep.equal({ ...ZERO, pending: 5 });
  });

  it('when the run has taken only part of the audience (a throttle, an A/B rest, local-time groups to come), then pending counts the rest of totalUsers until the run finishes', async () => {
    const id = await create({ topics: ['sports'], status: 'published' });
    // Two taken so far, one of them sent and one capped: three are still to come.
    await applyStats(h.pool, [statsMessage(id, { audience: 2, sent: 1, capped: 1 })]);
    expect(await delivery(id)).to.deep.include({ sent: 1, pending: 3, capped: 1 });
    // More subscribers joined since the create: the run's audience is what is planned.
    await applyStats(h.pool, [statsMessage(id, { audience: 7, sent: 4, capped: 1 })]);
    expect(await delivery(id)).to.deep.include({ sent: 4, pending: 2 });
    // Finished with fewer than planned (some left meanwhile): nothing is pending.
    await applyStats(h.pool, [statsMessage(id, { audience: 7, sent: 5, capped: 1, state: 'completed' })]);
    expect(await delivery(id)).to.deep.include({ sent: 5, pending: 0 });
  });

  it('when delivery reports progress, then pending is what it took and has not finished; once finished, 0', async () => {
    const id = await create({ topics: ['sports'], status: 'published' });
    await applyStats(h.pool, [statsMessage(id, { audience: 5, sent: 1 })]);
    expect(await delivery(id)).to.deep.equal({ ...ZERO, sent: 1, pending: 4 });
    await applyStats(h.pool, [statsMessage(id, { audience: 5, sent: 2, failed: 1, expired: 1, failedBy: { rejected: 0, unauthorized: 1, unreachable: 0, refused: 0 } })]);
    expect(await delivery(id)).to.deep.equal({ sent: 2, failed: 1, expired: 1, pending: 1, failedBy: { rejected: 0, unauthorized: 1, unreachable: 0, refused: 0 } });
    // An older event arriving late lowers nothing.
    await applyStats(h.pool, [statsMessage(id, { audience: 5, sent: 1 })]);
    expect((await delivery(id)).sent).to.equal(2);
    // Completed with one subscriber never pushed (it unsubscribed meanwhile): nothing is pending.
    await applyStats(h.pool, [statsMessage(id, { audience: 5, sent: 3, failed: 1, expired: 1, state: 'completed', failedBy: { rejected: 0, unauthorized: 1, unreachable: 0, refused: 0 } })]);
    expect(await delivery(id)).to.deep.equal({ sent: 3, failed: 1, expired: 1, pending: 0, failedBy: { rejected: 0, unauthorized: 1, unreachable: 0, refused: 0 } });
    // A late 'sending' event does not reopen it.
    await applyStats(h.pool, [statsMessage(id, { audience: 5, sent: 3 })]);
    expect((await delivery(id)).pending).to.equal(0);
  });

  it('when an event has no audience or failedBy (an older delivery service), then what is stored stays', async () => {
    const id = await create({ topics: ['sports'], status: 'published' });
    await applyStats(h.pool, [statsMessage(id, { audience: 5, failed: 2, failedBy: { rejected: 1, unauthorized: 0, unreachable: 1, refused: 0 } })]);
    await applyStats(h.pool, [statsMessage(id, { failed: 3, sent: 1 })]);
    expect(await delivery(id)).to.deep.equal({ sent: 1, failed: 3, expired: 0, pending: 1, failedBy: { rejected: 1, unauthorized: 0, unreachable: 1, refused: 0 } });
  });

  it('when one batch holds several events of a campaign, in any order, then the greatest of each count wins', async () => {
    const id = await create({ topics: ['sports'], status: 'published' });
    await applyStats(h.pool, [
      statsMessage(id, { audience: 5, sent: 4, failedBy: { rejected: 0, unauthorized: 0, unreachable: 1, refused: 0 }, failed: 1 }),
      statsMessage(id, { audience: 3, sent: 1 }),
      statsMessage(id, { audience: 5, sent: 2, failedBy: { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 } }),
    ]);
    expect(await delivery(id)).to.deep.equal({ sent: 4, failed: 1, expired: 0, pending: 0, failedBy: { rejected: 0, unauthorized: 0, unreachable: 1, refused: 0 } });
  });

  it('when a campaign cannot be sent at all, then it is failed with nothing pending', async () => {
    const id = await create({ topics: ['sports'], status: 'published' });
    await applyStats(h.pool, [statsMessage(id, { state: 'failed', reason: 'the site has no VAPID keys in the delivery service' })]);
    const c = await getCampaign(h, site.siteId, id);
    expect(c.status).to.equal('failed');
    expect(c.delivery).to.deep.equal(ZERO);
  });

  it('when campaigns are listed, then each item carries its own delivery counts', async () => {
    const other = await h.newSite();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await h.call<CreateCampaignResponse__Output>('CreateCampaign', {
        siteId: other.siteId,
        bodyJson: JSON.stringify(validCampaign({ topics: ['news'], status: 'published' })),
      });
      await applyStats(h.pool, [statsMessage(id, { audience: 10, sent: i, failed: i, failedBy: { rejected: i, unauthorized: 0, unreachable: 0, refused: 0 } })]);
      ids.push(id);
    }
    const page = await listCampaigns(h, other.siteId, JSON.stringify({ limit: 10 }));
    const byId = new Map(page.items.map((c) => [c.id, c.delivery]));
    ids.forEach((id, i) => expect(byId.get(id)).to.deep.equal({ sent: i, failed: i, expired: 0, pending: 10 - 2 * i, failedBy: { rejected: i, unauthorized: 0, unreachable: 0, refused: 0 } }));
  });
});
