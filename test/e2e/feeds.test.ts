// Feeds through the real stack (docs/api-decisions.md, "Feeds"): a customer adds an RSS feed with
// /v2; the campaign service's own poller reads it from a local feed server (a test host,
// FEED_TEST_HOSTS); the items there when it was added are only marked seen, a new item becomes
// one campaign whose push each browser gets (decrypted by the push-service simulator) once, and
// later polls send nothing more. Keys of another site, and of a plan that may not create
// campaigns, reach no feed. (Each poll is made due through the database: the shortest interval
// a customer may set is 5 minutes.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import { startPushSimulator, type PushSimulator } from '../../tools/push-simulator/src/index.js';
import { ALL, siteWithPermissions, subscribeSimulated, type SiteInfo } from './support/fixtures.js';
import { eventually, startStack, type Stack } from './support/harness.js';

const item = (n: number) => `<item><guid isPermaLink="false">post-${n}</guid><title>Post number ${n}</title><link>https://blog.example/posts/${n}</link>
<description>&lt;p&gt;What post ${n} says&lt;/p&gt;</description><enclosure url="https://blog.example/posts/${n}.jpg" type="image/jpeg" length="1000"/></item>`;
const rss = (ns: number[]) => `<?xml version="1.0"?><rss version="2.0"><channel><title>The blog</title><link>https://blog.example/</link>${ns.map(item).join('')}</channel></rss>`;

describe('e2e: feeds', function () {
  this.timeout(240_000);
  let stack: Stack;
  let sim: PushSimulator;
  let site: SiteInfo;
  let other: SiteInfo;
  let readOnly: SiteInfo;
  let db: pg.Client;
  let served = rss([1]);
  let fetches = 0;
  const server = http.createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end(served);
  });

  before(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    sim = await startPushSimulator({ seed: 38 });
    stack = await startStack('e2e_feeds', { PUSH_EXTRA_CA_FILE: sim.caCertFile, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', FEED_TEST_HOSTS: '127.0.0.1', FEED_POLLER_INTERVAL_MS: '200' });
    site = await siteWithPermissions(stack, ALL, 'blog');
    other = await siteWithPermissions(stack, ALL, 'bystander');
    readOnly = await siteWithPermissions(stack, ['reports'], 'reader');
    db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
    await sim?.close();
    await new Promise<void>((done) => server.close(() => done()));
  });

  const api = (method: string, path: string, body?: unknown, key = site.apiKey) => stack.api.request(method, path, { key, body });
  const feedUrl = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
  /** The feed polled once more by the service's poller: made due, then its fetch seen done. */
  async function pollOnce(id: string) {
    const before = fetches;
    await db.query('UPDATE campaign.feeds SET next_poll_at = now() WHERE id = $1', [id]);
    await eventually(async () => {
      const f = await api('GET', `/v2/feeds/${id}`);
      return fetches > before && f.body.lastFetchedAt && new Date(f.body.nextPollAt).getTime() > Date.now() ? f.body : undefined;
    }, 60_000, 100);
  }

  it('when a feed gets a new item, then it becomes one campaign each browser gets once, and the items there when the feed was added are not sent', async () => {
    const browsers = await subscribeSimulated(stack, sim, site, 2, () => ({ topics: ['blog'] }));
    const created = await api('POST', '/v2/feeds', { url: feedUrl(), topics: ['blog'], utmSource: 'feed' });
    expect(created.status, created.text).to.equal(200);
    const feedId = created.body.id as string;
    // The first poll, at once: post 1 only marked seen.
    await eventually(async () => ((await api('GET', `/v2/feeds/${feedId}`)).body.lastSuccessAt ? true : undefined), 60_000, 100);
    expect((await api('GET', `/v2/feeds/${feedId}`)).body).to.deep.include({ title: 'The blog', campaignsCreated: 0, lastError: null });

    served = rss([2, 1]);
    await pollOnce(feedId);
    await pollOnce(feedId);
    const feed = (await api('GET', `/v2/feeds/${feedId}`)).body;
    expect(feed).to.deep.include({ campaignsCreated: 1, consecutiveFailures: 0, lastError: null });
    const pushes = () => sim.received().map((m) => JSON.parse(m.payload)).filter((p) => p.title === 'Post number 2');
    await eventually(async () => (pushes().length >= browsers.length ? true : undefined), 60_000, 100);
    for (const p of pushes()) expect(p).to.deep.include({ body: 'What post 2 says', url: 'https://blog.example/posts/2?utm_source=feed', image: 'https://blog.example/posts/2.jpg' });
    expect(pushes()).to.have.length(browsers.length);
    expect(sim.received().map((m) => JSON.parse(m.payload)).filter((p) => p.title === 'Post number 1')).to.deep.equal([]);
    const campaigns = await api('POST', '/v2/campaigns', {});
    expect(campaigns.body.items.filter((c: { title: string }) => c.title === 'Post number 2')).to.have.length(1);
  });

  it('when another site or a plan that may not create campaigns calls, then it reaches no feed', async () => {
    const f = (await api('POST', '/v2/feeds', { url: feedUrl(), topics: ['blog'], paused: true })).body;
    for (const [method, path, body] of [
      ['GET', `/v2/feeds/${f.id}`],
      ['PATCH', `/v2/feeds/${f.id}`, { paused: false }],
      ['DELETE', `/v2/feeds/${f.id}`],
    ] as const) {
      const res = await api(method, path, body, other.apiKey);
      expect({ status: res.status, body: res.body }, `${method} ${path}`).to.deep.equal({ status: 404, body: { message: 'Feed not found' } });
      const denied = await api(method, path, body, readOnly.apiKey);
      expect({ status: denied.status, body: denied.body }).to.deep.equal({ status: 403, body: { message: 'This plan does not have permission to manage feeds via API' } });
    }
    expect((await api('GET', '/v2/feeds', undefined, other.apiKey)).body.items).to.deep.equal([]);
    const refused = await api('POST', '/v2/feeds', { url: 'https://169.254.169.254/latest/meta-data/', topics: ['blog'] });
    expect({ status: refused.status, body: refused.body }).to.deep.equal({ status: 400, body: { message: 'url must not point to a private, loopback, link-local or metadata address' } });
    expect((await api('GET', `/v2/feeds/${f.id}`)).body).to.deep.include({ paused: true, nextPollAt: null });
  });
});
