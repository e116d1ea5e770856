// GET /v2/subscribers/export through the real stack: the site's subscribers as NDJSON or CSV,
// streamed from the delivery service through the gateway, filtered like an audience, never with
// their push endpoints or keys, and every refusal a JSON 4xx before anything is streamed.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { ALL, browserKeys, siteWithPermissions, validCampaign, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

describe('e2e: exporting subscribers', function () {
  this.timeout(180_000);
  let stack: Stack;
  let site: SiteInfo;
  const endpoint = (host: string) => `https://${host}/push/${randomBytes(8).toString('hex')}`;

  const download = async (query: string, key = site.apiKey) => {
    const res = await fetch(`${stack.services.gatewayUrl}/v2/subscribers/export${query}`, { headers: { Authorization: key }, signal: AbortSignal.timeout(60_000) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

  before(async () => {
    stack = await startStack('e2e_export', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', PUSH_SERVICE_HOSTS: 'fcm.googleapis.com,*.push.services.mozilla.com,*.notify.windows.com,*.push.apple.com' });
    site = await siteWithPermissions(stack, ALL, 'exporter');
    const lines = [
      { endpoint: endpoint('fcm.googleapis.com'), keys: browserKeys(), topics: ['news'], country: 'BR', createdAt: '2025-01-02T03:04:05Z' },
      { endpoint: endpoint('updates.push.services.mozilla.com'), keys: browserKeys(), topics: ['sports', '=cmd|calc'], country: 'PT' },
      { endpoint: endpoint('wns2-par02p.notify.windows.com'), keys: browserKeys(), topics: ['a, "quoted" topic'] },
      { endpoint: endpoint('web.push.apple.com'), keys: browserKeys(), topics: ['news', 'sports'], country: 'us' },
    ];
    const res = await stack.api.request('POST', '/v2/subscribers/import', { key: site.apiKey, body: { subscriptions: lines } });
    expect(res.body, res.text).to.include({ imported: 4, refused: 0 });
    // One retired subscriber: exported too, marked inactive.
    const gone = endpoint('fcm.googleapis.com');
    expect((await stack.api.request('POST', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { subscription: { endpoint: gone, keys: browserKeys() }, topics: ['news'], language: 'pt-BR', timeZone: 'America/Sao_Paulo' } })).status).to.equal(201);
    expect((await stack.api.request('DELETE', `/public/v1/sites/${site.publicId}/subscriptions`, { body: { endpoint: gone } })).status).to.equal(200);
  });
  after(async () => {
    await stack?.stop();
  });

  it('NDJSON: every subscriber once, in id order, with its fields and browser, and no endpoint or key', async () => {
    const res = await download('');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="subscribers.ndjson"');
    const rows = ndjson(res.text);
    expect(rows.map((r) => [r.browser, r.country, r.topics, r.active])).to.deep.equal([
      ['chrome', 'BR', ['news'], true],
      ['firefox', 'PT', ['=cmd|calc', 'sports'], true],
      ['edge', null, ['a, "quoted" topic'], true],
      ['safari', 'US', ['news', 'sports'], true],
      ['chrome', null, ['news'], false],
    ]);
    expect(rows[0]).to.include({ createdAt: '2025-01-02T03:04:05Z', language: null, timeZone: null });
    expect(rows[4]).to.include({ language: 'pt-BR', timeZone: 'America/Sao_Paulo' });
    for (const r of rows) expect(Object.keys(r)).to.deep.equal(['id', 'createdAt', 'country', 'topics', 'language', 'timeZone', 'browser', 'active', 'lastEngagedAt']);
    expect(rows.map((r) => r.lastEngagedAt)).to.deep.equal([null, null, null, null, null]);
    expect(new Set(rows.map((r) => r.id)).size).to.equal(5);
    expect(res.text).to.not.match(/googleapis|mozilla|p256dh|auth/);
  });

  it('CSV: RFC 4180 quoting, topics joined with ";", and formula-looking cells defused', async () => {
    const res = await download('?format=csv');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const lines = res.text.split('\r\n');
    expect(lines[0]).to.equal('id,createdAt,country,topics,language,timeZone,browser,active,lastEngagedAt');
    expect(lines).to.have.length(7); // header, 5 rows, and the empty string after the last CRLF
    expect(lines[2]).to.match(/,PT,'=cmd\|calc;sports,,,firefox,true,$/);
    expect(lines[3]).to.match(/,,"a, ""quoted"" topic",,,edge,true,$/);
  });

  it('filters like an audience: any of the topics, any of the countries', async () => {
    const sports = ndjson((await download('?topics=sports')).text);
    expect(sports.map((r) => r.browser)).to.deep.equal(['firefox', 'safari']);
    const union = ndjson((await download('?topics=Sports&countries=br,XX')).text);
    expect(union.map((r) => r.browser)).to.deep.equal(['chrome', 'firefox', 'safari']);
    const none = await download('?topics=nobody');
    expect([none.status, none.text]).to.deep.equal([200, '']);
  });

  it('refuses a wrong query with a JSON 400 naming every wrong parameter, a plan without audience with 403, and answers HEAD without a body', async () => {
    const cases: [string, string][] = [
      ['?format=xml', 'format must be ndjson or csv'],
      ['?format=csv&format=ndjson', 'format must be ndjson or csv'],
      ['?topics=country__br', 'topics must be a comma-separated list of at most 1000 topic names'],
      ['?topics=a&topics=b', 'topics must be a comma-separated list of at most 1000 topic names'],
      ['?countries=Brazil&format=pdf', 'format must be ndjson or csv, countries must be a comma-separated list of at most 1000 two-letter country codes'],
      [`?topics=${Array.from({ length: 1001 }, (_, i) => `t${i}`).join(',')}`, 'topics must be a comma-separated list of at most 1000 topic names'],
    ];
    for (const [query, message] of cases) {
      const res = await download(query);
      expect([res.status, JSON.parse(res.text)], query.slice(0, 60)).to.deep.equal([400, { message }]);
    }
    const limited = await siteWithPermissions(stack, ['create'], 'no-audience');
    const denied = await download('', limited.apiKey);
    expect([denied.status, JSON.parse(denied.text)]).to.deep.equal([403, { message: 'This plan does not have permission to export subscribers via API' }]);
    const head = await fetch(`${stack.services.gatewayUrl}/v2/subscribers/export?format=csv`, { method: 'HEAD', headers: { Authorization: site.apiKey } });
    expect([head.status, head.headers.get('content-type'), await head.text()]).to.deep.equal([200, 'text/csv; charset=utf-8', '']);
  });

  it('streams a large site whole: 30,000 subscribers, each once', async () => {
    const big = await siteWithPermissions(stack, ALL, 'big');
    await stack.cli('subscribers', 'seed', big.publicId, '--count', '30000', '--topics', 'a,b', '--countries', 'br', '--per-subscriber', '1');
    const res = await download('?format=csv', big.apiKey);
    expect(res.status).to.equal(200);
    const rows = res.text.split('\r\n').slice(1, -1);
    expect(rows).to.have.length(30_000);
    expect(new Set(rows.map((r) => r.split(',')[0])).size).to.equal(30_000);
  });

  it('a client that goes away mid-export cancels it quietly, and the next export is whole', async () => {
    const big = await siteWithPermissions(stack, ALL, 'abandoned');
    await stack.cli('subscribers', 'seed', big.publicId, '--count', '20000', '--topics', 'a', '--countries', 'br', '--per-subscriber', '1');
    const abort = new AbortController();
    const res = await fetch(`${stack.services.gatewayUrl}/v2/subscribers/export`, { headers: { Authorization: big.apiKey }, signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.logs.filter((l) => l.includes('stream answer failed'))).to.deep.equal([]);
    const whole = await download('', big.apiKey);
    expect(ndjson(whole.text)).to.have.length(20_000);
  });

  it('whatever the query holds, the answer is 200 or a JSON 400, never a 5xx', async () => {
    const param = fc.oneof(fc.string({ maxLength: 40 }), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }).map((a) => a.join(',')));
    await fc.assert(
      fc.asyncProperty(fc.record({ format: param, topics: param, countries: param }, { requiredKeys: [] }), async (q) => {
        const res = await download(`?${new URLSearchParams(q as Record<string, string>).toString()}`);
        expect([200, 400], res.text.slice(0, 200)).to.include(res.status);
        if (res.status === 400) expect(JSON.parse(res.text).message).to.be.a('string');
      }),
      { numRuns: 50 },
    );
  });

  describe('campaign results (POST /v2/campaigns/export)', () => {
    const exporting = async (query: string, body: unknown, key = site.apiKey) => {
      const res = await fetch(`${stack.services.gatewayUrl}/v2/campaigns/export${query}`, {
        method: 'POST',
        headers: { Authorization: key, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };

    it('NDJSON lines are the objects the list shows, CSV rows carry the counts, and the list filters apply', async () => {
      for (const [title, status] of [['Draft one', 'draft'], ['=1+1, sale', 'published'], ['Later', 'draft']]) {
        const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body: validCampaign({ title, status, topics: ['news'] }) });
        expect(res.status, res.text).to.equal(200);
      }
      const listed = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { limit: 60 } });
      const nd = await exporting('', undefined);
      expect([nd.status, nd.headers.get('content-type'), nd.headers.get('content-disposition')]).to.deep.equal([200, 'application/x-ndjson; charset=utf-8', 'attachment; filename="campaigns.ndjson"']);
      // The sent campaign's counters move while it sends (its pushes go nowhere here): the stable fields.
      const stable = (c: Record<string, unknown>) => [c.id, c.title, c.status, c.createdAt, c.scheduleDate, c.totalUsers];
      expect(ndjson(nd.text).map(stable)).to.deep.equal(listed.body.items.map(stable));
      expect(Object.keys(ndjson(nd.text)[0])).to.deep.equal(Object.keys(listed.body.items[0]));
      const csv = await exporting('?format=csv', { status: ['sent'] });
      const lines = csv.text.split('\r\n');
      expect(lines[0]).to.equal('id,title,status,scheduleMode,createdAt,scheduleDate,totalUsers,impressions,clicks,ctr,its,sent,failed,expired,pending,capped');
      expect(lines).to.have.length(3);
      expect(lines[1]).to.include(`,"'=1+1, sale",published,now,`);
      const drafts = ndjson((await exporting('', { status: ['draft'], limit: 1 })).text);
      expect(drafts.map((c) => c.title)).to.deep.equal(['Later', 'Draft one']);
    });

    it("refuses a wrong format or filter with a JSON 400 (the list's messages), and a plan without reports with 403", async () => {
      const bad = await exporting('?format=xml', { status: ['bogus'] });
      expect([bad.status, JSON.parse(bad.text)]).to.deep.equal([400, { message: 'format must be ndjson or csv, Invalid status values: bogus. Allowed: draft, scheduled, sent, failed' }]);
      const notJson = await fetch(`${stack.services.gatewayUrl}/v2/campaigns/export`, { method: 'POST', headers: { Authorization: site.apiKey }, body: '[1' });
      expect([notJson.status, await notJson.json()]).to.deep.equal([400, { message: 'Invalid JSON body' }]);
      const limited = await siteWithPermissions(stack, ['create', 'audience'], 'no-reports');
      const denied = await exporting('', undefined, limited.apiKey);
      expect([denied.status, JSON.parse(denied.text)]).to.deep.equal([403, { message: 'This plan does not have permission to access campaign reports via API' }]);
    });

    it('whatever the body and format hold, the answer is 200 or a JSON 4xx, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ status: fc.anything(), dateField: fc.anything(), startDate: fc.anything(), endDate: fc.anything() }, { requiredKeys: [] })), fc.string({ maxLength: 10 }), async (body, format) => {
          const res = await exporting(`?format=${encodeURIComponent(format)}`, body);
          expect([200, 400], res.text.slice(0, 200)).to.include(res.status);
          if (res.status === 400) expect(JSON.parse(res.text).message).to.be.a('string');
        }),
        { numRuns: 40 },
      );
    });
  });
});
