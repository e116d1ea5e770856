// The gateway's edge settings: defaults, and the variables that stop start-up when malformed.
// The client-address rules on their own (trusted proxies, X-Forwarded-For, country), with
// fast-check over chains of hops.
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import fc from 'fast-check';
import { ConfigError } from '@webpush/shared/config.js';
import { INTERNAL_TOKENS } from '../../test/support/internal-tokens.js';
import { loadConfig } from '../src/config.js';
import { canonicalAddress, createClientResolver } from '../src/http/client-address.js';

describe('gateway: edge configuration', () => {
  it('defaults: no trusted proxy, no country header, ops on 127.0.0.1:9465, timeouts, a connection cap and /v2 limits', () => {
    const c = loadConfig({ ...INTERNAL_TOKENS });
    expect(c).to.deep.include({
      ops: { host: '127.0.0.1', port: 9465 },
      trustedProxies: [],
      countryHeader: '',
      server: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5000, socketIdleTimeoutMs: 60_000, maxConnections: 10_000 },
      rateLimits: { perKeyPerMinute: 600, perKeyBurst: 600, keyFailuresPerMinute: 30 },
    });
    expect(Object.isFrozen(c.server) && Object.isFrozen(c.rateLimits) && Object.isFrozen(c.trustedProxies)).to.equal(true);
  });

  it('reads TRUSTED_PROXIES (IPv4, IPv6, CIDR), COUNTRY_HEADER (lowercase) and the limits', () => {
    const c = loadConfig({
      ...INTERNAL_TOKENS,
      TRUSTED_PROXIES: ' 10.0.0.0/8 , 192.0.2.7, 2001:db8::/32, ::1 ',
      COUNTRY_HEADER: 'CF-IPCountry',
      API_RATE_LIMIT_PER_MINUTE: '120',
      API_KEY_FAILURES_PER_MINUTE: '0',
      GATEWAY_MAX_CONNECTIONS: '0',
    });
    expect(c.trustedProxies).to.deep.equal(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32', '::1']);
    expect(c.countryHeader).to.equal('cf-ipcountry');
    expect(c.rateLimits).to.deep.equal({ perKeyPerMinute: 120, perKeyBurst: 120, keyFailuresPerMinute: 0 });
    expect(c.server.maxConnections).to.equal(0);
  });

  it('a malformed edge variable stops start-up with an error naming it', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TRUSTED_PROXIES: 'proxy.example' }, /TRUSTED_PROXIES: "proxy.example"/],
      [{ TRUSTED_PROXIES: '10.0.0.0/33' }, /TRUSTED_PROXIES/],
      [{ TRUSTED_PROXIES: '2001:db8::/129' }, /TRUSTED_PROXIES/],
      [{ TRUSTED_PROXIES: '10.0.0.0/8/1' }, /TRUSTED_PROXIES/],
      [{ TRUSTED_PROXIES: '[::1]' }, /TRUSTED_PROXIES/],
      [{ TRUSTED_PROXIES: '10.0.0.1/x' }, /TRUSTED_PROXIES/],
      [{ COUNTRY_HEADER: 'bad header' }, /COUNTRY_HEADER/],
      [{ GATEWAY_HEADERS_TIMEOUT_MS: '50' }, /GATEWAY_HEADERS_TIMEOUT_MS/],
      [{ GATEWAY_HEADERS_TIMEOUT_MS: '20000', GATEWAY_REQUEST_TIMEOUT_MS: '10000' }, /GATEWAY_HEADERS_TIMEOUT_MS must not exceed GATEWAY_REQUEST_TIMEOUT_MS/],
      [{ GATEWAY_KEEP_ALIVE_TIMEOUT_MS: '-1' }, /GATEWAY_KEEP_ALIVE_TIMEOUT_MS/],
      [{ GATEWAY_MAX_CONNECTIONS: 'many' }, /GATEWAY_MAX_CONNECTIONS/],
      [{ GATEWAY_OPS_PORT: '65536' }, /GATEWAY_OPS_PORT/],
      [{ API_RATE_LIMIT_PER_MINUTE: '1.5' }, /API_RATE_LIMIT_PER_MINUTE/],
      [{ API_RATE_LIMIT_BURST: '0' }, /API_RATE_LIMIT_BURST/],
      [{ API_KEY_FAILURES_PER_MINUTE: '-3' }, /API_KEY_FAILURES_PER_MINUTE/],
    ];
    for (const [env, name] of cases) expect(() => loadConfig({ ...INTERNAL_TOKENS, ...env }), JSON.stringify(env)).to.throw(ConfigError, name);
  });
});

