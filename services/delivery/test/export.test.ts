// The subscribers export (audience/export.ts) against a real Postgres: pages by keyset, every
// subscriber once whatever the page size, the query's rules, CSV cells, browsers, last engagement.
import { expect } from 'chai';
import fc from 'fast-check';
import { csvCell } from '@webpush/shared/csv.js';
import { createSubscriberExport, EXPORT_MESSAGES, EXPORT_PAGE_ROWS, EXPORT_RETRY_AFTER_SECONDS, exportSubscribers, parseExportQuery } from '../src/audience/export.js';
import { RateLimitedError, ValidationError } from '../src/errors.js';
import { randomUUID } from 'node:crypto';
import { runFor } from '../src/sending/run-store.js';
import { recordTracking } from '../src/tracking/counter-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from './support.js';

/** Texts made of the characters that matter to a spreadsheet: separators, quotes, formula starts. */
const csvHostile = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(';', '\t', ',', '"', '\r', '\n', '=', '+', '-', '@', 'a', ' ', "'") }));

describe('delivery: exporting subscribers', function () {
  this.timeout(120_000);
  let t: TestDelivery;

  before(async () => {
    t = await startTestDelivery('export');
  });
  after(async () => {
    await t?.stop();
  });

  const all = async (siteId: string, query = parseExportQuery({})) => {
    const chunks: Buffer[] = [];
    for await (const c of exportSubscribers(t.pool, siteId, query)) chunks.push(c);
    return { chunks, text: Buffer.concat(chunks).toString() };
  };

  it(`pages of ${EXPORT_PAGE_ROWS} by id reach every subscriber once, active or not`, async () => {
    const site = await newSite(t);
    const count = 2 * EXPORT_PAGE_ROWS + 17;
    await t.operators.seedSubscribers({ siteId: site.siteId, count, topics: ['a', 'b'], countries: ['br', 'pt'], topicsPerSubscriber: 1 });
    await t.pool.query(`UPDATE delivery.subscribers SET active = false WHERE site_id = $1 AND id % 7 = 0`, [site.siteId]);
    const { chunks, text } = await all(site.siteId);
    expect(chunks).to.have.length(3);
    const rows = text.trim().split('\n').map((l) => JSON.parse(l) as { id: string; active: boolean; topics: string[]; country: string });
    expect(rows).to.have.length(count);
    expect(new Set(rows.map((r) => r.id)).size).to.equal(count);
    const inactive = Number((await t.pool.query(`SELECT count(*) AS n FROM delivery.subscribers WHERE site_id = $1 AND NOT active`, [site.siteId])).rows[0].n);
    expect(rows.filter((r) => !r.active)).to.have.length(inactive);
    const onlyA = (await all(site.siteId, parseExportQuery({ topics: 'a' }))).text.trim().split('\n');
    const sqlA = Number((await t.pool.query(`SELECT count(*) AS n FROM delivery.subscribers WHERE site_id = $1 AND 'a' = ANY(topics)`, [site.siteId])).rows[0].n);
    expect(onlyA).to.have.length(sqlA);
  });

  it("gives each subscriber's last engagement: its latest impression or click, null before any", async () => {
    const site = await newSite(t);
    await t.operators.seedSubscribers({ siteId: site.siteId, count: 3, topics: ['a'], countries: ['br'], topicsPerSubscriber: 1 });
    const ids = (await t.pool.query(`SELECT id::text FROM delivery.subscribers WHERE site_id = $1 ORDER BY id`, [site.siteId])).rows.map((r) => r.id as string);
    const campaigns = [randomUUID(), randomUUID()];
    for (const c of campaigns) await runFor(t.pool, { ...dispatchMessage(site.siteId, ['a']), campaignId: c });
    const client = await t.pool.connect();
    try {
      await recordTracking(client, [{ campaignId: campaigns[0], subscriberId: ids[0], kind: 'impression' }]);
      await client.query(`UPDATE delivery.tracking SET at = '2026-01-02T03:04:05Z' WHERE subscriber_id = $1`, [ids[0]]);
      await client.query(`UPDATE delivery.subscriber_engagement SET last_engaged_at = '2026-01-02T03:04:05Z' WHERE subscriber_id = $1`, [ids[0]]);
      await recordTracking(client, [
        { campaignId: campaigns[1], subscriberId: ids[1], kind: 'impression' },
        { campaignId: campaigns[1], subscriberId: ids[1], kind: 'click' },
      ]);
      // An older report arriving late does not move it back.
      await client.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind, at) VALUES ($1, $2, 'click', '2025-01-01T00:00:00Z')`, [campaigns[0], ids[0]]);
    } finally {
      client.release();
    }
    const rows = (await all(site.siteId)).text.trim().split('\n').map((l) => JSON.parse(l) as { lastEngagedAt: string | null });
    expect(rows[0].lastEngagedAt).to.equal('2026-01-02T03:04:05Z');
    expect(Date.parse(rows[1].lastEngagedAt!)).to.be.closeTo(Date.now(), 60_000);
    expect(rows[2].lastEngagedAt).to.equal(null);
  });

  it("reads each page's engagement by key, not every site's engagement rows once a page", async () => {
    // Another site's engagement (a platform's table holds every site's): a page that hashed the
    // whole table would read all of it for each 500 rows exported.
    const [site, other] = [await newSite(t), await newSite(t)];
    await t.operators.seedSubscribers({ siteId: site.siteId, count: EXPORT_PAGE_ROWS + 1, topics: ['a'], countries: ['br'], topicsPerSubscriber: 1 });
    await t.operators.seedSubscribers({ siteId: other.siteId, count: 20 * EXPORT_PAGE_ROWS, topics: ['a'], countries: ['br'], topicsPerSubscriber: 1 });
    await t.pool.query(
      `INSERT INTO delivery.subscriber_engagement (subscriber_id, last_engaged_at)
       SELECT id, now() FROM delivery.subscribers WHERE site_id = ANY($1::uuid[]) ON CONFLICT DO NOTHING`,
      [[site.siteId, other.siteId]],
    );
    await t.pool.query('ANALYZE delivery.subscribers, delivery.subscriber_engagement');
    // The export's own statements, as it sent them to Postgres.
    const sent: { sql: string; params: unknown[] }[] = [];
    const recording = new Proxy(t.pool, {
      get(target, prop) {
        if (prop === 'query') return (sql: string, params: unknown[]) => (sent.push({ sql, params }), target.query(sql, params));
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    let rows = 0;
    for await (const chunk of exportSubscribers(recording, site.siteId, parseExportQuery({}))) rows += chunk.toString().split('\n').length - 1;
    expect(rows).to.equal(EXPORT_PAGE_ROWS + 1);
    expect(sent).to.have.length(2);
    type PlanNode = { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: PlanNode[] };
    const engagementRowsRead = (n: PlanNode): number =>
      (n['Relation Name'] === 'subscriber_engagement' ? n['Actual Rows'] * n['Actual Loops'] : 0) + (n.Plans ?? []).reduce((sum, c) => sum + engagementRowsRead(c), 0);
    const { rows: plan } = await t.pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sent[0].sql}`, sent[0].params);
    expect(engagementRowsRead(plan[0]['QUERY PLAN'][0].Plan)).to.be.at.most(EXPORT_PAGE_ROWS);
  });

  it('reads the query by its rules, with every wrong parameter named', () => {
    expect(parseExportQuery({})).to.deep.equal({ format: 'ndjson', topics: [], countries: [] });
    expect(parseExportQuery({ format: 'csv', topics: ' News ,sports,news', countries: 'br, PT' })).to.deep.equal({ format: 'csv', topics: ['news', 'sports'], countries: ['country__br', 'country__pt'] });
    const err = (() => {
      try {
        parseExportQuery({ format: 'xml', topics: 'country__br', countries: 'BRA' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).messages).to.deep.equal([EXPORT_MESSAGES.format, EXPORT_MESSAGES.topics, EXPORT_MESSAGES.countries]);
  });

  it("a site's exports beyond its limit are refused (429 with Retry-After) until one ends; other sites are not counted", async () => {
    const [site, other] = [await newSite(t), await newSite(t)];
    const exportOf = createSubscriberExport(t.pool, { perSite: 1 });
    const first = exportOf(site.siteId, parseExportQuery({ format: 'csv' }));
    await first.next(); // running: the header is out
    const refused = await exportOf(site.siteId, parseExportQuery({})).next().catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(RateLimitedError).and.include({ message: EXPORT_MESSAGES.tooMany, retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS });
    expect((await exportOf(other.siteId, parseExportQuery({ format: 'csv' })).next()).done).to.equal(false);
    await first.return(undefined); // the consumer stopped pulling
    expect((await exportOf(site.siteId, parseExportQuery({ format: 'csv' })).next()).done).to.equal(false);
  });

  it('CSV: every topic of the `;`-joined list is defused, so a spreadsheet splitting on `;` runs none', async () => {
    const site = await newSite(t);
    await t.operators.seedSubscribers({ siteId: site.siteId, count: 1, topics: ['a'], countries: ['br'], topicsPerSubscriber: 1 });
    await t.pool.query(`UPDATE delivery.subscribers SET topics = ARRAY['0', '=hyperlink(1)', '-2'] WHERE site_id = $1`, [site.siteId]);
    const [, row] = (await all(site.siteId, parseExportQuery({ format: 'csv' }))).text.split('\r\n');
    expect(row.split(',')[3]).to.equal("0;'=hyperlink(1);'-2");
  });

  it('CSV cells: quoted when needed, formulas defused, and always one cell whatever the text', () => {
    expect(csvCell('plain')).to.equal('plain');
    expect(csvCell('a,b')).to.equal('"a,b"');
    expect(csvCell('say "hi"')).to.equal('"say ""hi"""');
    expect(csvCell('=1+1')).to.equal("'=1+1");
    expect(csvCell('-2,3')).to.equal('"\'-2,3"');
    // Every part a spreadsheet splitting on `;` or tab would make: topics are joined with `;`.
    expect(csvCell('0;=HYPERLINK("https://evil.example")')).to.equal('"0;\'=HYPERLINK(""https://evil.example"")"');
    expect(csvCell('news;+1;sports;@x')).to.equal("news;'+1;sports;'@x");
    expect(csvCell('a\t\t=1')).to.equal("a\t'\t'=1");
    fc.assert(
      fc.property(csvHostile, (s) => {
        const cell = csvCell(s);
        // Unquoted: no separator, quote or line break; quoted: its quotes doubled.
        if (!cell.startsWith('"')) expect(/[",\r\n]/.test(cell)).to.equal(false);
        else expect(cell.slice(1, -1).replace(/""/g, '')).to.not.include('"');
        const text = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
        for (const part of text.split(/[;\t]/)) expect(/^[=+\-@\t\r]/.test(part), JSON.stringify(part)).to.equal(false);
      }),
    );
  });

  it('tells the browser by its push service (delivery.browser_of, the rule segments use too)', async () => {
    const browserOf = async (endpoint: string) => (await t.pool.query('SELECT delivery.browser_of($1) AS b', [endpoint])).rows[0].b as string;
    expect(await browserOf('https://fcm.googleapis.com/fcm/send/x')).to.equal('chrome');
    expect(await browserOf('https://FCM.googleapis.com/fcm/send/x')).to.equal('chrome');
    expect(await browserOf('https://updates.push.services.mozilla.com/wpush/v2/x')).to.equal('firefox');
    expect(await browserOf('https://wns2-par02p.notify.windows.com/w/?token=x')).to.equal('edge');
    expect(await browserOf('https://web.push.apple.com/x')).to.equal('safari');
    expect(await browserOf('https://127.0.0.1:4443/push/x')).to.equal('other');
    expect(await browserOf('https://evil.example/fcm.googleapis.com')).to.equal('other');
    expect(await browserOf('https://fcm.googleapis.com.evil.example/x')).to.equal('other');
    expect(await browserOf('https://evilnotify.windows.com/x')).to.equal('other');
    expect(await browserOf('https://fcm.googleapis.com:443/fcm/send/x')).to.equal('chrome');
    expect(await browserOf('https://fcm.googleapis.com?x=1')).to.equal('chrome');
    expect(await browserOf('ftp://fcm.googleapis.com/x')).to.equal('other');
    expect(await browserOf('https://push.services.mozilla.com/x')).to.equal('firefox');
    expect(await browserOf('https://user@fcm.googleapis.com/x')).to.equal('other');
    expect(await browserOf('')).to.equal('other');
  });
});
