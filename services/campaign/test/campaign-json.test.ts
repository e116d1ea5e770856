// The API's campaign JSON as the gateway builds it (@webpush/contracts campaign-json.ts) from the
// Campaign messages the service sends (src/campaigns/campaign-rows.ts) against the previous paths
// (test/support/reference-json.ts: the old query, view, proto message and gateway object, then
// JSON.stringify, with the optional parts as Postgres built them): byte for byte and field for
// field, for awkward text, null and empty images, ctr/its rounding and every optional part; and,
// over generated campaigns, against JSON.stringify of the object the spec describes.
import { rateLift } from '@webpush/contracts/best-time.js';
import { expect } from 'chai';
import fc from 'fast-check';
import { campaignJson, type Campaign } from '@webpush/contracts/campaign-json.js';
import { BROWSERS } from '@webpush/contracts/segment.js';
import { loadCampaignProto } from '@webpush/shared/grpc.js';
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

/** The page's `items` as the gateway writes them. */
const itemsJson = (page: ListCampaignsResponse__Output) => `[${page.items.map(campaignJson).join(',')}]`;

describe('campaign JSON built from the Campaign message', function () {
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
    return campaignJson(res.campaign!);
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
    const second = await listCampaigns(h, other.siteId, JSON.stringify({ limit: 4, cursor: first.page!.nextCursor }));
    const expected = await Promise.all(ids.map((id) => referenceCampaignJson(h.pool, id)));
    expect(itemsJson(first)).to.equal(`[${expected.slice(0, 4).join(',')}]`);
    expect(second.items).to.deep.equal(expected.slice(4).map((t) => JSON.parse(t)));
    expect(JSON.stringify(second.items)).to.equal(`[${expected.slice(4).join(',')}]`);
  });

  it('when a campaign has the optional parts (capped, byBrowser, segment, throttle, frequency cap opt-out, local time, A/B test), then the bytes equal the old path', async () => {
    const segments = [
      { languages: ['en', 'pt'], timeZones: ['America/Sao_Paulo', 'Europe/Lisbon'], utcOffset: { min: -180, max: 60 }, browsers: ['chrome', 'firefox'], subscribedAfter: '2026-01-01T00:00:00Z', subscribedBefore: '2026-06-01T12:30:00Z', engagedWithinDays: 7, notEngagedForDays: 30,
        tags: [{ key: 'age', operator: 'gte', value: 18.5 }, { key: 'last_order', operator: 'after', value: '-P7D' }, { key: 'plan', operator: 'in', values: [1e21, 'gold', true, '2026-12-07T00:00:00.000Z'] }, { key: 'vip', operator: 'exists' }] },
      { browsers: ['safari'] },
      { utcOffset: { min: 0, max: 0 }, notEngagedForDays: 1 },
    ];
    const localTime = {
      date: '2031-02-03', time: '09:30', ifPassed: 'nextDay', firstSendAt: '2031-02-02T22:30:00Z', lastSendAt: '2031-02-04T09:30:00Z',
      sends: [{ sendAt: '2031-02-02T22:30:00Z', zones: ['Pacific/Kiritimati'], users: 3, nextDay: false }, { sendAt: '2031-02-04T09:30:00Z', zones: ['UTC', 'Europe/London'], users: 0, nextDay: true }],
    };
    const abTest = {
      variants: [{}, { title: AWKWARD[0].slice(0, 40), icon: null, image: 'https://img.example/v.png', callToAction: '' }, { body: 'Other body', link: 'https://x.example/b', callToAction: 'Go' }],
      testPercent: 20, winnerMetric: 'ctr', windowMinutes: 60,
    };
    const byBrowser = { chrome: { sent: 5, failed: 1, expired: 0, capped: 2 }, safari: { sent: 0, failed: 0, expired: 1, capped: 0 }, other: { sent: 1, failed: 0, expired: 0, capped: 0 } };
    const cases: { campaign: Record<string, unknown>; stats: Record<string, unknown> }[] = [
      { campaign: { segment: segments[0] }, stats: {} },
      { campaign: { segment: segments[1], throttle_per_minute: 1200, ignore_frequency_cap: true }, stats: { capped: 3 } },
      { campaign: { local_time: localTime, segment: segments[2] }, stats: { by_browser: byBrowser, capped: 2 } },
      { campaign: { ab_test: abTest }, stats: {} },
      {
        campaign: { ab_test: abTest, ignore_frequency_cap: true, throttle_per_minute: 60, local_time: localTime },
        stats: {
          ab_results: [{ variant: 0, sent: 10, impressions: 3, clicks: 1 }, { variant: 1, sent: 7, impressions: 7, clicks: 2 }, { variant: 1, sent: 8, impressions: 2, clicks: 5 }, { variant: 9, sent: 1, impressions: 1, clicks: 1 }],
          ab_winner_variant: 1, ab_winner_decided_at: '2026-12-01T10:00:00.999999Z', ab_winner_by: 'metric', ab_window_ends_at: '2026-12-01T10:00:00.5Z', by_browser: byBrowser,
        },
      },
    ];
    for (const { campaign, stats } of cases) {
      const id = await insert({ totalUsers: 40, impressions: 9, clicks: 2, status: 'published' });
      const json = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v);
      const set = (table: string, key: string, fields: Record<string, unknown>) => {
        const names = Object.keys(fields);
        if (names.length === 0) return Promise.resolve();
        return h.pool.query(`UPDATE ${table} SET ${names.map((n, i) => `${n} = $${i + 2}`).join(', ')} WHERE ${key} = $1`, [id, ...names.map((n) => json(fields[n]))]);
      };
      // A local-time campaign has its last send (a constraint of the table).
      await set('campaign.campaigns', 'id', campaign.local_time ? { ...campaign, last_send_at: '2031-02-04T09:30:00Z' } : campaign);
      await set('campaign.campaign_stats', 'campaign_id', stats);
      await expectSame(id);
    }
  });

  it('when a campaign was read before (its content kept by the service), then later reads show its new status, counters and dates, the same bytes as the old path', async () => {
    const other = await h.newSite();
    const id = await insert({ title: AWKWARD[1], totalUsers: 9, impressions: 3, clicks: 1, status: 'published' });
    await h.pool.query('UPDATE campaign.campaigns SET site_id = $2 WHERE id = $1', [id, other.siteId]);
    const listed = async () => itemsJson(await h.call<ListCampaignsResponse__Output>('ListCampaigns', { siteId: other.siteId, bodyJson: '{}' }));
    const got = async () => campaignJson((await h.call<GetCampaignResponse__Output>('GetCampaign', { siteId: other.siteId, campaignId: id })).campaign!);
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
    expect(itemsJson(foreign)).not.to.include(id);
  });
});