describe('gateway: client address and country', () => {
  const req = (peer: string | undefined, headers: Record<string, string> = {}) => ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

  it('canonical addresses: IPv4-mapped IPv6 is IPv4, brackets and ports go, anything else is not an address', () => {
    expect(canonicalAddress('::ffff:192.0.2.1')).to.equal('192.0.2.1');
    expect(canonicalAddress('[2001:DB8::1]:443')).to.equal('2001:db8::1');
    expect(canonicalAddress('192.0.2.1:8080')).to.equal('192.0.2.1');
    for (const bad of ['', 'unknown', 'example.com', '1.2.3', '999.1.1.1', '_hidden', '[::1']) expect(canonicalAddress(bad), bad).to.equal(null);
  });

  it('with no trusted proxy, the socket address is the client and no header is believed', () => {
    const clientOf = createClientResolver({ trustedProxies: [], countryHeader: 'cf-ipcountry' });
    expect(clientOf(req('::ffff:127.0.0.1', { 'x-forwarded-for': '203.0.113.1', 'cf-ipcountry': 'BR' }))).to.deep.equal({ address: '127.0.0.1' });
    expect(clientOf(req(undefined))).to.deep.equal({ address: 'unknown' });
  });

  it('property: behind trusted proxies, the client is the first untrusted hop from the right, whatever the client prepended', () => {
    const clientOf = createClientResolver({ trustedProxies: ['10.0.0.0/8', 'fd00::/8'], countryHeader: 'cf-ipcountry' });
    const trustedHop = fc.oneof(fc.ipV4().map((ip) => `10.${ip.split('.').slice(1).join('.')}`), fc.constantFrom('fd00::1', 'fd12:3456::9'));
    const untrusted = fc.oneof(
      fc.ipV4().filter((ip) => !ip.startsWith('10.')),
      fc.ipV6().filter((ip) => !/^fd/i.test(ip) && canonicalAddress(ip) !== null && !/^::ffff:/i.test(ip)),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(untrusted, trustedHop, fc.string({ maxLength: 20 })), { maxLength: 5 }), untrusted, fc.array(trustedHop, { maxLength: 4 }), trustedHop, (forged, client, hops, peer) => {
        const xff = [...forged, client, ...hops].join(', ');
        const got = clientOf(req(peer, { 'x-forwarded-for': xff }));
        expect(got.address).to.equal(canonicalAddress(client));
      }),
      { numRuns: 300 },
    );
  });

  it('property: an untrusted peer is the client whatever it sends', () => {
    const clientOf = createClientResolver({ trustedProxies: ['10.0.0.0/8'], countryHeader: 'cf-ipcountry' });
    fc.assert(
      fc.property(fc.ipV4().filter((ip) => !ip.startsWith('10.')), fc.string({ maxLength: 200 }), fc.string({ maxLength: 4 }), (peer, xff, country) => {
        expect(clientOf(req(peer, { 'x-forwarded-for': xff, 'cf-ipcountry': country }))).to.deep.equal({ address: canonicalAddress(peer) });
      }),
      { numRuns: 300 },
    );
  });

  it('the country is an ISO alpha-2 code in capitals from a trusted proxy; private-use codes (XX, ZZ, AA, Q*) and anything else are no country', () => {
    const clientOf = createClientResolver({ trustedProxies: ['127.0.0.1'], countryHeader: 'cf-ipcountry' });
    const cases: [string, string | undefined][] = [
      ['br', 'BR'],
      [' PT ', 'PT'],
      ['XK', 'XK'],
      ['XX', undefined],
      ['ZZ', undefined],
      ['AA', undefined],
      ['QZ', undefined],
      ['T1', undefined],
      ['BRA', undefined],
      ['', undefined],
      ['B', undefined],
      ['É', undefined],
    ];
    for (const [value, country] of cases) expect(clientOf(req('127.0.0.1', { 'cf-ipcountry': value })).country, value).to.equal(country);
  });
});
