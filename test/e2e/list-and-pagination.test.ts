// POST /v2/campaigns: filters, ordering, limits, cursors.
import { expect } from 'chai';
import { ALL, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

type Campaign = { id: string; status: string; createdAt: string; scheduleDate: string };

describe('e2e: listing campaigns', function () {
  this.timeout(180_000);
  let stack: Stack;
  let site: SiteInfo;
  let other: SiteInfo;
  const created: Record<'draft' | 'sent' | 'scheduled' | 'failed', string[]> = { draft: [], sent: [], scheduled: [], failed: [] };
  const list = (body: unknown, key = site.apiKey) => stack.api.request('POST', '/v2/campaigns', { key, body });

  before(async () => {
    stack = await startStack('e2e_list');
    site = await siteWithPermissions(stack, ALL, 'lister');
    other = await siteWithPermissions(stack, ALL, 'other');
    // 28 campaigns of four kinds; scheduled ones spread over future dates.
    for (let i = 0; i < 7; i++) {
      const mk = async (overrides: Record<string, unknown>) => {
        const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ title: `Campaign ${i}`, ...overrides }) });
        expect(res.status, res.text).to.equal(200);
        return res.body.id as string;
      };
      created.draft.push(await mk({ status: 'draft' }));
      created.sent.push(await mk({ status: 'published', scheduleMode: 'now' }));
      created.scheduled.push(await mk({ status: 'published', scheduleMode: 'scheduled', scheduleDate: `2032-0${i + 1}-15T12:00:00Z` }));
      created.failed.push(await mk({ status: 'failed' }));
    }
    await stack.api.request('POST', '/v2/campaign/create', { key: other.apiKey, body: validCampaign({ title: 'Other site' }) });
  });
  after(async () => {
    await stack?.stop();
  });

  it('when the body is empty, then the 10 most recently created campaigns come back', async () => {
    const res = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.limit).to.equal(10);
    expect(res.body.items).to.have.length(10);
    expect(res.body.hasMore).to.equal(true);
    expect(res.body.nextCursor).to.be.a('string');
    const dates = res.body.items.map((c: Campaign) => c.createdAt);
    expect([...dates].sort().reverse()).to.deep.equal(dates);
    expect(res.body.items[0].id).to.equal(created.failed[6]);
  });

  it('when limit is above 60, then 60 are considered and the response says 60', async () => {
    const res = await list({ limit: 500 });
    expect(res.body.limit).to.equal(60);
    expect(res.body.items).to.have.length(28);
    expect(res.body.hasMore).to.equal(false);
    expect(res.body.nextCursor).to.equal(null);
  });

  for (const status of ['draft', 'sent', 'scheduled', 'failed'] as const) {
    it(`when filtering by status ${status}, then exactly those campaigns come back`, async () => {
      const res = await list({ status: [status], limit: 60 });
      expect(res.body.items.map((c: Campaign) => c.id).sort()).to.deep.equal([...created[status]].sort());
    });
  }

  it('when filtering by several statuses, then the union comes back', async () => {
    const res = await list({ status: ['draft', 'failed'], limit: 60 });
    expect(res.body.items).to.have.length(14);
  });

  it('when ordering by scheduleDate within a period, then only that period comes back, newest first', async () => {
    const res = await list({ dateField: 'scheduleDate', startDate: '2032-02-01T00:00:00Z', endDate: '2032-05-15T12:00:00Z', limit: 60 });
    expect(res.body.items.map((c: Campaign) => c.scheduleDate)).to.deep.equal([
      '2032-05-15T12:00:00Z', '2032-04-15T12:00:00Z', '2032-03-15T12:00:00Z', '2032-02-15T12:00:00Z',
    ]);
  });

  it('when the period is on createdAt and ends before everything, then nothing comes back', async () => {
    const res = await list({ startDate: '2020-01-01T00:00:00Z', endDate: '2020-12-31T23:59:59Z' });
    expect(res.body).to.deep.equal({ items: [], limit: 10, hasMore: false, nextCursor: null });
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['limit 0', { limit: 0 }, 'limit must be a positive number'],
    ['negative limit', { limit: -5 }, 'limit must be a positive number'],
    ['limit as a string', { limit: '10' }, 'limit must be a positive number'],
    ['bad startDate', { startDate: '2026-13-01T00:00:00Z' }, 'Invalid startDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)'],
    ['bad endDate', { endDate: 'yesterday' }, 'Invalid endDate format. Use ISO format (e.g. 2025-01-01T12:00:00Z)'],
    ['inverted period', { startDate: '2026-02-01T00:00:00Z', endDate: '2026-01-01T00:00:00Z' }, 'startDate must be less than or equal to endDate'],
    ['bad dateField', { dateField: 'updatedAt' }, 'dateField must be createdAt or scheduleDate'],
    ['unknown statuses', { status: ['foo', 'sent', 'bar'] }, 'Invalid status values: foo, bar. Allowed: draft, scheduled, sent, failed'],
    ['empty cursor', { cursor: '' }, 'cursor must be a non-empty string'],
    ['cursor not a string', { cursor: 42 }, 'cursor must be a non-empty string'],
    ['garbage cursor', { cursor: 'abc.def' }, 'Invalid pagination cursor'],
  ];
  for (const [label, body, message] of bad) {
    it(`when ${label}, then 400 "${message}"`, async () => {
      const res = await list(body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.deep.equal({ message });
    });
  }

  it('when several list fields are wrong, then all messages are joined', async () => {
    const res = await list({ limit: 0, dateField: 'x', cursor: '' });
    expect(res.status).to.equal(400);
    expect(res.body.message.split(', ')).to.include.members(['limit must be a positive number', 'dateField must be createdAt or scheduleDate', 'cursor must be a non-empty string']);
  });

  it('when walking every page while new campaigns are created, then each existing campaign comes back exactly once', async () => {
    const all = new Set(Object.values(created).flat());
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await list({ limit: 4, status: ['draft', 'sent', 'scheduled', 'failed'], ...(cursor ? { cursor } : {}) });
      expect(res.status, res.text).to.equal(200);
      seen.push(...res.body.items.map((c: Campaign) => c.id));
      // Someone creates a campaign between two page requests.
      await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ title: `During walk ${page}` }) });
      if (!res.body.hasMore) {
        expect(res.body.nextCursor).to.equal(null);
        break;
      }
      cursor = res.body.nextCursor;
    }
    expect(new Set(seen).size).to.equal(seen.length);
    expect(seen.filter((id) => all.has(id))).to.have.length(all.size);
  });

  it('when a cursor is altered, reused with other filters or limit, or used by another site, then 400 Invalid pagination cursor', async () => {
    const first = await list({ limit: 5, dateField: 'createdAt' });
    const cursor: string = first.body.nextCursor;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const attempts: Array<[unknown, string]> = [
      [{ limit: 5, cursor: flip(cursor, 3) }, 'payload bit flip'],
      [{ limit: 5, cursor: flip(cursor, cursor.length - 2) }, 'mac bit flip'],
      [{ limit: 5, cursor: cursor.slice(0, -4) }, 'truncated'],
      [{ limit: 5, cursor: cursor + 'x' }, 'extended'],
      [{ limit: 6, cursor }, 'other limit'],
      [{ limit: 5, cursor, status: ['draft'] }, 'other status filter'],
      [{ limit: 5, cursor, dateField: 'scheduleDate' }, 'other date field'],
      [{ limit: 5, cursor, startDate: '2020-01-01T00:00:00Z' }, 'other period'],
    ];
    for (const [body, label] of attempts) {
      const res = await list(body);
      expect(res.status, label).to.equal(400);
      expect(res.body, label).to.deep.equal({ message: 'Invalid pagination cursor' });
    }
    const foreign = await list({ limit: 5, cursor }, other.apiKey);
    expect(foreign.status).to.equal(400);
    expect(foreign.body).to.deep.equal({ message: 'Invalid pagination cursor' });
    const ok = await list({ limit: 5, cursor });
    expect(ok.status).to.equal(200);
  });

  it('when another site lists, then it sees only its own campaign', async () => {
    const res = await list({ limit: 60 }, other.apiKey);
    expect(res.body.items.map((c: { title: string }) => c.title)).to.deep.equal(['Other site']);
  });
});