/** The campaign object as the spec describes it, built as an object and stringified: the oracle for generated campaigns. */
function specObject(c: Campaign): unknown {
  const a = c.analytics!;
  const d = c.delivery!;
  const delivery: Record<string, unknown> = { sent: d.sent, failed: d.failed, expired: d.expired, pending: d.pending, failedBy: { rejected: d.failedBy!.rejected, unauthorized: d.failedBy!.unauthorized, unreachable: d.failedBy!.unreachable, refused: d.failedBy!.refused } };
  if (d.capped > 0) delivery.capped = d.capped;
  if (d.byBrowser.length > 0) delivery.byBrowser = Object.fromEntries(d.byBrowser.map((b) => [b.browser, { sent: b.sent, failed: b.failed, expired: b.expired, capped: b.capped }]));
  const o: Record<string, unknown> = {
    id: c.id, title: c.title, body: c.body, link: c.link, topics: c.topics, status: c.status, scheduleDate: c.scheduleDate, scheduleMode: c.scheduleMode,
    createdAt: c.createdAt, updatedAt: null, totalUsers: c.totalUsers, image: c.image || null, icon: c.icon || null, callToAction: c.callToAction,
    utmSource: c.utmSource, utmMedium: c.utmMedium, utmCampaign: c.utmCampaign, ttl: c.ttl, ttlUnit: 'seconds',
    analytics: computeAnalytics({ clicks: a.clicks, impressions: a.impressions, totalUsers: c.totalUsers }),
    delivery,
  };
  const given = (entries: [string, unknown][]) => Object.fromEntries(entries.filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
  if (c.segment) {
    const s = c.segment;
    o.segment = given([['languages', s.languages], ['timeZones', s.timeZones], ['utcOffset', s.utcOffset ?? undefined], ['browsers', s.browsers],
      ['subscribedAfter', s.subscribedAfter], ['subscribedBefore', s.subscribedBefore], ['engagedWithinDays', s.engagedWithinDays], ['notEngagedForDays', s.notEngagedForDays],
      ['tags', s.tags.map((t) => {
        const values = t.values.map((v) => (v.kind === 'number' ? v.number : v.kind === 'boolean' ? v.boolean : v.text));
        return { key: t.key, operator: t.operator, ...(t.operator === 'in' ? { values } : values.length > 0 ? { value: values[0] } : {}) };
      })]]);
  }
  if (c.throttlePerMinute !== undefined) o.throttlePerMinute = c.throttlePerMinute;
  if (c.ignoreFrequencyCap) o.ignoreFrequencyCap = true;
  if (c.localTime) {
    const l = c.localTime;
    const sends = l.sends.map((x) => ({ sendAt: x.sendAt, zones: x.zones, users: x.users, nextDay: x.nextDay, ...(x.held ? { held: true } : {}) }));
    o.localTime = { date: l.date, time: l.time, ifPassed: l.ifPassed, firstSendAt: l.firstSendAt, lastSendAt: l.lastSendAt, sends };
  }
  if (c.abTest) {
    const t = c.abTest;
    const pct = (part: number, base: number) => computeAnalytics({ clicks: part, impressions: base, totalUsers: 0 }).ctr;
    o.abTest = {
      variants: t.variants.map((v) => given([['title', v.title], ['body', v.body], ['link', v.link], ['icon', v.icon === '' ? null : v.icon], ['image', v.image === '' ? null : v.image], ['callToAction', v.callToAction]])),
      testPercent: t.testPercent, winnerMetric: t.winnerMetric, windowMinutes: t.windowMinutes,
      results: t.results.map((r) => ({ variant: r.variant, sent: r.sent, impressions: r.impressions, clicks: r.clicks, ctr: pct(r.clicks, r.impressions), its: pct(r.impressions, r.sent) })),
      winner: t.winner === null ? null : { variant: t.winner.variant, decidedAt: t.winner.decidedAt, by: t.winner.by },
      windowEndsAt: t.windowEndsAt ?? null,
    };
  }
  if (c.options) {
    // The notification options, each only when it differs from its default.
    const n = c.options;
    if (n.actions.length > 0) o.actions = n.actions.map((x) => ({ title: x.title, link: x.link }));
    if (n.badge !== undefined) o.badge = n.badge;
    if (n.requireInteraction) o.requireInteraction = true;
    if (n.renotify) o.renotify = true;
    if (n.silent) o.silent = true;
    if (n.vibrate.length > 0) o.vibrate = n.vibrate;
    if (n.timestamp !== undefined) o.timestamp = n.timestamp;
    if (n.dir !== '' && n.dir !== 'auto') o.dir = n.dir;
    if (n.lang !== '') o.lang = n.lang;
  }
  if (c.urgency !== '' && c.urgency !== 'normal') o.urgency = c.urgency;
  if (c.ignoreQuietHours) o.ignoreQuietHours = true;
  if (c.sendTime) {
    // The holdout is slot -1; the best-time group every other slot, added; the lift of its rates over the holdout's.
    const t = c.sendTime;
    const add = (slots: typeof t.slots) => slots.reduce((g, s) => ({ planned: g.planned + s.planned, sent: g.sent + s.sent, impressions: g.impressions + s.impressions, clicks: g.clicks + s.clicks }), { planned: 0, sent: 0, impressions: 0, clicks: 0 });
    const pct = (part: number, base: number) => computeAnalytics({ clicks: part, impressions: base, totalUsers: 0 }).ctr;
    const group = (g: ReturnType<typeof add>) => ({ ...g, clickRate: pct(g.clicks, g.sent), impressionRate: pct(g.impressions, g.sent) });
    const holdout = add(t.slots.filter((s) => s.slot === -1).slice(0, 1));
    const best = add(t.slots.filter((s) => s.slot !== -1));
    o.sendTime = {
      mode: t.mode, within: `${t.withinHours}h`, holdout: t.holdoutPercent,
      results: {
        holdout: group(holdout), bestTime: group(best),
        byHour: t.slots.filter((s) => s.slot !== -1).map((s) => ({
          sendAt: s.sendAt, hour: Number.isNaN(Date.parse(s.sendAt)) ? null : new Date(Date.parse(s.sendAt)).getUTCHours(), planned: s.planned, sent: s.sent, impressions: s.impressions, clicks: s.clicks,
          clickRate: pct(s.clicks, s.sent), impressionRate: pct(s.impressions, s.sent), ctr: pct(s.clicks, s.impressions),
        })),
        lift: { clickRate: rateLift(best.clicks, best.sent, holdout.clicks, holdout.sent), impressionRate: rateLift(best.impressions, best.sent, holdout.impressions, holdout.sent) },
      },
    };
  }
  return o;
}

describe('campaign JSON over generated campaigns', () => {
  // Any code point but lone surrogates (UTF-8 on the wire and in Postgres cannot hold them).
  const text = fc.string({ unit: 'binary', maxLength: 12 });
  // Below 10⁹ the reference's Math.round(part·10⁴/base)/100 is exact; campaign-rows.test.ts checks the rule itself beyond.
  const count = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 1_000_000_000 }));
  const opt = <T,>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const list = <T,>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 3 });
  const segment = fc.record({
    languages: list(text), timeZones: list(text), utcOffset: fc.option(fc.record({ min: fc.integer({ min: -720, max: 840 }), max: fc.integer({ min: -720, max: 840 }) })),
    browsers: list(fc.constantFrom(...BROWSERS)), subscribedAfter: opt(text), subscribedBefore: opt(text), engagedWithinDays: opt(fc.nat(3650)), notEngagedForDays: opt(fc.nat(3650)),
    tags: list(fc.record({
      key: text, operator: fc.constantFrom('equals', 'in', 'exists', 'gt', 'before'),
      values: list(fc.oneof(fc.record({ kind: fc.constant('text' as const), text }), fc.record({ kind: fc.constant('number' as const), number: fc.double({ noNaN: true, noDefaultInfinity: true }) }), fc.record({ kind: fc.constant('boolean' as const), boolean: fc.boolean() }))),
    })),
  });
  const localTime = fc.record({
    date: text, time: text, ifPassed: text, firstSendAt: text, lastSendAt: text,
    sends: list(fc.record({ sendAt: text, zones: list(text), users: count, nextDay: fc.boolean(), held: fc.boolean() })),
  });
  const variant = fc.record({ title: opt(text), body: opt(text), link: opt(text), icon: opt(text), image: opt(text), callToAction: opt(text) });
  const abTest = fc.record({
    variants: list(variant), testPercent: fc.nat(100), winnerMetric: text, windowMinutes: fc.nat(10080),
    results: list(fc.record({ variant: fc.nat(4), sent: count, impressions: count, clicks: count })),
    winner: fc.option(fc.record({ variant: fc.nat(4), decidedAt: text, by: text })), windowEndsAt: opt(text),
  });
  const options = fc.record({
    actions: list(fc.record({ title: text, link: text })), badge: opt(text), requireInteraction: fc.boolean(), renotify: fc.boolean(), silent: fc.boolean(),
    vibrate: list(fc.nat(10_000)), timestamp: opt(text), dir: fc.constantFrom('', 'auto', 'ltr', 'rtl'), lang: text,
  });
  // Slots as the service gives them: each once, in order, the holdout (-1) first.
  const sendTime = fc.record({
    mode: fc.constant('bestTime'), withinHours: fc.integer({ min: 1, max: 72 }), holdoutPercent: fc.nat(50),
    slots: fc.uniqueArray(fc.record({ slot: fc.integer({ min: -1, max: 71 }), sendAt: text, planned: count, sent: count, impressions: count, clicks: count }), { selector: (s) => s.slot, maxLength: 4 })
      .map((slots) => slots.sort((a, b) => a.slot - b.slot)),
  });
  const campaign: fc.Arbitrary<Campaign> = fc.record({
    id: fc.uuid(), title: text, body: text, link: text, topics: list(text), status: text, scheduleDate: text, scheduleMode: text, createdAt: text,
    totalUsers: count, image: opt(text), icon: opt(text), callToAction: text, utmSource: text, utmMedium: text, utmCampaign: text, ttl: fc.nat(2419200),
    analytics: fc.record({ clicks: count, impressions: count }),
    delivery: fc.record({
      sent: count, failed: count, expired: count, pending: count, capped: count,
      failedBy: fc.record({ rejected: count, unauthorized: count, unreachable: count, refused: count }),
      // One entry per family, as the service builds it from an object.
      byBrowser: fc.uniqueArray(fc.record({ browser: fc.constantFrom(...BROWSERS), sent: count, failed: count, expired: count, capped: count }), { selector: (b) => b.browser }),
    }),
    segment: fc.option(segment), throttlePerMinute: opt(fc.nat(1_000_000)), ignoreFrequencyCap: fc.boolean(), localTime: fc.option(localTime), abTest: fc.option(abTest),
    options: fc.option(options), urgency: fc.constantFrom('', 'very-low', 'low', 'normal', 'high'), ignoreQuietHours: fc.boolean(), sendTime: fc.option(sendTime),
  });
  const getCampaign = loadCampaignProto().campaign.v1.CampaignService.service.GetCampaign;

  it('when any campaign crosses the wire, then its JSON is the spec object stringified, byte for byte', () => {
    fc.assert(
      fc.property(campaign, (c) => {
        const received = getCampaign.responseDeserialize(getCampaign.responseSerialize({ campaign: c })).campaign!;
        const json = campaignJson(received);
        expect(json).to.equal(JSON.stringify(specObject(received)));
        expect(JSON.parse(json)).to.deep.equal(JSON.parse(JSON.stringify(specObject(c))));
      }),
      { numRuns: 500 },
    );
  });
});
