// Hostile input on the delivery service's public endpoints (issue 10, defects 3 and 7): NUL
// and unpaired surrogates in any text field are a 400 with a clear message, never a 500, never
// an error in the log, and nothing is stored; subscription endpoints are https on 443 at an
// allowed host name, written as the URL parser writes it.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Logger } from '@webpush/shared/log.js';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '../src/config.js';
import { endpointAllowed, hostAllowed, type PushHostRules } from '../src/audience/push-endpoint.js';
import { MESSAGES } from '../src/audience/subscription-input.js';
import { browserKeys, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from './support.js';

const BAD = 'must not contain NUL characters or unpaired surrogates';
const poison = fc.oneof(fc.constant('\u0000'), fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)));
const poisoned = (base: string, from = 0) =>
  fc.tuple(fc.integer({ min: from, max: base.length }), poison).map(([i, p]) => base.slice(0, i) + p + base.slice(i));

describe('delivery: hostile text on the public endpoints', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let publicId: string;
  const errors: string[] = [];
  const log: Logger = {
    debug() {},
    info() {},
    warn() {},
    error: (msg: string) => void errors.push(msg),
    child: () => log,
  };
  const subscriberRows = async () => (await t.pool.query('SELECT endpoint, topics, language, time_zone, active FROM delivery.subscribers ORDER BY id')).rows;

  before(async () => {
    t = await startTestDelivery('delivery_hostile', { SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0', TRACKING_RATE_LIMIT_PER_MINUTE: '0' }, log);
    ({ publicId } = await newSite(t));
  });
  after(async () => t?.stop());
  afterEach(() => {
    expect(errors, 'nothing logged as an error').to.deep.equal([]);
  });

  const subscribeBody = (overrides: Record<string, unknown> = {}, sub: Record<string, unknown> = {}) => ({
    subscription: { endpoint: pushEndpoint(), keys: browserKeys(), ...sub },
    topics: ['sport'],
    language: 'pt-BR',
    timeZone: 'America/Sao_Paulo',
    ...overrides,
  });

  // Each endpoint and field: the request it makes and the one message it must answer.
  type Case = { name: string; method: string; path: () => string; body: fc.Arbitrary<unknown>; message: string };
  const subs = () => `/public/v1/sites/${publicId}/subscriptions`;
  const CASES: Case[] = [
    { name: 'subscribe language', method: 'POST', path: subs, body: poisoned('pt-BR').map((language) => subscribeBody({ language })), message: MESSAGES.languageCharacters },
    { name: 'subscribe timeZone', method: 'POST', path: subs, body: poisoned('America/Sao_Paulo').map((timeZone) => subscribeBody({ timeZone })), message: MESSAGES.timeZoneCharacters },
    { name: 'subscribe topic', method: 'POST', path: subs, body: poisoned('news').map((t) => subscribeBody({ topics: ['sport', t] })), message: MESSAGES.topicsCharacters },
    { name: 'subscribe endpoint', method: 'POST', path: subs, body: poisoned('https://127.0.0.1/push/abc').map((endpoint) => subscribeBody({}, { endpoint })), message: MESSAGES.endpoint },
    { name: 'subscribe p256dh', method: 'POST', path: subs, body: poisoned(browserKeys().p256dh).map((p256dh) => subscribeBody({}, { keys: { ...browserKeys(), p256dh } })), message: MESSAGES.p256dh },
    { name: 'unsubscribe endpoint', method: 'DELETE', path: subs, body: poisoned('https://127.0.0.1/push/abc').map((endpoint) => ({ endpoint })), message: MESSAGES.endpointCharacters },
    { name: 'page-view endpoint', method: 'POST', path: () => `/public/v1/sites/${publicId}/pageviews`, body: poisoned('https://127.0.0.1/push/abc').map((endpoint) => ({ endpoint, topics: ['a'] })), message: MESSAGES.endpointCharacters },
    { name: 'page-view topic', method: 'POST', path: () => `/public/v1/sites/${publicId}/pageviews`, body: poisoned('news').map((t) => ({ endpoint: pushEndpoint(), topics: [t] })), message: MESSAGES.topicsCharacters },
    {
      name: 'subscription-change oldEndpoint',
      method: 'POST',
      path: () => `/public/v1/sites/${publicId}/subscription-changes`,
      body: poisoned('https://127.0.0.1/push/old').map((oldEndpoint) => ({ oldEndpoint, endpoint: pushEndpoint() })),
      message: MESSAGES.oldEndpointCharacters,
    },
    {
      name: 'subscription-change endpoint',
      method: 'POST',
      path: () => `/public/v1/sites/${publicId}/subscription-changes`,
      body: poisoned('https://127.0.0.1/push/new').map((endpoint) => ({ oldEndpoint: pushEndpoint(), endpoint })),
      message: MESSAGES.endpointCharacters,
    },
    { name: 'event type', method: 'POST', path: () => '/public/v1/events', body: poisoned('click').map((type) => ({ type, token: 'x' })), message: 'type must be impression or click, token is not a valid tracking token' },
    { name: 'event token', method: 'POST', path: () => '/public/v1/events', body: poisoned('A'.repeat(54)).map((token) => ({ type: 'click', token })), message: 'token is not a valid tracking token' },
  ];

  it('the messages: one pattern, "<field> must not contain NUL characters or unpaired surrogates"', () => {
    expect([MESSAGES.topicsCharacters, MESSAGES.languageCharacters, MESSAGES.timeZoneCharacters, MESSAGES.endpointCharacters, MESSAGES.oldEndpointCharacters]).to.deep.equal([
      `topics ${BAD}`,
      `language ${BAD}`,
      `timeZone ${BAD}`,
      `endpoint ${BAD}`,
      `oldEndpoint ${BAD}`,
    ]);
  });

  it('property: NUL or an unpaired surrogate in any field of any public endpoint answers 400 with that field\'s message and stores nothing', async () => {
    const known = await request(t, 'POST', subs(), { body: subscribeBody() });
    expect(known.status).to.equal(201);
    const before_ = await subscriberRows();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CASES).chain((c) => c.body.map((body) => ({ ...c, body }))), async (c) => {
        const res = await request(t, c.method, c.path(), { body: c.body });
        expect({ status: res.status, body: res.body }, c.name).to.deep.equal({ status: 400, body: { message: c.message } });
      }),
      { numRuns: 250 },
    );
    expect(await subscriberRows()).to.deep.equal(before_);
  });

  it('the issue\'s own requests: NUL in language, timeZone and every endpoint field → 400 (a 500 with a stack trace before)', async () => {
    const nul = 'x\u0000y';
    const answers = [
      await request(t, 'POST', subs(), { body: subscribeBody({ language: nul }) }),
      await request(t, 'POST', subs(), { body: subscribeBody({ timeZone: nul }) }),
      await request(t, 'DELETE', subs(), { body: { endpoint: nul } }),
      await request(t, 'POST', `/public/v1/sites/${publicId}/pageviews`, { body: { endpoint: nul } }),
      await request(t, 'POST', `/public/v1/sites/${publicId}/subscription-changes`, { body: { oldEndpoint: nul, endpoint: pushEndpoint() } }),
    ];
    expect(answers.map((a) => a.status)).to.deep.equal([400, 400, 400, 400, 400]);
  });

  it('a lone surrogate in a topic is refused, not stored as U+FFFD', async () => {
    const res = await request(t, 'POST', subs(), { body: subscribeBody({ topics: ['caf\ud800'] }) });
    expect(res).to.deep.include({ status: 400, body: { message: MESSAGES.topicsCharacters } });
    const { rows } = await t.pool.query(`SELECT count(*)::int AS n FROM delivery.subscribers WHERE array_to_string(topics, ',') LIKE '%' || chr(65533) || '%'`);
    expect(rows[0].n).to.equal(0);
  });

  it('the spec-like checks of a field come first: a language too long and with a NUL gets the length message', async () => {
    const res = await request(t, 'POST', subs(), { body: subscribeBody({ language: '\u0000'.repeat(36) }) });
    expect(res).to.deep.include({ status: 400, body: { message: MESSAGES.language } });
  });
});

