// POST /v2/campaign/create and GET /v2/campaign/{id} as a customer sees them.
import { expect } from 'chai';
import { ALL, DATE_RE, inSeconds, siteWithPermissions, subscribe, validCampaign, type SiteInfo } from './support/fixtures.js';
import { startStack, type Stack } from './support/harness.js';

const DATE_MSG = 'Invalid schedule date format. Use ISO format (e.g. 2025-01-01T12:00:00Z)';

describe('e2e: creating campaigns', function () {
  this.timeout(120_000);
  let stack: Stack;
  let site: SiteInfo;
  const create = (body: unknown, headers: Record<string, string> = {}) =>
    stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, body, headers });
  const get = (id: string) => stack.api.request('GET', `/v2/campaign/${id}`, { key: site.apiKey });
  const count = async () => {
    let n = 0;
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { limit: 60, ...(cursor ? { cursor } : {}) } });
      n += res.body.items.length;
      if (!res.body.hasMore) return n;
      cursor = res.body.nextCursor;
    }
    throw new Error('too many pages');
  };

  before(async () => {
    // The test client stands for the trusted proxy in front of the gateway, which names the country.
    stack = await startStack('e2e_create', { COUNTRY_HEADER: 'x-test-country', TRUSTED_PROXIES: '127.0.0.1,::1' });
    site = await siteWithPermissions(stack, ALL, 'creator');
    // A known audience: s1 news/br, s2 sports/br, s3 news+sports/us, s4 tech/(unknown country).
    await subscribe(stack, site, 's1', ['news'], 'BR');
    await subscribe(stack, site, 's2', ['Sports'], 'br');
    await subscribe(stack, site, 's3', ['news', 'sports'], 'US');
    await subscribe(stack, site, 's4', ['tech']);
  });
  after(async () => {
    await stack?.stop();
  });

  it('when a draft is created with the required fields only, then get returns the spec campaign object with its defaults', async () => {
    const res = await create(validCampaign());
    expect(res.status, res.text).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(['id']);
    const got = await get(res.body.id);
    expect(got.status).to.equal(200);
    const c = got.body;
    expect(Object.keys(c)).to.deep.equal([
      'id', 'title', 'body', 'link', 'topics', 'status', 'scheduleDate', 'scheduleMode', 'createdAt', 'updatedAt', 'totalUsers',
      'image', 'icon', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign', 'ttl', 'ttlUnit', 'analytics',
      // The addition of 2026-11-23, after every field the spec states.
      'delivery',
    ]);
    expect(c).to.deep.include({
      id: res.body.id, title: 'Weekend sale', body: 'Everything is half price until Sunday', link: 'https://shop.example/sale',
      topics: ['news'], status: 'draft', scheduleMode: 'now', updatedAt: null, totalUsers: 2, image: null, icon: null,
      callToAction: '', utmSource: '', utmMedium: '', utmCampaign: '', ttl: 2419200, ttlUnit: 'seconds',
    });
    expect(c.createdAt).to.match(DATE_RE);
    expect(c.scheduleDate).to.equal(c.createdAt);
    expect(c.analytics).to.deep.equal({ clicks: 0, impressions: 0, ctr: 0, its: 0, totalUsers: 2 });
    expect(c.delivery).to.deep.equal({ sent: 0, failed: 0, expired: 0, pending: 0, failedBy: { rejected: 0, unauthorized: 0, unreachable: 0, refused: 0 } });
  });

  it('when topics and countries are both given, then they are merged and totalUsers counts each subscriber of the union once', async () => {
    const res = await create(validCampaign({ topics: ['news', 'Tech'], countries: ['country__br', 'us'] }));
    const c = (await get(res.body.id)).body;
    expect(c.topics).to.deep.equal(['news', 'tech', 'country__br', 'country__us']);
    expect(c.totalUsers).to.equal(4);
    const onlyCountry = (await get((await create(validCampaign({ topics: undefined, countries: ['country__br'] }))).body.id)).body;
    expect(onlyCountry.topics).to.deep.equal(['country__br']);
    expect(onlyCountry.totalUsers).to.equal(2);
    const nobody = (await get((await create(validCampaign({ topics: ['gardening'] }))).body.id)).body;
    expect(nobody.totalUsers).to.equal(0);
    expect(nobody.analytics.its).to.equal(0);
  });

  it('when every optional field is given, then each is stored and returned as sent', async () => {
    const body = validCampaign({
      icon: 'https://cdn.example/icon.png', image: 'https://cdn.example/big.jpg', callToAction: 'Buy now',
      utmSource: 'push', utmMedium: 'web', utmCampaign: 'sale-2026', ttl: 3600, status: 'published',
      scheduleMode: 'scheduled', scheduleDate: '2031-06-01T10:30:00Z',
    });
    const c = (await get((await create(body)).body.id)).body;
    expect(c).to.deep.include({
      icon: 'https://cdn.example/icon.png', image: 'https://cdn.example/big.jpg', callToAction: 'Buy now', utmSource: 'push',
      utmMedium: 'web', utmCampaign: 'sale-2026', ttl: 3600, status: 'published', scheduleMode: 'scheduled', scheduleDate: '2031-06-01T10:30:00Z',
    });
  });

  it('when ttl is 0 it yields the default; milliseconds in a date are accepted and cut to the second', async () => {
    const c = (await get((await create(validCampaign({ ttl: 0, scheduleMode: 'scheduled', scheduleDate: '2031-01-02T03:04:05.678Z' }))).body.id)).body;
    expect(c.ttl).to.equal(2419200);
    expect(c.scheduleDate).to.equal('2031-01-02T03:04:05Z');
  });

  it('when unknown or read-only fields are sent, then they are ignored and never applied', async () => {
    const res = await create(validCampaign({ id: 'mine', totalUsers: 999, createdAt: '2000-01-01T00:00:00Z', analytics: { clicks: 5 }, ttlUnit: 'hours', updatedAt: '2000-01-01T00:00:00Z', extra: { deep: [1, 2] } }));
    expect(res.status).to.equal(200);
    const c = (await get(res.body.id)).body;
    expect(c.id).to.not.equal('mine');
    expect(c.totalUsers).to.equal(2);
    expect(c.createdAt).to.not.equal('2000-01-01T00:00:00Z');
    expect(c.analytics.clicks).to.equal(0);
    expect(c.ttlUnit).to.equal('seconds');
    expect(c.updatedAt).to.equal(null);
    expect(c).to.not.have.property('extra');
  });

  it('when text holds emoji, then each user-perceived character counts once', async () => {
    expect((await create(validCampaign({ title: '👨‍👩‍👧🎉🇧🇷' }))).status).to.equal(200);
    expect((await create(validCampaign({ title: '👍🏽'.repeat(100), callToAction: '🎉'.repeat(20) }))).status).to.equal(200);
    const tooLong = await create(validCampaign({ title: '👍🏽'.repeat(101), callToAction: '🎉'.repeat(21) }));
    expect(tooLong.body).to.deep.equal({ message: 'Title must be between 3 and 100 characters, Call to action must not exceed 20 characters' });
    expect((await create(validCampaign({ title: '🇧🇷🇵🇹' }))).body).to.deep.equal({ message: 'Title must be between 3 and 100 characters' });
  });

  const rows: Array<[string, Record<string, unknown>, string]> = [
    ['title missing', { title: undefined }, 'Title is required'],
    ['title too short', { title: 'ab' }, 'Title must be between 3 and 100 characters'],
    ['title too long', { title: 'x'.repeat(101) }, 'Title must be between 3 and 100 characters'],
    ['title not a string', { title: 12345 }, 'Title must be between 3 and 100 characters'],
    ['body missing', { body: undefined }, 'Body is required'],
    ['body too short', { body: 'hi' }, 'Body must be between 3 and 300 characters'],
    ['body too long', { body: 'y'.repeat(301) }, 'Body must be between 3 and 300 characters'],
    ['link missing', { link: undefined }, 'Link is required'],
    ['link empty', { link: '' }, 'Link is required'],
    ['no audience', { topics: undefined }, 'At least one topic or country must be specified'],
    ['empty audience', { topics: [], countries: [] }, 'At least one topic or country must be specified'],
    ['audience of the wrong type', { topics: 'news' }, 'At least one topic or country must be specified'],
    ['call to action too long', { callToAction: 'c'.repeat(21) }, 'Call to action must not exceed 20 characters'],
    ['icon not https', { icon: 'http://cdn.example/i.png' }, 'Icon must be a valid URL'],
    ['image not https', { image: 'ftp://cdn.example/i.png' }, 'Image must be a valid URL'],
    ['bad status', { status: 'sent' }, 'Invalid campaign status'],
    ['status missing', { status: undefined }, 'Invalid campaign status'],
    ['bad schedule mode', { scheduleMode: 'later' }, 'Invalid schedule mode'],
    ['scheduled without date', { scheduleMode: 'scheduled' }, 'Schedule date is required for schedule mode'],
    ['date with a non-UTC offset', { scheduleMode: 'scheduled', scheduleDate: '2031-01-01T10:00:00+01:00' }, DATE_MSG],
    ['date without Z', { scheduleMode: 'scheduled', scheduleDate: '2031-01-01T10:00:00' }, DATE_MSG],
    ['impossible date', { scheduleMode: 'scheduled', scheduleDate: '2031-02-30T10:00:00Z' }, DATE_MSG],
    ['date not a string', { scheduleMode: 'scheduled', scheduleDate: 1767225600 }, DATE_MSG],
    ['ttl above 28 days', { ttl: 2419201 }, 'TTL must be between 0 and 28 days in seconds'],
    ['negative ttl', { ttl: -1 }, 'TTL must be between 0 and 28 days in seconds'],
    ['fractional ttl', { ttl: 1.5 }, 'TTL must be between 0 and 28 days in seconds'],
    ['ttl as a string', { ttl: '60' }, 'TTL must be between 0 and 28 days in seconds'],
    ['javascript: link', { link: 'javascript:alert(1)' }, 'Link must be a valid URL'],
  ];
  for (const [label, change, message] of rows) {
    it(`when ${label}, then 400 "${message}" and nothing is stored`, async () => {
      const before = await count();
      const res = await create(validCampaign(change));
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.deep.equal({ message });
      expect(await count()).to.equal(before);
    });
  }

  it('when several fields are wrong, then their messages are joined with ", " in the spec order', async () => {
    const res = await create({});
    expect(res.body).to.deep.equal({
      message: 'Title is required, Body is required, Link is required, At least one topic or country must be specified, Invalid campaign status, Invalid schedule mode',
    });
    const res2 = await create(validCampaign({ title: 'ab', icon: 'x', image: 'y', scheduleMode: 'scheduled', ttl: 9e9 }));
    expect(res2.body).to.deep.equal({
      message: 'Title must be between 3 and 100 characters, Icon must be a valid URL, Image must be a valid URL, Schedule date is required for schedule mode, TTL must be between 0 and 28 days in seconds',
    });
  });

  it('when the body is not valid JSON or not an object, then 400 Invalid JSON body', async () => {
    for (const raw of ['{"title":', 'not json', '[1,2]', '"text"', '42', 'null']) {
      const res = await stack.api.request('POST', '/v2/campaign/create', { key: site.apiKey, rawBody: raw });
      expect(res.status, raw).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Invalid JSON body' });
    }
  });

  it('when the body is larger than the limit, then 413 with a message and nothing is stored', async () => {
    const before = await count();
    const res = await create(validCampaign({ body: 'z'.repeat(200_000) }));
    expect(res.status).to.equal(413);
    expect(res.body.message).to.be.a('string').and.not.equal('');
    expect(await count()).to.equal(before);
  });

  it('when the notification would not fit a push message, then 400 with a clear message', async () => {
    const long = 'https://shop.example/' + 'p'.repeat(2000);
    const res = await create(validCampaign({ link: long, icon: long, image: long }));
    expect(res.status).to.equal(400);
    expect(res.body.message).to.match(/too large/i);
  });

  it('when the same Idempotency-Key is sent twice, then the first answer is replayed and one campaign exists', async () => {
    const before = await count();
    const key = `order-${Date.now()}`;
    const first = await create(validCampaign({ title: 'Idempotent' }), { 'Idempotency-Key': key });
    const second = await create(validCampaign({ title: 'Idempotent' }), { 'Idempotency-Key': key });
    expect(first.status).to.equal(200);
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
    expect(await count()).to.equal(before + 1);
    const clash = await create(validCampaign({ title: 'Something else' }), { 'Idempotency-Key': key });
    expect(clash.status).to.equal(422);
    expect(clash.body.message).to.match(/Idempotency-Key/);
    expect(await count()).to.equal(before + 1);
  });

  it('when status is failed at creation, then it is stored as failed and listed under the failed filter', async () => {
    const id = (await create(validCampaign({ status: 'failed' }))).body.id;
    expect((await get(id)).body.status).to.equal('failed');
    const listed = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { status: ['failed'], limit: 60 } });
    expect(listed.body.items.map((c: { id: string }) => c.id)).to.include(id);
  });

  it('when a published campaign is sent now, then it reads published and is listed as sent', async () => {
    const id = (await create(validCampaign({ status: 'published' }))).body.id;
    expect((await get(id)).body.status).to.equal('published');
    const sent = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { status: ['sent'], limit: 60 } });
    expect(sent.body.items.map((c: { id: string }) => c.id)).to.include(id);
    const sched = await stack.api.request('POST', '/v2/campaigns', { key: site.apiKey, body: { status: ['scheduled'], limit: 60 } });
    expect(sched.body.items.map((c: { id: string }) => c.id)).to.not.include(id);
    void inSeconds;
  });
});
