// /v2/feeds in the campaign service (src/feeds/; docs/api-decisions.md, "Feeds"): feeds saved
// under the webhooks' URL rules, and the poller against a local fake feed server (a test host,
// FEED_TEST_HOSTS) — RSS and Atom, the first poll only marking items seen, each new item a
// campaign once across polls and across a crash between the fetch and the commit, conditional
// GET, and the fetch's refusals (a private address, an oversized answer, a malformed feed)
// recorded on the feed. No timing: each poll is a pass the test runs itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { Feed__Output } from '@webpush/contracts/generated/campaign/v1/Feed.js';
import type { ListFeedsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListFeedsResponse.js';
import { createLogger } from '@webpush/shared/log.js';
import { createAudienceClient, createCampaignUseCase } from '../src/campaigns/index.js';
import { createFeedFetcher, createFeedPoller } from '../src/feeds/index.js';
import { claimDueFeeds } from '../src/feeds/feed-store.js';
import type { CreateCampaign } from '../src/feeds/feed-poller.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';
import { expectStatus, getCampaign, startHarness, type Harness, type TestSite } from './support/harness.js';

interface Item {
  guid: string;
  title: string;
  link: string;
  description?: string;
  image?: string;
}

const rss = (items: Item[]) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Shop news</title><link>https://shop.example/</link>
${items
  .map(
    (i) => `<item><guid>${i.guid}</guid><title>${i.title}</title><link>${i.link}</link>
<description>${i.description ?? ''}</description>${i.image ? `<media:content url="${i.image}" medium="image" type="image/jpeg"/>` : ''}</item>`,
  )
  .join('\n')}</channel></rss>`;

const atom = (items: Item[]) => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom news</title><id>urn:feed</id><updated>2026-12-05T10:00:00Z</updated>
${items
  .map((i) => `<entry><id>${i.guid}</id><title>${i.title}</title><link href="${i.link}"/><updated>2026-12-05T10:00:00Z</updated><summary type="html">${i.description ?? ''}</summary></entry>`)
  .join('\n')}</feed>`;

/** The fake feed server: each path answers what the test set, honours If-None-Match, and counts requests. */
function feedServer() {
  const docs = new Map<string, { body: string; type: string; etag?: string }>();
  const conditional: string[] = [];
  const server = http.createServer((req, res) => {
    // /redirect/<n>/<target>: n redirects, then to <target> (percent-encoded).
    const redirect = /^\/redirect\/(\d+)\/(.*)$/.exec(req.url ?? '');
    if (redirect) {
      const n = Number(redirect[1]);
      return res.writeHead(302, { Location: n > 1 ? `/redirect/${n - 1}/${redirect[2]}` : decodeURIComponent(redirect[2]) }).end();
    }
    const doc = docs.get(req.url ?? '');
    if (!doc) return res.writeHead(404).end();
    if (req.headers['if-none-match']) conditional.push(req.url ?? '');
    if (doc.etag && req.headers['if-none-match'] === doc.etag) return res.writeHead(304).end();
    res.writeHead(200, { 'Content-Type': doc.type, ...(doc.etag ? { ETag: doc.etag } : {}) }).end(doc.body);
  });
  return {
    docs,
    conditional,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    listen: () => new Promise<void>((done) => server.listen(0, '127.0.0.1', done)),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('Feeds', function () {
  this.timeout(120_000);
  let h: Harness;
  let site: TestSite;
  let other: TestSite;
  const server = feedServer();
  const log = createLogger('test', 'error');
  let audience: ReturnType<typeof createAudienceClient>;
  let create: CreateCampaign;
  const fetcher = createFeedFetcher({ testHosts: ['127.0.0.1'], timeoutMs: 5000, maxBytes: 1_048_576 });

  before(async () => {
    await server.listen();
    h = await startHarness('campaign_feeds', { FEED_TEST_HOSTS: '127.0.0.1', FEED_POLLER_ENABLED: 'false' });
    site = await h.newSite({ subscribers: [{ count: 2, topics: ['news'], countries: ['br'] }] });
    other = await h.newSite();
    audience = createAudienceClient(h.audienceTarget, 5000, INTERNAL_TOKENS.CAMPAIGN_INTERNAL_TOKEN);
    create = createCampaignUseCase({ pool: h.pool, audience });
  });
  after(async () => {
    fetcher.close();
    audience?.close();
    await h?.stop();
    await server.close();
  });

  const req = (s: TestSite, fields: { feedId?: string; body?: unknown } = {}) => ({
    siteId: s.siteId,
    feedId: fields.feedId ?? '',
    bodyJson: fields.body === undefined ? '' : typeof fields.body === 'string' ? fields.body : JSON.stringify(fields.body),
    limit: '',
    cursor: '',
  });
  const createFeed = (body: unknown, s = site) => h.call<Feed__Output>('CreateFeed', req(s, { body }));
  const getFeed = (id: string, s = site) => h.call<Feed__Output>('GetFeed', req(s, { feedId: id }));
  const feedCount = async () => Number((await h.pool.query('SELECT count(*) FROM campaign.feeds').then((r) => r.rows[0].count)));
  const poller = (createCampaign: CreateCampaign = create, f = fetcher) => createFeedPoller({ pool: h.pool, log, fetcher: f, createCampaign }, { enabled: false, intervalMs: 1000, batchSize: 50, leaseMs: 60_000 });
  /** Makes the feed due now (as its interval having passed would). */
  const due = (id: string) => h.pool.query('UPDATE campaign.feeds SET next_poll_at = now() WHERE id = $1', [id]);
  const campaignsOf = async (id: string) => (await h.pool.query('SELECT campaign_id FROM campaign.feed_items WHERE feed_id = $1 AND campaign_id IS NOT NULL', [id])).rows.map((r) => r.campaign_id as string);

  it('when a feed is created, then it is answered with its fields, the defaults and no poll yet; another site cannot see it', async () => {
    const f = await createFeed({ url: server.url('/created.xml'), topics: ['news'], utmSource: 'feed' });
    expect(f).to.deep.include({ url: server.url('/created.xml'), pollIntervalMinutes: 15, paused: false, lastFetchedAt: '', lastError: '', consecutiveFailures: 0, campaignsCreated: 0 });
    expect(JSON.parse(f.settingsJson)).to.deep.equal({ topics: ['news'], utmSource: 'feed' });
    expect(await getFeed(f.id)).to.deep.equal(f);
    await expectStatus(getFeed(f.id, other), grpc.status.NOT_FOUND, 'Feed not found');
    const page = await h.call<ListFeedsResponse__Output>('ListFeeds', req(site));
    expect(page.items.map((i) => i.id)).to.include(f.id);
    await h.call('DeleteFeed', req(site, { feedId: f.id }));
    await expectStatus(getFeed(f.id), grpc.status.NOT_FOUND, 'Feed not found');
  });

  it('when a body is not a feed (private address, http, bad interval, unknown field, a campaign field the create refuses), then refused and nothing is stored', async () => {
    const before = await feedCount();
    const PRIVATE = 'url must not point to a private, loopback, link-local or metadata address';
    await expectStatus(createFeed({ url: 'https://10.0.0.1/feed.xml', topics: ['news'] }), grpc.status.INVALID_ARGUMENT, PRIVATE);
    await expectStatus(createFeed({ url: 'https://metadata.google.internal/feed', topics: ['news'] }), grpc.status.INVALID_ARGUMENT, PRIVATE);
    await expectStatus(createFeed({ url: 'http://feeds.example.com/feed', topics: ['news'] }), grpc.status.INVALID_ARGUMENT, 'url must be an https URL of at most 2048 characters');
    await expectStatus(createFeed({ url: server.url('/x'), topics: ['news'], pollIntervalMinutes: 1 }), grpc.status.INVALID_ARGUMENT, 'pollIntervalMinutes must be a whole number from 5 to 1440');
    await expectStatus(createFeed({ url: server.url('/x'), topics: ['news'], title: 'x' }), grpc.status.INVALID_ARGUMENT, (await import('../src/base/texts.js')).MESSAGES.feedFields);
    await expectStatus(createFeed({ url: server.url('/x'), topics: 'news' }), grpc.status.INVALID_ARGUMENT, 'At least one topic or country must be specified');
    await expectStatus(createFeed('[]'), grpc.status.INVALID_ARGUMENT, 'Invalid JSON body');
    expect(await feedCount()).to.equal(before);
  });

  it('when an RSS feed is polled, then the first poll only marks its items seen, a new item becomes one campaign, and the next polls send nothing more (conditional GET)', async () => {
    const first = { guid: 'post-1', title: 'First post', link: 'https://shop.example/1', description: 'Old news' };
    server.docs.set('/rss.xml', { body: rss([first]), type: 'application/rss+xml', etag: '"v1"' });
    const f = await createFeed({ url: server.url('/rss.xml'), topics: ['news'] });
    const p = poller();
    expect((await p.pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 0, error: null });
    expect(await campaignsOf(f.id)).to.deep.equal([]);

    const second = { guid: 'post-2', title: 'Second <b>post</b>', link: 'https://shop.example/2', description: '<p>Fresh &amp; <i>new</i></p>', image: 'https://shop.example/2.jpg' };
    server.docs.set('/rss.xml', { body: rss([second, first]), type: 'application/rss+xml', etag: '"v2"' });
    await due(f.id);
    expect((await p.pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 1, error: null });
    const [campaignId] = await campaignsOf(f.id);
    const c = await getCampaign(h, site.siteId, campaignId);
    expect(c).to.deep.include({ title: 'Second post', body: 'Fresh & new', link: 'https://shop.example/2', image: 'https://shop.example/2.jpg', status: 'published' });
    expect(c.topics).to.deep.equal(['news']);

    await due(f.id);
    server.conditional.length = 0;
    expect((await p.pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 0, error: null });
    expect(server.conditional).to.deep.equal(['/rss.xml']); // answered 304
    server.docs.set('/rss.xml', { body: rss([second, first]), type: 'application/rss+xml', etag: '"v3"' });
    await due(f.id);
    expect((await p.pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 0, error: null });
    expect(await campaignsOf(f.id)).to.deep.equal([campaignId]);
    const read = await getFeed(f.id);
    expect(read).to.deep.include({ title: 'Shop news', lastError: '', consecutiveFailures: 0, campaignsCreated: 1 });
    expect(read.lastSuccessAt).to.match(/Z$/);
  });

  it('when an Atom feed gets an entry, then it becomes a campaign', async () => {
    server.docs.set('/atom.xml', { body: atom([{ guid: 'urn:1', title: 'Atom one', link: 'https://shop.example/a1', description: 'First' }]), type: 'application/atom+xml' });
    const f = await createFeed({ url: server.url('/atom.xml'), countries: ['br'] });
    const p = poller();
    await p.pass();
    server.docs.set('/atom.xml', { body: atom([{ guid: 'urn:2', title: 'Atom two', link: 'https://shop.example/a2', description: 'Second &lt;b&gt;entry&lt;/b&gt;' }, { guid: 'urn:1', title: 'Atom one', link: 'https://shop.example/a1' }]), type: 'application/atom+xml' });
    await due(f.id);
    expect((await p.pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 1, error: null });
    const c = await getCampaign(h, site.siteId, (await campaignsOf(f.id))[0]);
    expect(c).to.deep.include({ title: 'Atom two', body: 'Second entry', link: 'https://shop.example/a2' });
  });

  it('when the poll crashes between the fetch and the commit, then the next poll sends the item, once', async () => {
    server.docs.set('/crash.xml', { body: rss([]), type: 'application/rss+xml' });
    const f = await createFeed({ url: server.url('/crash.xml'), topics: ['news'] });
    await poller().pass();
    server.docs.set('/crash.xml', { body: rss([{ guid: 'c-1', title: 'Crash item', link: 'https://shop.example/c1', description: 'Sent once' }]), type: 'application/rss+xml' });
    await due(f.id);
    // An instance that claims the feed and dies before anything commits: its lease is left.
    await claimDueFeeds(h.pool, '00000000-0000-4000-8000-000000000001', 60_000, 50);
    expect((await poller().pass()).map((o) => o.feedId)).not.to.include(f.id); // leased: not claimed twice
    // The create's transaction dies (a crash at the commit): nothing of the item is written.
    await h.pool.query("UPDATE campaign.feeds SET lease_until = now() - interval '1 second' WHERE id = $1", [f.id]);
    const dying: CreateCampaign = (siteId, body, key, claim) => create(siteId, body, key, async (tx, id) => {
      await claim!(tx, id);
      throw new Error('process killed');
    });
    expect((await poller(dying).pass()).find((o) => o.feedId === f.id)?.error).to.match(/process killed/);
    expect(await campaignsOf(f.id)).to.deep.equal([]);
    expect(await getFeed(f.id)).to.deep.include({ consecutiveFailures: 1 });
    // The next poll, then another one: one campaign.
    await due(f.id);
    expect((await poller().pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 1, error: null });
    await due(f.id);
    expect((await poller().pass()).find((o) => o.feedId === f.id)).to.deep.include({ campaigns: 0, error: null });
    expect(await campaignsOf(f.id)).to.have.length(1);
    expect(await getFeed(f.id)).to.deep.include({ consecutiveFailures: 0, lastError: '' });
  });

  it('when two pollers send the same item at once, then one campaign is made', async () => {
    server.docs.set('/race.xml', { body: rss([]), type: 'application/rss+xml' });
    const f = await createFeed({ url: server.url('/race.xml'), topics: ['news'] });
    await poller().pass();
    server.docs.set('/race.xml', { body: rss([{ guid: 'r-1', title: 'Race item', link: 'https://shop.example/r1', description: 'Sent once' }]), type: 'application/rss+xml' });
    await due(f.id);
    // Both read the feed before either commits: the second's create finds the item's row.
    await Promise.all([poller().pass(), (async () => {
      await h.pool.query("UPDATE campaign.feeds SET lease_until = now() - interval '1 second' WHERE id = $1", [f.id]);
      await poller().pass();
    })()]);
    expect(await campaignsOf(f.id)).to.have.length(1);
  });

  it('when the feed name resolves to a private address, is too large or is not a feed, then the poll fails with the reason on the feed, and nothing is sent', async () => {
    const privateDns = createFeedFetcher({ testHosts: [], timeoutMs: 5000, maxBytes: 1_048_576, resolve: (_h, _o, cb) => cb(null, [{ address: '10.0.0.7', family: 4 }]) });
    const f = await createFeed({ url: 'https://feeds.example.com/rss.xml', topics: ['news'] });
    const [outcome] = (await poller(create, privateDns).pass()).filter((o) => o.feedId === f.id);
    privateDns.close();
    expect(outcome.error).to.equal('refused: feeds.example.com resolves to 10.0.0.7 (private)');
    expect(await getFeed(f.id)).to.deep.include({ lastError: outcome.error, consecutiveFailures: 1 });
    await h.call('UpdateFeed', req(site, { feedId: f.id, body: { paused: true } }));

    server.docs.set('/big.xml', { body: rss([{ guid: 'b', title: 'Big', link: 'https://shop.example/b', description: 'x'.repeat(1_100_000) }]), type: 'application/rss+xml' });
    const big = await createFeed({ url: server.url('/big.xml'), topics: ['news'] });
    server.docs.set('/bad.xml', { body: '<html><body>Not a feed</body></html>', type: 'text/html' });
    const bad = await createFeed({ url: server.url('/bad.xml'), topics: ['news'] });
    const outcomes = await poller().pass();
    expect(outcomes.find((o) => o.feedId === big.id)?.error).to.equal('feed larger than 1048576 bytes');
    expect(outcomes.find((o) => o.feedId === bad.id)?.error).to.match(/^not an RSS or Atom feed/);
    const read = await getFeed(bad.id);
    expect(read.lastError).to.match(/^not an RSS or Atom feed/);
    expect(read.consecutiveFailures).to.equal(1);
    // Backed off: due again one interval later, not at once.
    expect(new Date(read.nextPollAt).getTime()).to.be.greaterThan(Date.now() + 10 * 60_000);
    // A document declaring entities is not parsed at all.
    server.docs.set('/bad.xml', { body: '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><rss version="2.0"><channel><title>&a;</title></channel></rss>', type: 'application/rss+xml' });
    await due(bad.id);
    expect((await poller().pass()).find((o) => o.feedId === bad.id)?.error).to.equal('not read: the document declares XML entities');
    expect(await getFeed(bad.id)).to.deep.include({ consecutiveFailures: 2 });
    for (const id of [f.id, big.id, bad.id]) expect(await campaignsOf(id)).to.deep.equal([]);
  });

  it('when a feed redirects, then at most 3 redirects are followed, each new URL under the same rules', async () => {
    server.docs.set('/moved.xml', { body: rss([]), type: 'application/rss+xml' });
    const fetched = await fetcher.fetch(server.url(`/redirect/3/${encodeURIComponent(server.url('/moved.xml'))}`), { etag: null, lastModified: null });
    expect(fetched.kind).to.equal('fetched');
    expect(await fetcher.fetch(server.url(`/redirect/4/${encodeURIComponent(server.url('/moved.xml'))}`), { etag: null, lastModified: null })).to.deep.equal({ kind: 'failed', error: 'more than 3 redirects' });
    expect(await fetcher.fetch(server.url(`/redirect/1/${encodeURIComponent('https://169.254.169.254/latest/meta-data/')}`), { etag: null, lastModified: null })).to.deep.equal({
      kind: 'failed',
      error: 'refused: url must not point to a private, loopback, link-local or metadata address (redirected to https://169.254.169.254/latest/meta-data/)',
    });
  });

  it('when a feed is paused or deleted, then it is polled no more', async () => {
    server.docs.set('/paused.xml', { body: rss([]), type: 'application/rss+xml' });
    const f = await createFeed({ url: server.url('/paused.xml'), topics: ['news'], paused: true });
    expect(f.nextPollAt).to.equal('');
    expect((await poller().pass()).map((o) => o.feedId)).not.to.include(f.id);
    const resumed = await h.call<Feed__Output>('UpdateFeed', req(site, { feedId: f.id, body: { paused: false } }));
    expect(resumed.paused).to.equal(false);
    await h.call('DeleteFeed', req(site, { feedId: f.id }));
    expect((await poller().pass()).map((o) => o.feedId)).not.to.include(f.id);
  });
});
