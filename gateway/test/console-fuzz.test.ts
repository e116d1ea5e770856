// Property-based fuzzing of the console API's own bodies through the gateway and the real campaign
// service: whatever a login or a key's label holds (any UTF-16 code units, NUL and lone surrogates
// included, any JSON type, any size within the limit), the answer is the rule's — never a 5xx,
// never a session for a body that is not an account's email and password, a label is stored
// exactly as the rule says or refused with its message, a draft's edit is answered as /v2
// create answers the same body, and a webhook's create and change as /v2's answer the same body.
import { expect } from 'chai';
import fc from 'fast-check';
import { startInProcess, type InProcessStack, type TestSite } from '../../test/support/in-process.js';
import { ConsoleBrowser, consoleUsers, PASSWORD } from './support/console.js';
import { silentLogger } from './support/stack.js';

/** Any UTF-16 code units, lone surrogates and NUL included. */
const codeUnits = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });
/** A JSON value of any type, for a field that must be a string. */
const anyJson = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }));

const BAD_CHARACTERS = 'must not contain NUL characters or unpaired surrogates';
const isBad = (s: string) => s.includes('\u0000') || !s.isWellFormed();

describe('gateway: the console API fuzzed', function () {
  this.timeout(180_000);
  let stack: InProcessStack;
  let site: TestSite;
  let owner: { email: string; browser: ConsoleBrowser };
  let address = 0;
  /** A client address never used before: no test is held back by the address throttle. */
  const nextAddress = () => `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;

  before(async () => {
    stack = await startInProcess('gateway_console_fuzz', {
      // The webhooks' test receivers: 127.0.0.1 (nothing answers on port 9).
      delivery: { log: silentLogger, env: { WEBHOOK_TEST_HOSTS: '127.0.0.1' } },
      campaign: { log: silentLogger },
      gateway: { log: silentLogger, env: { CONSOLE_SECURE_COOKIE: 'false', TRUSTED_PROXIES: '127.0.0.1' } },
    });
    site = await stack.newSite();
    owner = await consoleUsers(stack.pool, stack.gateway!.url).newUser(site.siteId);
  });
  after(async () => stack?.stop());

  it('when a login body holds anything, then the answer is 400 (the field named), 401 or 429 — never a 5xx, never a session unless it is the account', async () => {
    const field = fc.oneof(codeUnits(40), fc.constantFrom(owner.email, owner.email.toUpperCase(), PASSWORD, ''), anyJson);
    await fc.assert(
      fc.asyncProperty(fc.option(field, { nil: undefined }), fc.option(field, { nil: undefined }), fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 2 }), async (email, password, extra) => {
        const body: Record<string, unknown> = { ...extra };
        if (email !== undefined) body.email = email;
        if (password !== undefined) body.password = password;
        const b = new ConsoleBrowser(stack.gateway!.url, nextAddress());
        const reply = await b.call('POST', '/console/api/login', { body });
        const e = body.email;
        const p = body.password;
        if (typeof e !== 'string') expect([reply.status, reply.body]).to.deep.equal([400, { message: 'email must be a string' }]);
        else if (isBad(e)) expect([reply.status, reply.body]).to.deep.equal([400, { message: `email ${BAD_CHARACTERS}` }]);
        else if (typeof p !== 'string') expect([reply.status, reply.body]).to.deep.equal([400, { message: 'password must be a string' }]);
        else if (isBad(p)) expect([reply.status, reply.body]).to.deep.equal([400, { message: `password ${BAD_CHARACTERS}` }]);
        else if (e.trim().toLowerCase() === owner.email && p === PASSWORD) expect([200, 429]).to.include(reply.status);
        else {
          expect([401, 429], JSON.stringify(reply.body)).to.include(reply.status);
          expect(reply.body).to.deep.equal({ message: reply.status === 401 ? 'Wrong email or password' : 'Too many login attempts; try again later' });
        }
        if (reply.status !== 200) expect(reply.cookies).to.deep.equal([]);
      }),
      { numRuns: 80 },
    );
  });

  it('when a login body is any text at all, then it is answered with a 4xx and a message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(codeUnits(200), fc.json({ maxDepth: 3 })), async (text) => {
        const res = await fetch(`${stack.gateway!.url}/console/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': nextAddress() }, body: text });
        expect(res.status, text).to.be.within(400, 499);
        expect(await res.json()).to.have.property('message').that.is.a('string');
      }),
      { numRuns: 150 },
    );
  });

  it("when a key's label is anything, then the key is created with the label trimmed, or refused with the label's message", async () => {
    const keysOf = async () => ((await owner.browser.call('GET', `/console/api/sites/${site.siteId}/keys`)).body as unknown[]).length;
    let expectedKeys = await keysOf();
    await fc.assert(
      fc.asyncProperty(fc.oneof(codeUnits(120), fc.string({ maxLength: 110 }), fc.constantFrom(' ', '\t', 'x'.repeat(100), ` ${'é'.repeat(100)} `, '🔑'.repeat(101)), anyJson), async (label) => {
        const reply = await owner.browser.call('POST', `/console/api/sites/${site.siteId}/keys`, { body: { label } });
        let message: string | undefined;
        if (typeof label !== 'string') message = 'label must be a string';
        else if (isBad(label)) message = `label ${BAD_CHARACTERS}`;
        else if ([...label.trim()].length < 1 || [...label.trim()].length > 100) message = 'Label must be 1 to 100 characters';
        else if (/\p{Cc}/u.test(label.trim())) message = 'Label must not contain control characters';
        if (message) {
          expect([reply.status, reply.body]).to.deep.equal([400, { message }]);
        } else {
          expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
          expect((reply.body as { key: { label: string } }).key.label).to.equal((label as string).trim());
          expectedKeys++;
        }
      }),
      { numRuns: 150 },
    );
    expect(await keysOf()).to.equal(expectedKeys);
  });

  it("when a draft's edit holds anything, then it is answered exactly as /v2 create answers the same body (status and message), and a refused edit leaves the draft as it was", async () => {
    const base = `/console/api/sites/${site.siteId}/campaigns`;
    const valid = { title: 'Fuzzed draft', body: 'A draft the fuzzer edits', link: 'https://shop.example/fuzz', topics: ['news'], status: 'draft', scheduleMode: 'now' };
    const value = fc.oneof(codeUnits(30), anyJson, fc.constantFrom('published', 'draft', 'failed', 'scheduled', 'now', '2031-01-01T00:00:00Z', 'https://shop.example/x', 'javascript:alert(1)', '09:00', 0, 60, -1));
    const field = fc.constantFrom('title', 'body', 'link', 'topics', 'countries', 'status', 'scheduleMode', 'scheduleDate', 'icon', 'image', 'callToAction', 'utmSource', 'ttl', 'segment', 'throttlePerMinute', 'localTime', 'abTest', 'unknown');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(field, fc.option(value, { nil: undefined })), { minLength: 1, maxLength: 4 }), async (changes) => {
        const body: Record<string, unknown> = { ...valid };
        for (const [name, v] of changes) {
          if (v === undefined) delete body[name];
          else body[name] = v;
        }
        const id = ((await owner.browser.call('POST', base, { body: valid })).body as { id: string }).id;
        const get = async () => (await owner.browser.call('GET', `${base}/${id}`)).body;
        const before = await get();
        const edit = await owner.browser.call('PATCH', `${base}/${id}`, { body });
        const v2 = await fetch(`${stack.gateway!.url}/v2/campaign/create`, { method: 'POST', headers: { Authorization: site.key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        const v2Body = (await v2.json()) as { id?: string; message?: string };
        expect(edit.status, JSON.stringify([body, edit.body, v2Body])).to.equal(v2.status);
        if (v2.status === 200) expect(edit.body).to.deep.equal({ ...v2Body, id });
        else {
          expect(edit.body).to.deep.equal(v2Body);
          expect(await get()).to.deep.equal(before);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("when a webhook's create or change holds anything, then it is answered exactly as /v2 answers the same body, and a refused change leaves the endpoint as it was", async () => {
    const base = `/console/api/sites/${site.siteId}/webhooks`;
    const v2 = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${stack.gateway!.url}/v2/webhooks${path}`, { method, headers: { Authorization: site.key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    /** An answer without what differs between two endpoints made alike. */
    const same = (answer: unknown) => {
      const { id: _id, createdAt: _createdAt, secret: _secret, ...rest } = answer as Record<string, unknown>;
      return rest;
    };
    const valid = { url: 'https://127.0.0.1:9/fuzz', events: ['campaign.completed'], description: 'Fuzzed' };
    const mine = ((await owner.browser.call('POST', base, { body: valid })).body as { id: string }).id;
    const theirs = (await v2('POST', '', valid)).body.id as string;
    const value = fc.oneof(
      codeUnits(30),
      anyJson,
      fc.constantFrom('https://127.0.0.1:9/other', 'http://127.0.0.1:9/', 'https://10.0.0.1/', 'https://u:p@127.0.0.1/', 'ftp://x.example/', `https://127.0.0.1/${'p'.repeat(2050)}`, true, false),
      fc.subarray(['campaign.dispatched', 'campaign.completed', 'subscriber.created', 'notification.clicks', 'webhook.ping', 'nope']),
    );
    const field = fc.constantFrom('url', 'events', 'description', 'enabled', 'unknown');
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.tuple(field, fc.option(value, { nil: undefined })), { minLength: 1, maxLength: 3 }), async (create, changes) => {
        const body: Record<string, unknown> = create ? { ...valid } : {};
        for (const [name, v] of changes) {
          if (v === undefined) delete body[name];
          else body[name] = v;
        }
        const before = (await owner.browser.call('GET', `${base}/${mine}`)).body;
        const reply = create ? await owner.browser.call('POST', base, { body }) : await owner.browser.call('PATCH', `${base}/${mine}`, { body });
        const expected = create ? await v2('POST', '', body) : await v2('PATCH', `/${theirs}`, body);
        expect(reply.status, JSON.stringify([body, reply.body, expected.body])).to.equal(expected.status);
        if (expected.status !== 200) {
          expect(reply.body).to.deep.equal(expected.body);
          expect((await owner.browser.call('GET', `${base}/${mine}`)).body).to.deep.equal(before);
          return;
        }
        expect(same(reply.body)).to.deep.equal(same(expected.body));
        if (create) {
          // Within the site's 10 endpoints: the two made are removed again.
          await owner.browser.call('DELETE', `${base}/${(reply.body as { id: string }).id}`);
          await v2('DELETE', `/${expected.body.id as string}`, {});
        }
      }),
      { numRuns: 60 },
    );
  });
});
