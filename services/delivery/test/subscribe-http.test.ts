// The site plugin's HTTP endpoints over a real server: validation, idempotency, country,
// CORS, errors. Every refused request leaves the subscribers table unchanged.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { MESSAGES } from '../src/audience/subscription-input.js';
import { browserKeys, listCountries, listTopics, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('delivery: subscribe over HTTP', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let site: { siteId: string; publicId: string };
  let path: string;

  const subscriberCount = async () => Number((await t.pool.query('SELECT count(*) FROM delivery.subscribers')).rows[0].count);
  const validBody = (overrides: Record<string, unknown> = {}) => ({
    subscription: { endpoint: pushEndpoint(), keys: browserKeys() },
    topics: ['sport'],
    language: 'pt-BR',
    timeZone: 'America/Sao_Paulo',
    ...overrides,
  });

  before(async () => {
    t = await startTestDelivery('subscribe_http', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
    site = await newSite(t);
    path = `/public/v1/sites/${site.publicId}/subscriptions`;
  });
  after(async () => {
    await t?.stop();
  });

  it('when a new browser subscribes, then 201 {id, created: true} and the row holds what was sent', async () => {
    const body = validBody({ topics: [' Sport ', 'NEWS', 'news'] });
    const res = await request(t, 'POST', path, { body, country: 'BR' });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ id: res.body.id, created: true });
    expect(res.body.id).to.match(UUID);
    const { rows } = await t.pool.query('SELECT * FROM delivery.subscribers WHERE public_id = $1', [res.body.id]);
    expect(rows[0]).to.include({
      site_id: site.siteId,
      endpoint: body.subscription.endpoint,
      p256dh: body.subscription.keys.p256dh,
      auth: body.subscription.keys.auth,
      country: 'country__br',
      language: 'pt-BR',
      time_zone: 'America/Sao_Paulo',
      active: true,
    });
    expect(rows[0].topics).to.deep.equal(['news', 'sport']);
  });

  it('when the same endpoint subscribes again, then 200 {created: false}, one subscriber, keys updated and topics merged', async () => {
    const body = validBody({ topics: ['a'] });
    const first = await request(t, 'POST', path, { body, country: 'us' });
    const keys = browserKeys();
    const second = await request(t, 'POST', path, {
      body: { subscription: { endpoint: body.subscription.endpoint, keys }, topics: ['b'], language: 'en' },
      country: 'PT',
    });
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.equal({ id: first.body.id, created: false });
    const { rows } = await t.pool.query('SELECT * FROM delivery.subscribers WHERE endpoint = $1', [body.subscription.endpoint]);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ p256dh: keys.p256dh, auth: keys.auth, country: 'country__pt', language: 'en', time_zone: 'America/Sao_Paulo' });
    expect(rows[0].topics).to.deep.equal(['a', 'b']);
  });

  it('when a browser says it shows Declarative Web Push messages, then the flag is stored; a later subscribe that does not say keeps it, one that says false clears it', async () => {
    const flag = async (endpoint: string) => (await t.pool.query('SELECT declarative FROM delivery.subscribers WHERE endpoint = $1', [endpoint])).rows[0].declarative as boolean;
    const plain = validBody();
    expect((await request(t, 'POST', path, { body: plain })).status).to.equal(201);
    expect(await flag(plain.subscription.endpoint), 'a browser that does not say').to.equal(false);
    const body = validBody({ declarative: true });
    expect((await request(t, 'POST', path, { body })).status).to.equal(201);
    expect(await flag(body.subscription.endpoint)).to.equal(true);
    expect((await request(t, 'POST', path, { body: validBody({ subscription: body.subscription }) })).status).to.equal(200);
    expect(await flag(body.subscription.endpoint), 'not said: kept').to.equal(true);
    expect((await request(t, 'POST', path, { body: { ...body, declarative: false } })).status).to.equal(200);
    expect(await flag(body.subscription.endpoint)).to.equal(false);
  });

  it('when an unsubscribed endpoint subscribes again, then it is active again and counted', async () => {
    const body = validBody({ topics: ['comeback'] });
    await request(t, 'POST', path, { body });
    const del = await request(t, 'DELETE', path, { body: { endpoint: body.subscription.endpoint } });
    expect(del).to.deep.include({ status: 200, body: { deactivated: true } });
    expect((await listTopics(t, site.siteId)).find((e) => e.name === 'comeback')).to.equal(undefined);
    const again = await request(t, 'POST', path, { body });
    expect(again.status).to.equal(200);
    expect((await listTopics(t, site.siteId)).find((e) => e.name === 'comeback')).to.deep.equal({ name: 'comeback', users: 1 });
    const { rows } = await t.pool.query('SELECT active, deactivated_at FROM delivery.subscribers WHERE endpoint = $1', [body.subscription.endpoint]);
    expect(rows[0]).to.deep.equal({ active: true, deactivated_at: null });
  });

  it('when an unknown endpoint is unsubscribed, then 200 {deactivated: false}', async () => {
    const res = await request(t, 'DELETE', path, { body: { endpoint: pushEndpoint() } });
    expect(res).to.deep.include({ status: 200, body: { deactivated: false } });
  });

  it('when the unsubscribe body has no endpoint, then 400 with its message', async () => {
    for (const body of [{}, { endpoint: 5 }, { endpoint: '' }, { endpoint: 'x'.repeat(2049) }]) {
      const res = await request(t, 'DELETE', path, { body });
      expect(res, JSON.stringify(body).slice(0, 40)).to.deep.include({ status: 400, body: { message: MESSAGES.endpointString } });
    }
  });

  it('the country comes only from the gateway\'s x-client-country: a body `country` or an edge header is ignored, anything but two letters is country__desconhecido', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'country__desconhecido'],
      [{ 'x-client-country': 'Br' }, 'country__br'],
      [{ 'x-client-country': 'BRA' }, 'country__desconhecido'],
      [{ 'x-client-country': 'X1' }, 'country__desconhecido'],
      [{ 'x-client-country': '' }, 'country__desconhecido'],
      [{ 'cf-ipcountry': 'DE' }, 'country__desconhecido'],
      [{ 'x-edge-country': 'DE' }, 'country__desconhecido'],
    ];
    for (const [headers, country] of cases) {
      const res = await request(t, 'POST', path, { body: validBody({ country: 'country__fr', countries: ['fr'] }), headers });
      expect(res.status).to.equal(201);
      const { rows } = await t.pool.query('SELECT country FROM delivery.subscribers WHERE public_id = $1', [res.body.id]);
      expect(rows[0].country, JSON.stringify(headers)).to.equal(country);
    }
    expect((await listCountries(t, site.siteId)).map((e) => e.name)).to.not.include('country__fr');
  });

  it('when the site is unknown, then 404 Site not found', async () => {
    for (const id of ['pub_' + randomBytes(16).toString('base64url').slice(0, 22), 'nope', '%00', 'x'.repeat(300)]) {
      const res = await request(t, 'POST', `/public/v1/sites/${id}/subscriptions`, { body: validBody() });
      expect(res, id.slice(0, 20)).to.deep.include({ status: 404, body: { message: 'Site not found' } });
      const del = await request(t, 'DELETE', `/public/v1/sites/${id}/subscriptions`, { body: { endpoint: pushEndpoint() } });
      expect(del.status).to.equal(404);
    }
  });

  describe('validation (400, nothing stored)', () => {
    let before_: number;
    beforeEach(async () => {
      before_ = await subscriberCount();
    });
    afterEach(async () => {
      expect(await subscriberCount(), 'nothing stored').to.equal(before_);
    });

    const keys = browserKeys();
    const sub = (endpoint: unknown, k: unknown = keys) => ({ subscription: { endpoint, keys: k } });
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    const cases: [string, unknown, string][] = [
      ['missing subscription', {}, [MESSAGES.endpoint, MESSAGES.p256dh, MESSAGES.auth].join(', ')],
      ['subscription not an object', { subscription: 'x' }, [MESSAGES.endpoint, MESSAGES.p256dh, MESSAGES.auth].join(', ')],
      ['missing keys', { subscription: { endpoint: pushEndpoint() } }, [MESSAGES.p256dh, MESSAGES.auth].join(', ')],
      ['http endpoint', sub('http://fcm.googleapis.com/push/x'), MESSAGES.endpoint],
      ['endpoint host not allowed', sub('https://evil.example.com/push/x'), MESSAGES.endpoint],
      ['endpoint host suffix trick', sub('https://127.0.0.1.evil.example/push/x'), MESSAGES.endpoint],
      ['endpoint with credentials', sub('https://user:pw@127.0.0.1/push/x'), MESSAGES.endpoint],
      ['endpoint not a URL', sub('not a url'), MESSAGES.endpoint],
      ['endpoint javascript:', sub('javascript:alert(1)'), MESSAGES.endpoint],
      ['endpoint too long', sub('https://127.0.0.1/' + 'a'.repeat(2048)), MESSAGES.endpoint],
      ['endpoint non-ASCII', sub('https://127.0.0.1/pushé'), MESSAGES.endpoint],
      ['endpoint a number', sub(42), MESSAGES.endpoint],
      ['p256dh not base64url', sub(pushEndpoint(), { ...keys, p256dh: 'B+/=' }), MESSAGES.p256dh],
      ['p256dh compressed point', sub(pushEndpoint(), { ...keys, p256dh: Buffer.from(keys.p256dh, 'base64url').subarray(0, 33).toString('base64url') }), MESSAGES.p256dh],
      ['p256dh not on the curve', sub(pushEndpoint(), { ...keys, p256dh: offCurve.toString('base64url') }), MESSAGES.p256dh],
      ['p256dh missing', sub(pushEndpoint(), { auth: keys.auth }), MESSAGES.p256dh],
      ['auth 15 bytes', sub(pushEndpoint(), { ...keys, auth: randomBytes(15).toString('base64url') }), MESSAGES.auth],
      ['auth a number', sub(pushEndpoint(), { ...keys, auth: 16 }), MESSAGES.auth],
      ['topics not an array', { ...sub(pushEndpoint()), topics: 'sport' }, MESSAGES.topics],
      ['21 topics', { ...sub(pushEndpoint()), topics: Array.from({ length: 21 }, (_, i) => `t${i}`) }, MESSAGES.topics],
      ['empty topic', { ...sub(pushEndpoint()), topics: ['  '] }, MESSAGES.topics],
      ['65-character topic', { ...sub(pushEndpoint()), topics: ['x'.repeat(65)] }, MESSAGES.topics],
      ['non-string topic', { ...sub(pushEndpoint()), topics: [1] }, MESSAGES.topics],
      ['topic with a control character', { ...sub(pushEndpoint()), topics: ['a\u0001b'] }, MESSAGES.topics],
      ['topic named like a country', { ...sub(pushEndpoint()), topics: ['Country__BR'] }, MESSAGES.topicPrefix],
      ['language too long', { ...sub(pushEndpoint()), language: 'x'.repeat(36) }, MESSAGES.language],
      ['language a number', { ...sub(pushEndpoint()), language: 1 }, MESSAGES.language],
      ['timeZone too long', { ...sub(pushEndpoint()), timeZone: 'x'.repeat(65) }, MESSAGES.timeZone],
      ['declarative a string', { ...sub(pushEndpoint()), declarative: 'true' }, MESSAGES.declarative],
      ['declarative null', { ...sub(pushEndpoint()), declarative: null }, MESSAGES.declarative],
      ['declarative a number', { ...sub(pushEndpoint()), declarative: 1 }, MESSAGES.declarative],
      [
        'everything wrong at once',
        { subscription: { endpoint: 'ftp://x', keys: { p256dh: 1, auth: 'x' } }, topics: [''], language: [], timeZone: {} },
        [MESSAGES.endpoint, MESSAGES.p256dh, MESSAGES.auth, MESSAGES.topics, MESSAGES.language, MESSAGES.timeZone].join(', '),
      ],
    ];
    for (const [name, body, message] of cases) {
      it(`when ${name}, then 400 "${message.slice(0, 50)}…"`, async () => {
        const res = await request(t, 'POST', path, { body });
        expect(res).to.deep.include({ status: 400, body: { message } });
      });
    }

    for (const [name, raw] of [
      ['malformed JSON', '{"subscription":'],
      ['a JSON array', '[]'],
      ['JSON null', 'null'],
      ['a JSON string', '"x"'],
      ['an empty body', ''],
    ] as [string, string][]) {
      it(`when the body is ${name}, then 400 Invalid JSON body`, async () => {
        const res = await request(t, 'POST', path, { raw });
        expect(res).to.deep.include({ status: 400, body: { message: 'Invalid JSON body' } });
      });
    }

    it('property: any JSON value or byte string as the body answers 400, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string({ unit: 'binary', maxLength: 200 })), async (raw) => {
          const res = await request(t, 'POST', path, { raw });
          expect(res.status, raw.slice(0, 80)).to.equal(400);
        }),
        { numRuns: 150 },
      );
    });

    it('when the body is over 16 kB, then 413 Request body too large', async () => {
      const res = await request(t, 'POST', path, { body: validBody({ padding: 'x'.repeat(17 * 1024) }) });
      expect(res).to.deep.include({ status: 413, body: { message: 'Request body too large' } });
    });
  });

  it('unknown fields are ignored and a text/plain JSON body is accepted (sendBeacon)', async () => {
    const res = await request(t, 'POST', path, { raw: JSON.stringify(validBody({ extra: { deep: [1, 2] }, active: false })), headers: { 'content-type': 'text/plain' } });
    expect(res.status).to.equal(201);
    const { rows } = await t.pool.query('SELECT active FROM delivery.subscribers WHERE public_id = $1', [res.body.id]);
    expect(rows[0].active).to.equal(true);
  });

  it('a wildcard host rule admits subdomains only, and localhost passes the test allow-list', async () => {
    const res = await request(t, 'POST', path, { body: validBody({ subscription: { endpoint: pushEndpoint('localhost'), keys: browserKeys() } }) });
    expect(res.status).to.equal(201);
    const { hostAllowed } = await import('../src/audience/push-endpoint.js');
    const rules = ['fcm.googleapis.com', '*.push.apple.com'];
    expect(hostAllowed('web.push.apple.com', rules)).to.equal(true);
    expect(hostAllowed('A.B.PUSH.APPLE.COM', rules)).to.equal(true);
    expect(hostAllowed('push.apple.com', rules)).to.equal(false);
    expect(hostAllowed('evilpush.apple.com', rules)).to.equal(false);
    expect(hostAllowed('fcm.googleapis.com.evil.com', rules)).to.equal(false);
  });

  it('when a browser sends a CORS preflight, then 204 allowing POST and DELETE with Content-Type for 10 minutes, without credentials', async () => {
    const res = await request(t, 'OPTIONS', path, {
      headers: { origin: 'https://customer.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-allow-methods')).to.equal('POST, DELETE');
    expect(res.headers.get('access-control-allow-headers')).to.equal('Content-Type');
    expect(res.headers.get('access-control-max-age')).to.equal('600');
    expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
    const post = await request(t, 'POST', path, { body: validBody(), headers: { origin: 'https://customer.example' } });
    expect(post.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('GET /healthz answers 200 {status: ok}; an unknown path answers 404 JSON', async () => {
    expect(await request(t, 'GET', '/healthz')).to.deep.include({ status: 200, body: { status: 'ok' } });
    expect(await request(t, 'GET', '/nope')).to.deep.include({ status: 404, body: { message: 'Not found' } });
  });

  it('when a subscriber keeps adding topics, then at most 20 are kept, the newest first', async () => {
    const endpoint = pushEndpoint();
    const keys = browserKeys();
    for (let round = 0; round < 3; round++) {
      const topics = Array.from({ length: 10 }, (_, i) => `r${round}t${i}`);
      const res = await request(t, 'POST', path, { body: { subscription: { endpoint, keys }, topics } });
      expect(res.status).to.equal(round === 0 ? 201 : 200);
    }
    const { rows } = await t.pool.query('SELECT topics FROM delivery.subscribers WHERE endpoint = $1', [endpoint]);
    expect(rows[0].topics).to.have.length(20);
    expect(rows[0].topics).to.include.members(Array.from({ length: 10 }, (_, i) => `r2t${i}`));
  });

  it('when the edge cannot tell the country on a refresh, then the known country is kept', async () => {
    const body = validBody();
    await request(t, 'POST', path, { body, country: 'BR' });
    await request(t, 'POST', path, { body });
    const { rows } = await t.pool.query('SELECT country FROM delivery.subscribers WHERE endpoint = $1', [body.subscription.endpoint]);
    expect(rows[0].country).to.equal('country__br');
  });
});
