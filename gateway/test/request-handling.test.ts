// Component tests: bodies, routing, request ids and the campaign flow through the gateway.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { parse } from 'yaml';
import { contractDocument } from '../../test/support/openapi.js';
import { rawExchange } from './support/raw-socket.js';
import { ALL_PERMISSIONS, startStack, validCreateBody, type Stack, type TestSite } from './support/stack.js';

const INVALID_JSON = { message: 'Invalid JSON body' };

describe('gateway: request handling', () => {
  let stack: Stack;
  let site: TestSite;

  before(async () => {
    stack = await startStack('gw_requests');
    site = await stack.newSite(ALL_PERMISSIONS, { count: 4, topics: ['sports', 'news'], countries: ['br', 'pt'] });
  });
  after(async () => {
    await stack?.stop();
  });

  describe('Invalid JSON body', () => {
    const variants: [string, string][] = [
      ['broken JSON', '{"title": "x"'],
      ['an array', '[1, 2]'],
      ['a number', '42'],
      ['a string', '"text"'],
      ['null', 'null'],
      ['a trailing comma', '{"a": 1,}'],
    ];
    for (const [name, text] of variants) {
      it(`when the create body is ${name}, then 400 Invalid JSON body`, async () => {
        const r = await stack.call('POST', '/v2/campaign/create', { key: site.key, body: text, headers: { 'Content-Type': 'application/json' } });
        expect([r.status, r.body]).to.deep.equal([400, INVALID_JSON]);
      });
      it(`when the list body is ${name}, then 400 Invalid JSON body`, async () => {
        const r = await stack.call('POST', '/v2/campaigns', { key: site.key, body: text, headers: { 'Content-Type': 'application/json' } });
        expect([r.status, r.body]).to.deep.equal([400, INVALID_JSON]);
      });
    }

    it('when the create body is empty, then 400 Invalid JSON body (a body is required)', async () => {
      const r = await stack.call('POST', '/v2/campaign/create', { key: site.key });
      expect([r.status, r.body]).to.deep.equal([400, INVALID_JSON]);
    });

    it('when the body is not valid UTF-8, then 400 Invalid JSON body', async () => {
      const res = await fetch(`${stack.gateway.url}/v2/campaigns`, {
        method: 'POST',
        headers: { Authorization: site.key, 'Content-Type': 'application/json' },
        body: Buffer.from([0x7b, 0x22, 0x63, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      });
      const body = await res.json();
      expect([res.status, body]).to.deep.equal([400, INVALID_JSON]);
    });

    it('when POST /campaigns has no body and no Content-Type, then it lists as for {}', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: site.key });
      expect(r.status).to.equal(200);
      expect((r.body as { limit: number }).limit).to.equal(10);
    });

    it('when POST /campaigns has an empty body with a JSON Content-Type, then it lists as for {}', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: site.key, body: '', headers: { 'Content-Type': 'application/json' } });
      expect(r.status).to.equal(200);
    });

    it('when a valid JSON body comes as text/plain, then it is still read as JSON', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: site.key, body: '{"limit": 2}', headers: { 'Content-Type': 'text/plain' } });
      expect([r.status, (r.body as { limit: number }).limit]).to.deep.equal([200, 2]);
    });

    it('when the backend rejects a field, then its exact message is answered with 400', async () => {
      const r = await stack.call('POST', '/v2/campaigns', { key: site.key, body: { limit: 0 } });
      expect([r.status, r.body]).to.deep.equal([400, { message: 'limit must be a positive number' }]);
      const c = await stack.call('POST', '/v2/campaign/create', { key: site.key, body: {} });
      expect(c.status).to.equal(400);
      expect((c.body as { message: string }).message).to.match(/^Title is required, Body is required, Link is required/);
    });
  });

  describe('body size', () => {
    it('when the body is over 100 kB, then 413 Request body too large on create and on list', async () => {
      const big = JSON.stringify({ title: 'x'.repeat(102_400) });
      for (const path of ['/v2/campaign/create', '/v2/campaigns']) {
        const r = await stack.call('POST', path, { key: site.key, body: big, headers: { 'Content-Type': 'application/json' } });
        expect([r.status, r.body]).to.deep.equal([413, { message: 'Request body too large' }]);
      }
    });

    it('when the body is exactly at the limit, then it is read', async () => {
      const text = JSON.stringify({ limit: 1 });
      const padded = text + ' '.repeat(102_400 - text.length);
      const r = await stack.call('POST', '/v2/campaigns', { key: site.key, body: padded, headers: { 'Content-Type': 'application/json' } });
      expect(r.status).to.equal(200);
    });
  });

  describe('requests refused before routing (Node\'s parser)', () => {
    const headersOf = (text: string) => text.split('\r\n\r\n')[0].toLowerCase();

    for (const path of ['/v2/topics', '/public/v1/webpush.js']) {
      it(`when a header is 50 kB (${path}), then 431 Request headers too large in JSON and the connection is closed`, async () => {
        const r = await rawExchange(stack.gateway.url, [`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(50_000)}\r\n\r\n`]);
        expect(r.statuses).to.deep.equal([431]);
        expect(r.closed).to.equal(true);
        expect(headersOf(r.text)).to.include('content-type: application/json');
        expect(JSON.parse(r.text.split('\r\n\r\n')[1])).to.deep.equal({ message: 'Request headers too large' });
        // Refused before its path is known: the plugin's CORS headers go on, whatever the path.
        expect(headersOf(r.text)).to.include('\r\naccess-control-allow-origin: *\r\n');
      });
    }

    it('when a request sends Expect: 200-ok, then 417 in JSON, with the plugin\'s CORS headers on /public only', async () => {
      for (const [path, cors] of [
        ['/v2/topics', false],
        ['/public/v1/webpush.js', true],
      ] as const) {
        const r = await rawExchange(stack.gateway.url, [`GET ${path} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n`]);
        expect(r.statuses, path).to.deep.equal([417]);
        expect(headersOf(r.text), path).to.include('content-type: application/json');
        expect(JSON.parse(r.text.split('\r\n\r\n')[1]), path).to.deep.equal({ message: 'Expectation failed: only Expect: 100-continue is supported' });
        expect(headersOf(r.text).includes('\r\naccess-control-allow-origin: *\r\n'), path).to.equal(cors);
      }
    });

    it('when a request sends Expect: 100-continue, then it is served as usual', async () => {
      const r = await rawExchange(stack.gateway.url, [`GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`]);
      expect(r.statuses).to.deep.equal([100, 200]);
    });
  });

  describe('routing', () => {
    for (const [method, path] of [
      ['GET', '/v2/campaign'],
      ['GET', '/v2/campaign/'],
      ['DELETE', '/v2/campaign'],
      ['DELETE', '/v2/campaign/'],
    ]) {
      it(`when ${method} ${path} has no id, then 400 campaignId is required`, async () => {
        const r = await stack.call(method, path, { key: site.key });
        expect([r.status, r.body]).to.deep.equal([400, { message: 'campaignId is required' }]);
      });
    }

    it('when the id is malformed (not a UUID, bad percent-escape), then 404 Campaign not found, never a 5xx', async () => {
      for (const id of ['abc', 'create', '%E0%A4%A', "1'%20OR%201=1", 'x'.repeat(500)]) {
        const r = await stack.call('GET', `/v2/campaign/${id}`, { key: site.key });
        expect([id, r.status, r.body]).to.deep.equal([id, 404, { message: 'Campaign not found' }]);
      }
    });

    it('when the path is unknown, then 404 {"message":"Not found"} in JSON', async () => {
      for (const path of ['/v2/nope', '/v3/topics', '/', '/v2/campaign/a/b']) {
        const r = await stack.call('GET', path, { key: site.key, contract: false });
        expect([path, r.status, r.body]).to.deep.equal([path, 404, { message: 'Not found' }]);
        expect(r.headers.get('content-type')).to.match(/^application\/json/);
      }
    });

    it('when a known path is called with another method, then 405 Method not allowed with an Allow header', async () => {
      const cases: [string, string, string][] = [
        ['PUT', '/v2/campaign/abc', 'GET, DELETE, HEAD'],
        ['GET', '/v2/campaigns', 'POST'],
        ['POST', '/v2/topics', 'GET, HEAD'],
        ['DELETE', '/v2/countries', 'GET, HEAD'],
        ['PATCH', '/v2/campaign/create', 'POST, GET, DELETE, HEAD'],
        ['POST', '/v2/openapi.json', 'GET, HEAD'],
      ];
      for (const [method, path, allow] of cases) {
        const r = await stack.call(method, path, { key: site.key, contract: false });
        expect([method, path, r.status, r.body, r.headers.get('allow')]).to.deep.equal([method, path, 405, { message: 'Method not allowed' }, allow]);
      }
    });
  });

  describe('X-Request-Id', () => {
    it('when a sane X-Request-Id is sent, then it is echoed', async () => {
      const r = await stack.call('GET', '/v2/topics', { key: site.key, headers: { 'X-Request-Id': 'client-req.42:a_b-c' } });
      expect(r.headers.get('x-request-id')).to.equal('client-req.42:a_b-c');
    });

    it('when none, or an insane one, is sent, then a fresh id is generated and echoed (errors included)', async () => {
      const a = await stack.call('GET', '/v2/topics');
      const b = await stack.call('GET', '/v2/topics', { headers: { 'X-Request-Id': 'has spaces and "quotes"' } });
      const c = await stack.call('GET', '/v2/topics', { headers: { 'X-Request-Id': 'x'.repeat(200) } });
      for (const r of [a, b, c]) expect(r.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(a.headers.get('x-request-id')).to.not.equal(b.headers.get('x-request-id'));
    });
  });

  describe('the contract endpoints', () => {
    /** The repository's document, with the served origin as the default of its `{origin}` server. */
    function servedAs(origin: string) {
      const doc = structuredClone(contractDocument()) as { servers: { variables: { origin: { default: string } } }[] };
      doc.servers[0].variables.origin.default = origin;
      return doc;
    }

    it('GET /v2/openapi.json answers the contract without an API key, naming the origin it was asked at', async () => {
      const r = await stack.call('GET', '/v2/openapi.json');
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal(servedAs(stack.gateway.url));
    });

    it('GET /v2/openapi.yaml answers the same contract as YAML', async () => {
      const r = await stack.call('GET', '/v2/openapi.yaml');
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^application\/yaml/);
      expect(parse(r.text)).to.deep.equal(servedAs(stack.gateway.url));
    });

    it('when PUBLIC_URL is set, then the served contract names it, whatever the Host; a Host that is not one leaves the default', async () => {
      const configured = await stack.startGatewayWith({ PUBLIC_URL: 'https://push.example.net' });
      for (const file of ['openapi.json', 'openapi.yaml']) {
        const text = await (await fetch(`${configured.url}/v2/${file}`)).text();
        expect(parse(text), file).to.deep.equal(servedAs('https://push.example.net'));
      }
      const odd = await rawExchange(stack.gateway.url, ['GET /v2/openapi.json HTTP/1.1\r\nHost: a"b\r\nConnection: close\r\n\r\n']);
      const body = Buffer.from(odd.text.slice(odd.text.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8'); // raw bytes, read as latin1
      expect(JSON.parse(body)).to.deep.equal(contractDocument());
    });

    it('GET /healthz answers ok', async () => {
      const r = await stack.call('GET', '/healthz', { contract: false });
      expect([r.status, r.body]).to.deep.equal([200, { status: 'ok' }]);
    });
  });

  describe('audience lists', () => {
    it('when the plan has audience access, then topics and countries list names and counts', async () => {
      const topics = await stack.call('GET', '/v2/topics', { key: site.key });
      expect(topics.status).to.equal(200);
      const names = (topics.body as { name: string }[]).map((t) => t.name);
      expect(names).to.have.members(['sports', 'news']);
      const countries = await stack.call('GET', '/v2/countries', { key: site.key });
      const entries = countries.body as { name: string; users: number }[];
      for (const e of entries) expect(['country__br', 'country__pt']).to.include(e.name);
      expect(entries.reduce((sum, e) => sum + e.users, 0)).to.equal(4);
    });

    it('when the site has no subscribers, then both lists are empty', async () => {
      const empty = await stack.newSite(ALL_PERMISSIONS);
      for (const path of ['/v2/topics', '/v2/countries']) {
        const r = await stack.call('GET', path, { key: empty.key });
        expect([r.status, r.body]).to.deep.equal([200, []]);
      }
    });
  });

  describe('campaigns through the gateway', () => {
    it('create → get → list → delete → get answers the spec shapes', async () => {
      const created = await stack.call('POST', '/v2/campaign/create', {
        key: site.key,
        body: validCreateBody({ status: 'published', scheduleMode: 'scheduled', scheduleDate: '2099-01-01T12:00:00Z', countries: ['country__br'], icon: 'https://x.example/i.png', ttl: 60 }),
      });
      expect(created.status).to.equal(200);
      const id = (created.body as { id: string }).id;

      const got = await stack.call('GET', `/v2/campaign/${id}`, { key: site.key });
      expect(got.status).to.equal(200);
      const c = got.body as Record<string, unknown>;
      expect(Object.keys(c)).to.deep.equal([
        'id', 'title', 'body', 'link', 'topics', 'status', 'scheduleDate', 'scheduleMode', 'createdAt', 'updatedAt', 'totalUsers',
        'image', 'icon', 'callToAction', 'utmSource', 'utmMedium', 'utmCampaign', 'ttl', 'ttlUnit', 'analytics',
        // The addition of 2026-11-23, after every field the spec states.
        'delivery',
      ]);
      expect(c).to.include({ id, status: 'published', scheduleMode: 'scheduled', scheduleDate: '2099-01-01T12:00:00Z', updatedAt: null, image: null, icon: 'https://x.example/i.png', ttl: 60, ttlUnit: 'seconds' });
      expect(c.topics).to.deep.equal(['sports', 'country__br']);
      // The bytes come from the campaign service as they are: exactly what res.json would write.
      expect(got.text).to.equal(JSON.stringify(got.body));
      expect(got.headers.get('content-type')).to.equal('application/json; charset=utf-8');

      const listed = await stack.call('POST', '/v2/campaigns', { key: site.key, body: { status: ['scheduled'] } });
      expect((listed.body as { items: { id: string }[] }).items.map((i) => i.id)).to.include(id);
      expect(Object.keys(listed.body as object)).to.deep.equal(['items', 'limit', 'hasMore', 'nextCursor']);
      expect(listed.text).to.equal(JSON.stringify(listed.body));
      expect(listed.headers.get('content-length')).to.equal(String(Buffer.byteLength(listed.text)));

      const deleted = await stack.call('DELETE', `/v2/campaign/${id}`, { key: site.key });
      expect([deleted.status, deleted.body]).to.deep.equal([200, { id, deleted: true }]);
      const gone = await stack.call('GET', `/v2/campaign/${id}`, { key: site.key });
      expect([gone.status, gone.body]).to.deep.equal([404, { message: 'Campaign not found' }]);
    });

    it('when a campaign was already sent, then delete answers 409 and nothing is deleted', async () => {
      const created = await stack.call('POST', '/v2/campaign/create', { key: site.key, body: validCreateBody({ status: 'published', scheduleMode: 'now' }) });
      const id = (created.body as { id: string }).id;
      const r = await stack.call('DELETE', `/v2/campaign/${id}`, { key: site.key });
      expect([r.status, r.body]).to.deep.equal([409, { message: 'Cannot delete a campaign that has already been sent' }]);
      expect((await stack.call('GET', `/v2/campaign/${id}`, { key: site.key })).status).to.equal(200);
    });

    it('when pages are walked with nextCursor, then every page has the contract shape and the walk ends with null', async () => {
      const walker = await stack.newSite(ALL_PERMISSIONS);
      for (let i = 0; i < 3; i++) await stack.call('POST', '/v2/campaign/create', { key: walker.key, body: validCreateBody({ title: `Campaign ${i}` }) });
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page++) {
        const r = await stack.call('POST', '/v2/campaigns', { key: walker.key, body: cursor ? { limit: 2, cursor } : { limit: 2 } });
        const body = r.body as { items: { id: string }[]; hasMore: boolean; nextCursor: string | null };
        seen.push(...body.items.map((i) => i.id));
        cursor = body.nextCursor;
        if (!body.hasMore) break;
      }
      expect([seen.length, new Set(seen).size, cursor]).to.deep.equal([3, 3, null]);
      const tampered = await stack.call('POST', '/v2/campaigns', { key: walker.key, body: { limit: 2, cursor: 'bm90LWEtY3Vyc29y' } });
      expect([tampered.status, tampered.body]).to.deep.equal([400, { message: 'Invalid pagination cursor' }]);
    });
  });

  describe('Idempotency-Key on create', () => {
    it('when the same key and body are sent twice, then the same id comes back', async () => {
      const key = `order-${randomUUID()}`;
      const body = validCreateBody({ title: 'Idempotent one' });
      const a = await stack.call('POST', '/v2/campaign/create', { key: site.key, body, headers: { 'Idempotency-Key': key } });
      const b = await stack.call('POST', '/v2/campaign/create', { key: site.key, body, headers: { 'Idempotency-Key': key } });
      expect(a.status).to.equal(200);
      expect(b.body).to.deep.equal(a.body);
    });

    it('when the same key comes with another body, then 422', async () => {
      const key = `order-${randomUUID()}`;
      await stack.call('POST', '/v2/campaign/create', { key: site.key, body: validCreateBody(), headers: { 'Idempotency-Key': key } });
      const r = await stack.call('POST', '/v2/campaign/create', { key: site.key, body: validCreateBody({ title: 'Another title' }), headers: { 'Idempotency-Key': key } });
      expect([r.status, r.body]).to.deep.equal([422, { message: 'Idempotency-Key was already used with a different request body' }]);
    });

    it('when the key is not 1 to 255 visible ASCII characters, then 400', async () => {
      for (const bad of ['', 'has space', 'x'.repeat(256), 'tab\there']) {
        const r = await stack.call('POST', '/v2/campaign/create', { key: site.key, body: validCreateBody(), headers: { 'Idempotency-Key': bad } });
        expect([JSON.stringify(bad), r.status, r.body]).to.deep.equal([JSON.stringify(bad), 400, { message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' }]);
      }
    });
  });
});