describe('delivery: subscription endpoints (SSRF boundary)', function () {
  this.timeout(60_000);
  const rules: PushHostRules = { serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS, testHosts: ['127.0.0.1', 'localhost'] };
  const production: PushHostRules = { serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS, testHosts: [] };

  const ACCEPTED = [
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://fcm.googleapis.com:443/fcm/send/abc',
    'https://FCM.googleapis.com/fcm/send/abc',
    'https://jmt17.google.com/fcm/send/abc:def', // Chrome Beta, Dev, Canary
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    'https://db5p.notify.windows.com/w/?token=BQYAAA%2b',
    'https://web.push.apple.com/QZm3',
    'https://api.push.apple.com/3/device/x',
  ];
  const REFUSED: [string, string][] = [
    ['https://fcm.googleapis.com:6379/x', 'another port (the issue\'s own example)'],
    ['https://fcm.googleapis.com:8443/x', 'another port'],
    ['https://fcm.googleapis.com:0443/x', 'a zero-padded 443'],
    ['https://fcm.googleapis.com:/x', 'an empty port'],
    ['http://fcm.googleapis.com/x', 'plain http'],
    ['HTTPS://fcm.googleapis.com/x', 'an uppercase scheme'],
    ['https:fcm.googleapis.com/x', 'no slashes'],
    ['https:/fcm.googleapis.com/x', 'one slash'],
    ['https:\\\\fcm.googleapis.com/x', 'backslashes'],
    ['https://fcm.googleapis.com\\@evil.example/x', 'a backslash in the authority'],
    ['https://user@fcm.googleapis.com/x', 'userinfo'],
    ['https://user:pw@fcm.googleapis.com/x', 'userinfo with a password'],
    ['https://fcm.googleapis.com@evil.example/x', 'userinfo that looks like the host'],
    ['https://fcm.googleapis.com./x', 'a trailing dot'],
    ['https://fcm%2Egoogleapis.com/x', 'percent-encoding in the host'],
    ['https://evil.example/x', 'a host not allowed'],
    ['https://fcm.googleapis.com.evil.example/x', 'an allowed name as a prefix'],
    ['https://push.apple.com/x', 'the wildcard\'s own suffix'],
    ['https://evilpush.apple.com/x', 'a suffix without the dot'],
    ['https://2130706433/x', 'a decimal IPv4'],
    ['https://2130706433:8090/', 'a decimal IPv4 with a port (the issue\'s own example)'],
    ['https://0x7f.1/x', 'a hex IPv4 shorthand'],
    ['https://0x7f000001/x', 'a hex IPv4'],
    ['https://0177.0.0.1/x', 'an octal IPv4'],
    ['https://127.1/x', 'a short IPv4'],
    ['https://127.0.0.01/x', 'a zero-padded IPv4'],
    ['https://[::ffff:127.0.0.1]/x', 'an IPv4-mapped IPv6'],
    ['https://[::1]/x', 'IPv6 loopback (not a test host here)'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://10.0.0.1/x', 'a private address'],
    ['http://2130706433:8090/', 'a test host in another spelling'],
    ['https://fcm.googleapis.com/x y', 'a space'],
    ['https://fcm.googleapis.com/\u0000', 'a NUL'],
    ['https://fcm.googleapis.com/é', 'non-ASCII'],
    ['javascript:alert(1)', 'another scheme'],
    ['', 'empty'],
  ];

  it('allowed push-service endpoints are accepted', () => {
    for (const e of ACCEPTED) expect(endpointAllowed(e, production), e).to.equal(true);
  });

  for (const [endpoint, why] of REFUSED) {
    it(`refused: ${why}`, () => {
      expect(endpointAllowed(endpoint, rules), endpoint).to.equal(false);
    });
  }

  it('test hosts (and only they, written canonically) take http or https on any port', () => {
    for (const e of ['http://127.0.0.1:8090/push/x', 'https://127.0.0.1/push/x', 'http://localhost:1234/x', 'https://localhost:8443/x']) {
      expect(endpointAllowed(e, rules), e).to.equal(true);
      expect(endpointAllowed(e, production), `${e} without test hosts`).to.equal(false);
    }
    expect(endpointAllowed('http://[::1]:8080/x', { serviceHosts: [], testHosts: ['[::1]'] })).to.equal(true);
  });

  it('property: an accepted endpoint is https on 443 at an allowed name, or at a listed test host', () => {
    const scheme = fc.constantFrom('https://', 'http://', 'HTTPS://', 'https:', 'https:/', 'https:\\\\', 'ftp://');
    const userinfo = fc.constantFrom('', '', 'u@', 'u:p@', 'fcm.googleapis.com@');
    const host = fc.constantFrom(
      'fcm.googleapis.com', 'x.push.apple.com', 'push.apple.com', 'evil.example', 'localhost', '127.0.0.1', '2130706433', '0x7f.1',
      '127.1', '[::1]', '[::ffff:127.0.0.1]', '169.254.169.254', 'fcm.googleapis.com.', 'fcm%2egoogleapis.com', 'FCM.GOOGLEAPIS.COM', 'xn--80ak6aa92e.com',
    );
    const port = fc.constantFrom('', '', ':443', ':0443', ':8090', ':', ':65536', ':80');
    const rest = fc.constantFrom('/x', '', '?a=1', '#f', '/a/../b', '\\x', '/%00');
    fc.assert(
      fc.property(scheme, userinfo, host, port, rest, (s, u, h, p, r) => {
        const raw = s + u + h + p + r;
        if (!endpointAllowed(raw, rules)) return;
        const url = new URL(raw);
        expect(url.username + url.password, raw).to.equal('');
        if (rules.testHosts.includes(url.hostname)) {
          expect(raw.toLowerCase().startsWith(`${url.protocol}//${url.hostname}`), raw).to.equal(true);
        } else {
          expect([url.protocol, url.port], raw).to.deep.equal(['https:', '']);
          expect(hostAllowed(url.hostname, rules.serviceHosts), raw).to.equal(true);
          expect(raw.toLowerCase().startsWith(`https://${url.hostname}`), raw).to.equal(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: any string at all is answered true or false, never an exception', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.webUrl(), (s, u) => {
        expect(typeof endpointAllowed(s, rules)).to.equal('boolean');
        expect(typeof endpointAllowed(u, rules)).to.equal('boolean');
      }),
      { numRuns: 500 },
    );
  });

  describe('over HTTP, with the default push-service hosts and no test hosts', () => {
    let t: TestDelivery;
    let path: string;
    before(async () => {
      t = await startTestDelivery('delivery_ssrf', { PUSH_TEST_HOSTS: '', SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '0' });
      path = `/public/v1/sites/${(await newSite(t)).publicId}/subscriptions`;
    });
    after(async () => t?.stop());
    const subscribe = (endpoint: string) => request(t, 'POST', path, { body: { subscription: { endpoint, keys: browserKeys() } } });

    it('other ports, IP literals, userinfo, http and other hosts → 400; an allowed endpoint → 201', async () => {
      for (const endpoint of ['https://fcm.googleapis.com:6379/x', 'https://2130706433:8090/', 'https://127.0.0.1/push/x', 'http://localhost:8080/x', 'https://u@fcm.googleapis.com/x', 'http://fcm.googleapis.com/x', 'https://evil.example/x']) {
        const res = await subscribe(endpoint);
        expect(res, endpoint).to.deep.include({ status: 400, body: { message: MESSAGES.endpoint } });
      }
      expect((await subscribe('https://fcm.googleapis.com/fcm/send/ok-1')).status).to.equal(201);
      expect((await subscribe('https://fcm.googleapis.com:443/fcm/send/ok-2')).status).to.equal(201);
      const { rows } = await t.pool.query('SELECT endpoint FROM delivery.subscribers ORDER BY id');
      expect(rows.map((r) => r.endpoint)).to.deep.equal(['https://fcm.googleapis.com/fcm/send/ok-1', 'https://fcm.googleapis.com:443/fcm/send/ok-2']);
    });
  });
});
