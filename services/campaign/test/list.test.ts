import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import { expectStatus, listCampaigns, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('ListCampaigns', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness('campaign_list');
  });
  after(async () => h?.stop());

  const list = (site: TestSite, body: object = {}) => listCampaigns(h, site.siteId, JSON.stringify(body));
  const create = async (site: TestSite, overrides: Record<string, unknown> = {}) =>
    (await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign(overrides)), idempotencyKey: '' })).id;
  async function createMany(site: TestSite, n: number, overrides: (i: number) => Record<string, unknown> = () => ({})): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 10) ids.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => create(site, overrides(i + j))))));
    return ids;
  }
  const setDates = (id: string, createdAt: string, scheduleDate?: string) =>
    h.pool.query('UPDATE campaign.campaigns SET created_at = $2, schedule_date = COALESCE($3, schedule_date) WHERE id = $1', [id, createdAt, scheduleDate ?? null]);
  /** Expected order: date descending, ties by id descending (text order of the UUID = uuid order). */
  async function expectedOrder(site: TestSite, column: 'created_at' | 'schedule_date'): Promise<string[]> {
    const { rows } = await h.pool.query(`SELECT id FROM campaign.campaigns WHERE site_id = $1 ORDER BY ${column} DESC, id DESC`, [site.siteId]);
    return rows.map((r) => r.id);
  }

  it('when the body is empty, then the 10 most recently created come first and a cursor is given', async () => {
    const site = await h.newSite();
    await createMany(site, 12);
    const page = await list(site);
    expect(page.limit).to.equal(10);
    expect(page.items.map((c) => c.id)).to.deep.equal((await expectedOrder(site, 'created_at')).slice(0, 10));
    expect(page.hasMore).to.equal(true);
    expect(page.nextCursor).to.not.equal('');
    const rest = await list(site, { cursor: page.nextCursor });
    expect(rest.items).to.have.length(2);
    expect(rest.hasMore).to.equal(false);
    expect(rest.nextCursor).to.equal('');
  });

  it('when a site has no campaigns, then an empty page without a cursor', async () => {
    const site = await h.newSite();
    expect(await list(site)).to.deep.include({ items: [], limit: 10, hasMore: false, nextCursor: '' });
  });

  it('when ordering by createdAt or scheduleDate, then newest first with ties broken by id descending', async () => {
    const site = await h.newSite();
    const ids = await createMany(site, 9);
    for (const [i, id] of ids.entries()) {
      await setDates(id, `2025-01-0${1 + (i % 3)}T00:00:00Z`, `2026-0${1 + ((i * 2) % 4)}-01T00:00:00Z`);
    }
    expect((await list(site, { limit: 60 })).items.map((c) => c.id)).to.deep.equal(await expectedOrder(site, 'created_at'));
    expect((await list(site, { limit: 60, dateField: 'scheduleDate' })).items.map((c) => c.id)).to.deep.equal(await expectedOrder(site, 'schedule_date'));
  });

  it('when filtering by status, then draft, failed, scheduled and sent follow status and dispatch', async () => {
    const site = await h.newSite();
    const draft = await create(site, { status: 'draft' });
    const failed = await create(site, { status: 'failed' });
    const scheduled = await create(site, { status: 'published', scheduleMode: 'scheduled', scheduleDate: '2040-01-01T00:00:00Z' });
    const sent = await create(site, { status: 'published', scheduleMode: 'now' });
    const ids = async (status: unknown) => new Set((await list(site, { status })).items.map((c) => c.id));
    expect(await ids(['draft'])).to.deep.equal(new Set([draft]));
    expect(await ids('failed')).to.deep.equal(new Set([failed]));
    expect(await ids(['scheduled'])).to.deep.equal(new Set([scheduled]));
    expect(await ids(['sent'])).to.deep.equal(new Set([sent]));
    expect(await ids(['sent', 'draft'])).to.deep.equal(new Set([sent, draft]));
    expect(await ids([])).to.deep.equal(new Set([draft, failed, scheduled, sent]));
    const items = (await list(site, { status: ['sent', 'scheduled'] })).items;
    expect(items.every((c) => c.status === 'published')).to.equal(true);
  });

  it('when a period is given, then both ends are inclusive to the second on the chosen date field', async () => {
    const site = await h.newSite();
    const [a, b, c] = await createMany(site, 3);
    await setDates(a, '2025-03-01T10:00:00.400Z', '2025-06-01T00:00:00Z');
    await setDates(b, '2025-03-02T10:00:00.999Z', '2025-05-01T00:00:00Z');
    await setDates(c, '2025-03-03T10:00:00Z', '2025-04-01T00:00:00Z');
    const ids = async (body: object) => (await list(site, body)).items.map((x) => x.id);
    expect(await ids({ startDate: '2025-03-01T10:00:00Z', endDate: '2025-03-02T10:00:00Z' })).to.deep.equal([b, a]);
    expect(await ids({ startDate: '2025-03-01T10:00:01Z' })).to.deep.equal([c, b]);
    expect(await ids({ endDate: '2025-03-01T10:00:00Z' })).to.deep.equal([a]);
    expect(await ids({ dateField: 'scheduleDate', startDate: '2025-05-01T00:00:00Z' })).to.deep.equal([a, b]);
    expect(await ids({ dateField: 'scheduleDate', endDate: '2025-04-01T00:00:00Z' })).to.deep.equal([c]);
  });

  it('when limit is above 60, then 60 items at most and the response says 60', async () => {
    const site = await h.newSite();
    await createMany(site, 62);
    const page = await list(site, { limit: 1000 });
    expect(page.limit).to.equal(60);
    expect(page.items).to.have.length(60);
    expect(page.hasMore).to.equal(true);
    const next = await list(site, { limit: 60, cursor: page.nextCursor });
    expect(next.items).to.have.length(2);
  });

  it('computes analytics from the stored counters', async () => {
    const site = await h.newSite({ subscribers: [{ count: 8, topics: ['sports'], countries: ['br'] }] });
    const id = await create(site);
    await h.pool.query('UPDATE campaign.campaign_stats SET impressions = 3, clicks = 1 WHERE campaign_id = $1', [id]);
    const [item] = (await list(site)).items;
    expect(item.analytics).to.deep.equal({ clicks: 1, impressions: 3, ctr: 33.33, its: 37.5, totalUsers: 8 });
  });

  it('when another site lists, then it sees none of these campaigns', async () => {
    const mine = await h.newSite();
    await createMany(mine, 2);
    const other = await h.newSite();
    expect((await list(other)).items).to.have.length(0);
  });

  for (const dateField of ['createdAt', 'scheduleDate'] as const) {
    it(`when walking every page by ${dateField} while campaigns are created, then each original campaign appears exactly once`, async () => {
      const site = await h.newSite();
      const ids = await createMany(site, 75);
      // Many equal dates, so the id tie-break carries the walk.
      for (const [i, id] of ids.entries()) {
        await setDates(id, `2025-01-01T00:00:${String(i % 20).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`, `2030-01-01T00:00:${String(i % 15).padStart(2, '0')}Z`);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pageNo = 0; pageNo < 50; pageNo++) {
        const page = await list(site, { dateField, limit: 7, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((c) => c.id));
        await create(site, { status: 'published', scheduleMode: 'scheduled', scheduleDate: '2030-01-01T00:00:07Z' });
        if (!page.hasMore) break;
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size, 'no duplicates').to.equal(seen.length);
      const seenSet = new Set(seen);
      expect(ids.filter((id) => !seenSet.has(id)), 'none skipped').to.deep.equal([]);
    });
  }

  describe('cursor tampering', () => {
    let site: TestSite;
    let cursor: string;
    const filters = { limit: 3, status: ['draft'], dateField: 'createdAt' };
    const invalid = (body: object, s = site) => expectStatus(list(s, body), grpc.status.INVALID_ARGUMENT, 'Invalid pagination cursor');

    before(async () => {
      site = await h.newSite();
      await createMany(site, 8);
      cursor = (await list(site, filters)).nextCursor;
      expect(cursor).to.not.equal('');
    });

    it('when the cursor is unchanged with the same filters (status order aside), then the next page', async () => {
      const page = await list(site, { ...filters, status: ['draft', 'draft'], cursor });
      expect(page.items).to.have.length(3);
    });

    it('when any bit of the cursor is flipped, then "Invalid pagination cursor"', async () => {
      for (let i = 0; i < cursor.length; i += 3) {
        const flipped = cursor.slice(0, i) + String.fromCharCode(cursor.charCodeAt(i) ^ (1 << (i % 6))) + cursor.slice(i + 1);
        await invalid({ ...filters, cursor: flipped });
      }
    });

    it('when the cursor is truncated or extended, then "Invalid pagination cursor"', async () => {
      for (const c of [cursor.slice(0, -1), cursor.slice(0, 20), cursor.split('.')[0], cursor + 'A', `${cursor}.x`, 'garbage']) await invalid({ ...filters, cursor: c });
    });

    it('when another site uses the cursor, then "Invalid pagination cursor"', async () => {
      const other = await h.newSite();
      await invalid({ ...filters, cursor }, other);
    });

    it('when the filters or the limit differ, then "Invalid pagination cursor"', async () => {
      await invalid({ ...filters, status: ['draft', 'sent'], cursor });
      await invalid({ ...filters, dateField: 'scheduleDate', cursor });
      await invalid({ ...filters, startDate: '2020-01-01T00:00:00Z', cursor });
      await invalid({ ...filters, limit: 4, cursor });
      await invalid({ cursor });
    });
  });

  it('when list input is invalid, then INVALID_ARGUMENT with the joined messages', async () => {
    const site = await h.newSite();
    await expectStatus(list(site, { limit: 0, status: ['foo'] }), grpc.status.INVALID_ARGUMENT, 'limit must be a positive number, Invalid status values: foo. Allowed: draft, scheduled, sent, failed');
    await expectStatus(h.call('ListCampaigns', { siteId: site.siteId, bodyJson: '[]' }), grpc.status.INVALID_ARGUMENT, 'Invalid JSON body');
    const empty = await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId: site.siteId, bodyJson: '' });
    expect(empty.page!.limit).to.equal(10);
    expect(empty.items).to.deep.equal([]);
  });
});
