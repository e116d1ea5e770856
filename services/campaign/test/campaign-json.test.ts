// The campaign JSON that the service builds from the row (src/campaigns/campaign-rows.ts) against the previous
// object-building path (test/support/reference-json.ts: the old query, view, proto message and
// gateway object, then JSON.stringify): byte for byte and field for field, for awkward text,
// null and empty images, and ctr/its rounding.
import { expect } from 'chai';
import { computeAnalytics, referenceCampaignJson } from './support/reference-json.js';
import { getCampaign, listCampaigns, startHarness, type Harness, type TestSite } from './support/harness.js';
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';

// Every character below U+0020, quotes, backslashes, slashes, DEL, U+2028/2029, non-BMP emoji
// with modifiers and ZWJ, combining marks, HTML-ish text and a lone "\u" sequence as plain text.
const CONTROL = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
const AWKWARD = [
  `Quote " and 'single' and \\ backslash \\\\ and \\" escaped`,
  `Emoji 👍🏽 👨‍👩‍👧‍👦 🇧🇷 and é (e + \u0301) and 中文 and 𝄞`,
  `Controls ${CONTROL} end`,
  `Line\nbreak\r\nand\ttab\b\f and \u007f DEL and \u2028 \u2029 separators`,
  `</script><b>&amp;</b> / slash \\u0041 not an escape`,
  '',
];

