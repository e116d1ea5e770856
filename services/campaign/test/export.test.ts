// Campaign results export (campaigns/export-campaigns.ts): every campaign the list's filters select,
// in the list's order and objects, across keyset pages; validation before any chunk.
import { expect } from 'chai';
import { exportCampaignsUseCase } from '../src/campaigns/export-campaigns.js';
import { ValidationError } from '../src/base/errors.js';
import { MESSAGES } from '../src/base/texts.js';
import { listCampaigns, startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('ExportCampaigns', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness('campaign_export');
  });
  after(async () => h?.stop());

  const create = async (site: TestSite, overrides: Record<string, unknown> = {}) =>
    (await h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(validCampaign(overrides)), idempotencyKey: '' })).id;
  const text = async (chunks: AsyncIterable<Buffer>) => {
    const all: Buffer[] = [];
    for await (const c of chunks) all.push(c);
    return { chunks: all.length, text: Buffer.concat(all).toString() };
  };

  it('pages through every campaign the filters select, each line the object the list shows', async () => {
    const site = await h.newSite();
    for (let i = 0; i < 20; i++) await create(site, { title: `Campaign ${i}`, status: i % 4 === 0 ? 'draft' : 'published' });
    const exportCampaigns = exportCampaignsUseCase({ pool: h.pool, pageSize: 7 });
    const all = await text(exportCampaigns(site.siteId, '{}', ''));
    expect(all.chunks).to.equal(3);
    const listed = await listCampaigns(h, site.siteId, JSON.stringify({ limit: 60 }));
    expect(all.text.trim().split('\n').map((l) => JSON.parse(l))).to.deep.equal(listed.items);
    const drafts = await text(exportCampaigns(site.siteId, JSON.stringify({ status: ['draft'], limit: 1, cursor: null }), 'ndjson'));
    expect(drafts.text.trim().split('\n')).to.have.length(5);
  });

  it('CSV: a header and one row per campaign with its counts, titles quoted and defused', async () => {
    const site = await h.newSite();
    await create(site, { title: '=HYPERLINK("x"), "quoted"', status: 'draft' });
    const csv = (await text(exportCampaignsUseCase({ pool: h.pool })(site.siteId, '{}', 'csv'))).text.split('\r\n');
    expect(csv[0]).to.equal('id,title,status,scheduleMode,createdAt,scheduleDate,totalUsers,impressions,clicks,ctr,its,sent,failed,expired,pending,capped');
    // (A draft sent "now" shows its creation time as scheduleDate, as the list does.)
    expect(csv[1], csv[1]).to.match(/^[0-9a-f-]{36},"'=HYPERLINK\(""x""\), ""quoted""",draft,now,(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ),\1,0,0,0,0,0,0,0,0,0,0$/);
    expect(csv).to.have.length(3);
  });

  it('refuses a wrong format or filter before any chunk, with the list\'s messages', () => {
    const exportCampaigns = exportCampaignsUseCase({ pool: h.pool });
    const refusal = (body: string, format: string) => {
      try {
        exportCampaigns('00000000-0000-4000-8000-000000000001', body, format);
      } catch (err) {
        return err;
      }
      return null;
    };
    const err = refusal(JSON.stringify({ status: ['bogus'] }), 'xml');
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).messages).to.deep.equal([MESSAGES.exportFormat, 'Invalid status values: bogus. Allowed: draft, scheduled, sent, failed']);
    expect((refusal('[1]', 'csv') as ValidationError).messages).to.deep.equal([MESSAGES.invalidJson]);
  });
});