describe('campaign JSON built from the row', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;

  before(async () => {
    h = await startHarness('campaign_json');
    site = await h.newSite();
  });
  after(async () => h?.stop());

  /** Inserts a campaign directly (any text the column accepts) with the given counters. */
  async function insert(fields: Partial<Record<'title' | 'body' | 'link' | 'image' | 'icon' | 'call_to_action' | 'utm_source' | 'utm_medium' | 'utm_campaign', string | null>> & {
    topics?: string[];
    totalUsers?: number | string;
    impressions?: number | string;
    clicks?: number | string;
    stats?: boolean;
    status?: string;
    ttl?: number;
  }): Promise<string> {
    const { rows } = await h.pool.query<{ id: string }>(
      `INSERT INTO campaign.campaigns (site_id, title, body, link, topics, status, schedule_mode, schedule_date, created_at,
         total_users, image, icon, call_to_action, utm_source, utm_medium, utm_campaign, ttl)
       VALUES ($1, $2, $3, $4, $5, $6, 'scheduled', '2031-02-03T04:05:06.789Z', now() - random() * interval '1 day',
         $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING id`,
      [
        site.siteId,
        fields.title ?? 'Title',
        fields.body ?? 'Body',
        fields.link ?? 'https://shop.example/p?a=1&b="2"',
        fields.topics ?? ['news'],
        fields.status ?? 'draft',
        fields.totalUsers ?? 0,
        fields.image ?? null,
        fields.icon ?? null,
        fields.call_to_action ?? '',
        fields.utm_source ?? '',
        fields.utm_medium ?? '',
        fields.utm_campaign ?? '',
        fields.ttl ?? 2419200,
      ],
    );
    const id = rows[0].id;
    if (fields.stats !== false) {
      await h.pool.query('INSERT INTO campaign.campaign_stats (campaign_id, impressions, clicks) VALUES ($1, $2, $3)', [id, fields.impressions ?? 0, fields.clicks ?? 0]);
    }
    return id;
  }

  async function newJson(id: string): Promise<string> {
    const res = await h.call<GetCampaignResponse__Output>('GetCampaign', { siteId: site.siteId, campaignId: id });
    return res.campaignJson.toString('utf8');
  }

  /** Byte for byte, then field for field in key order (so a failure names the field). */
  async function expectSame(id: string): Promise<void> {
    const [actual, expected] = [await newJson(id), await referenceCampaignJson(h.pool, id)];
    const a = JSON.parse(actual) as Record<string, unknown>;
    const e = JSON.parse(expected) as Record<string, unknown>;
    expect(Object.keys(a)).to.deep.equal(Object.keys(e));
    for (const key of Object.keys(e)) expect(JSON.stringify(a[key]), key).to.equal(JSON.stringify(e[key]));
    expect(actual).to.equal(expected);
  }

  it('when text fields hold quotes, backslashes, control characters and emoji, then the bytes equal the old path', async () => {
    for (const text of AWKWARD) {
      const id = await insert({
        title: text,
        body: `${text}|${text}`,
        link: `https://x.example/${text}`,
        image: text === '' ? null : `https://img.example/${text}`,
        icon: text,
        call_to_action: text,
        utm_source: text,
        utm_medium: text.slice(0, 3),
        utm_campaign: text,
        topics: [text, 'news', `"${text}"`],
        totalUsers: 7,
        impressions: 3,
        clicks: 1,
      });
      await expectSame(id);
    }
  });

  it('when image or icon are null or empty, then null like the old path; an empty topic list is []', async () => {
    for (const [image, icon] of [[null, null], ['', ''], ['https://img.example/a.png', null], [null, 'https://img.example/i.png']] as const) {
      const id = await insert({ image, icon, topics: [] });
      await expectSame(id);
      const c = await getCampaign(h, site.siteId, id);
      expect([c.image, c.icon, c.updatedAt, c.topics, c.ttlUnit]).to.deep.equal([image || null, icon || null, null, [], 'seconds']);
    }
  });

  it('when counters give thirds, halves, zero bases or no stats row, then ctr and its round like the old path', async () => {
    // [totalUsers, impressions, clicks]
    const cases: [number, number, number][] = [
      [7, 3, 1], // ctr 33.33, its 42.86
      [3, 3, 2], // 66.67, 100
      [8, 3, 1], // 33.33, 37.5
      [0, 0, 0], // zero bases
      [0, 5, 5], // its on a zero base, ctr 100
      [10, 0, 4], // clicks without impressions: ctr 0
      [20000, 20000, 201], // 1.005 % → 1.01
      [200000, 200000, 1], // 0.0005 % → 0.01 (half up)
      [300000, 299999, 1], // 0.00033 % → 0
      [3, 2, 3], // more clicks than impressions: 150
      [1, 1, 1], // 100
      [6, 3, 1], // 33.33, 50
      [1_000_003, 999_999, 333_333], // 33.33, 100 → 99.99… rounds to 100
      [9_007_199, 8_000_000, 1_234_567], // large counters: 15.43, 88.82
    ];
    for (const [totalUsers, impressions, clicks] of cases) {
      const id = await insert({ totalUsers, impressions, clicks, status: 'published' });
      await expectSame(id);
      const c = await getCampaign(h, site.siteId, id);
      expect(c.analytics, JSON.stringify({ totalUsers, impressions, clicks })).to.deep.equal(computeAnalytics({ clicks, impressions, totalUsers }));
    }
    const noStats = await insert({ totalUsers: 5, stats: false });
    await expectSame(noStats);
  });

  it('computes ctr and its as the spec says: two decimals, half up, 0 on a zero base', async () => {
    const analytics = async (totalUsers: number, impressions: number, clicks: number) =>
      (await getCampaign(h, site.siteId, await insert({ totalUsers, impressions, clicks }))).analytics;
    expect(await analytics(7, 3, 1)).to.deep.equal({ clicks: 1, impressions: 3, ctr: 33.33, its: 42.86, totalUsers: 7 });
    expect(await analytics(3, 3, 2)).to.deep.include({ ctr: 66.67, its: 100 });
    expect(await analytics(0, 0, 5)).to.deep.include({ ctr: 0, its: 0 });
    expect((await analytics(20000, 20000, 201)).ctr).to.equal(1.01);
  });

  it('when a page is listed, then its items are the same bytes as the old path, in order', async () => {
    const other = await h.newSite();
    const ids: string[] = [];
    for (const [i, text] of AWKWARD.entries()) {
      const { rows } = await h.pool.query<{ id: string }>(
        `INSERT INTO campaign.campaigns (site_id, title, body, link, topics, status, schedule_mode, schedule_date, created_at, total_users, image, ttl)
         VALUES ($1, $2, $2, 'https://x.example', ARRAY['news'], 'published', 'now', now(), now() - $3 * interval '1 minute', 3, $4, 60) RETURNING id`,
        [other.siteId, text || 'empty', i, i % 2 ? null : 'https://img.example/x.png'],
      );
      await h.pool.query('INSERT INTO campaign.campaign_stats (campaign_id, impressions, clicks) VALUES ($1, 3, $2)', [rows[0].id, i % 3]);
      ids.push(rows[0].id);
    }
    const first = await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId: other.siteId, bodyJson: JSON.stringify({ limit: 4 }) });
    const second = await listCampaigns(h, other.siteId, JSON.stringify({ limit: 4, cursor: first.nextCursor }));
    const expected = await Promise.all(ids.map((id) => referenceCampaignJson(h.pool, id)));
    expect(first.itemsJson.toString('utf8')).to.equal(`[${expected.slice(0, 4).join(',')}]`);
    expect(second.items).to.deep.equal(expected.slice(4).map((t) => JSON.parse(t)));
    expect(JSON.stringify(second.items)).to.equal(`[${expected.slice(4).join(',')}]`);
  });

  it('when a campaign was read before (its content kept by the service), then later reads show its new status, counters and dates, the same bytes as the old path', async () => {
    const other = await h.newSite();
    const id = await insert({ title: AWKWARD[1], totalUsers: 9, impressions: 3, clicks: 1, status: 'published' });
    await h.pool.query('UPDATE campaign.campaigns SET site_id = $2 WHERE id = $1', [id, other.siteId]);
    const listed = async () => (await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId: other.siteId, bodyJson: '{}' })).itemsJson.toString('utf8');
    const got = async () => (await h.call<GetCampaignResponse__Output>('GetCampaign', { siteId: other.siteId, campaignId: id })).campaignJson.toString('utf8');
    expect(await listed()).to.equal(`[${await referenceCampaignJson(h.pool, id)}]`);
    expect(await got()).to.equal(await referenceCampaignJson(h.pool, id));
    // What changes after the insert: status, counters (the optional tails with them), and (in tests) the dates.
    await h.pool.query(`UPDATE campaign.campaigns SET status = 'failed', created_at = created_at - interval '1 day', schedule_date = '2032-01-01T00:00:00Z' WHERE id = $1`, [id]);
    await h.pool.query('UPDATE campaign.campaign_stats SET impressions = 8, clicks = 7, sent = 9, failed = 1 WHERE campaign_id = $1', [id]);
    const expected = await referenceCampaignJson(h.pool, id);
    expect(JSON.parse(expected)).to.deep.include({ status: 'failed', scheduleDate: '2032-01-01T00:00:00Z' });
    expect(await got()).to.equal(expected);
    expect(await listed()).to.equal(`[${expected}]`);
    // Another site never sees it, cached or not.
    const foreign = await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId: site.siteId, bodyJson: JSON.stringify({ limit: 100 }) });
    expect(foreign.itemsJson.toString('utf8')).not.to.include(id);
  });
});
