// Configuration parsing, and what callers see when the database fails under the service.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { ConfigError } from '@webpush/shared/config.js';
import type { Logger } from '@webpush/shared/log.js';
import { loadConfig, DEFAULT_PUSH_SERVICE_HOSTS } from '../src/config.js';
import { browserKeys, countAudience, newSite, pushEndpoint, request, startTestDelivery, type TestDelivery } from './support.js';
import { INTERNAL_TOKENS } from '../../../test/support/internal-tokens.js';

describe('delivery: config', () => {
  const key = randomBytes(32).toString('base64');

  it('defaults apply when only the required variables are set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: key, ...INTERNAL_TOKENS });
    expect(c).to.deep.include({
      grpc: { host: '127.0.0.1', port: 50052 },
      http: { host: '127.0.0.1', port: 8081 },
      ops: { host: '127.0.0.1', port: 9466 },
      vapidSubject: 'mailto:push@localhost',
      subscribeRateLimitPerMinute: 60,
      logLevel: 'info',
    });
    expect(c.pushServiceHosts).to.deep.equal(DEFAULT_PUSH_SERVICE_HOSTS);
    expect(c.vapidEncryptionKey.equals(Buffer.from(key, 'base64'))).to.equal(true);
    expect(Object.isFrozen(c)).to.equal(true);
  });

  it('a missing or malformed variable stops start-up with an error naming it', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ VAPID_ENCRYPTION_KEY: key }, /DATABASE_URL/],
      [{ DATABASE_URL: 'postgres://x' }, /VAPID_ENCRYPTION_KEY/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: randomBytes(16).toString('base64') }, /VAPID_ENCRYPTION_KEY/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: randomBytes(33).toString('base64') }, /VAPID_ENCRYPTION_KEY/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: key, DELIVERY_HTTP_PORT: 'abc' }, /DELIVERY_HTTP_PORT/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: key, SUBSCRIBE_RATE_LIMIT_PER_MINUTE: '-1' }, /SUBSCRIBE_RATE_LIMIT_PER_MINUTE/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: key, PUSH_SERVICE_HOSTS: 'a b' }, /PUSH_SERVICE_HOSTS/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: key, DELIVERY_OPS_PORT: '70000' }, /DELIVERY_OPS_PORT/],
      [{ DATABASE_URL: 'postgres://x', VAPID_ENCRYPTION_KEY: key, KAFKA_CHUNK_PARTITIONS: '0' }, /KAFKA_CHUNK_PARTITIONS/],
    ];
    for (const [env, name] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).to.throw(ConfigError, name);
    }
  });

  it('PUSH_SERVICE_HOSTS is read as a list of lowercase names; COUNTRY_HEADER is the gateway\'s, not read here', () => {
    const c = loadConfig({ DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, PUSH_SERVICE_HOSTS: ' Push.Example ,*.b.example', COUNTRY_HEADER: 'CF-IPCountry', ...INTERNAL_TOKENS });
    expect(c.pushServiceHosts).to.deep.equal(['push.example', '*.b.example']);
    expect(JSON.stringify(c).toLowerCase()).to.not.include('cf-ipcountry');
  });

  it('PUSH_TEST_HOSTS defaults to none and takes names and canonical IP literals', () => {
    expect(loadConfig({ DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, ...INTERNAL_TOKENS }).pushTestHosts).to.deep.equal([]);
    const c = loadConfig({ DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, PUSH_TEST_HOSTS: '127.0.0.1, LocalHost,[::1],push-simulator', ...INTERNAL_TOKENS });
    expect(c.pushTestHosts).to.deep.equal(['127.0.0.1', 'localhost', '[::1]', 'push-simulator']);
  });

  it('PUSH_TEST_ROUTES defaults to none and routes exact names to a loopback address and port only', () => {
    const base = { DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, ...INTERNAL_TOKENS };
    expect([...loadConfig(base).pushTestRoutes]).to.deep.equal([]);
    const c = loadConfig({ ...base, PUSH_TEST_ROUTES: 'FCM.googleapis.com=127.0.0.1:40123, jmt17.google.com=[::1]:443' });
    expect([...c.pushTestRoutes]).to.deep.equal([
      ['fcm.googleapis.com', { host: '127.0.0.1', port: 40123 }],
      ['jmt17.google.com', { host: '::1', port: 443 }],
    ]);
    const invalid = [
      'fcm.googleapis.com', 'fcm.googleapis.com=127.0.0.1', 'fcm.googleapis.com=10.0.0.1:443', 'fcm.googleapis.com=example.com:443',
      'fcm.googleapis.com=127.0.0.1:0', 'fcm.googleapis.com=127.0.0.1:65536', 'fcm.googleapis.com=127.0.0.300:443', 'fcm.googleapis.com=[::2]:443',
      '*.googleapis.com=127.0.0.1:443', '127.0.0.1=127.0.0.1:443', 'a..b=127.0.0.1:443', '=127.0.0.1:443',
    ];
    for (const entry of invalid) {
      expect(() => loadConfig({ ...base, PUSH_TEST_ROUTES: entry }), entry).to.throw(ConfigError, /PUSH_TEST_ROUTES/);
    }
  });

  it('IP literals in PUSH_SERVICE_HOSTS, and non-canonical hosts in either list, stop start-up', () => {
    const serviceHosts = ['127.0.0.1', '2130706433', '0x7f.1', '[::1]', '::1', '*.127.0.0.1', 'a..b', 'a.example.', 'a%2eexample', 'a:443', 'a/b', '*', 'x_y.example'];
    for (const h of serviceHosts) {
      expect(() => loadConfig({ DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, PUSH_SERVICE_HOSTS: h, ...INTERNAL_TOKENS }), h).to.throw(ConfigError, /PUSH_SERVICE_HOSTS/);
    }
    expect(() => loadConfig({ DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, PUSH_SERVICE_HOSTS: '127.0.0.1', ...INTERNAL_TOKENS })).to.throw(/IP address.*PUSH_TEST_HOSTS/);
    for (const h of ['2130706433', '0x7f.1', '127.1', '::1', '[::ffff:127.0.0.1]', 'localhost.', '*.example', 'a:8080']) {
      expect(() => loadConfig({ DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, PUSH_TEST_HOSTS: h, ...INTERNAL_TOKENS }), h).to.throw(ConfigError, /PUSH_TEST_HOSTS/);
    }
  });

  it('webhooks: defaults of a day of retries, test hosts checked like the push ones, and a lease that outlasts an attempt', () => {
    const base = { DATABASE_URL: 'x', VAPID_ENCRYPTION_KEY: key, ...INTERNAL_TOKENS };
    const c = loadConfig(base).webhooks;
    expect(c).to.deep.include({ testHosts: [], extraCaFile: '', timeoutMs: 10_000 });
    expect(c.loop).to.deep.include({ retryForMs: 86_400_000, disableAfterMs: 86_400_000, leaseMs: 60_000, retryBaseMs: 10_000 });
    expect(loadConfig({ ...base, WEBHOOK_TEST_HOSTS: '127.0.0.1,LocalHost' }).webhooks.testHosts).to.deep.equal(['127.0.0.1', 'localhost']);
    expect(() => loadConfig({ ...base, WEBHOOK_TEST_HOSTS: '0x7f.1' })).to.throw(ConfigError, /WEBHOOK_TEST_HOSTS/);
    expect(() => loadConfig({ ...base, WEBHOOK_LEASE_SEC: '10', WEBHOOK_TIMEOUT_MS: '6000' })).to.throw(ConfigError, /WEBHOOK_LEASE_SEC \(10\) must be at least twice WEBHOOK_TIMEOUT_MS/);
    expect(loadConfig({ ...base, WEBHOOK_LEASE_SEC: '12', WEBHOOK_TIMEOUT_MS: '6000' }).webhooks.loop.leaseMs).to.equal(12_000);
  });
});

describe('delivery: when the database fails', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  const logged: string[] = [];

  before(async () => {
    const log: Logger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (msg) => void logged.push(msg),
      child: () => log,
    };
    t = await startTestDelivery('db_failure', {}, log);
  });
  after(async () => {
    await t?.pool.query('ALTER TABLE IF EXISTS delivery.gone_subscribers RENAME TO subscribers').catch(() => {});
    await t?.pool.query('ALTER TABLE IF EXISTS delivery.gone_groups RENAME TO audience_groups').catch(() => {});
    await t?.stop();
  });

  it('then the plugin gets 500 Internal server error, gRPC gets INTERNAL, and the error is logged', async () => {
    const site = await newSite(t);
    await t.pool.query('ALTER TABLE delivery.subscribers RENAME TO gone_subscribers');
    await t.pool.query('ALTER TABLE delivery.audience_groups RENAME TO gone_groups');
    const res = await request(t, 'POST', `/public/v1/sites/${site.publicId}/subscriptions`, {
      body: { subscription: { endpoint: pushEndpoint(), keys: browserKeys() } },
    });
    expect(res).to.deep.include({ status: 500, body: { message: 'Internal server error' } });
    try {
      await countAudience(t, site.siteId, ['a'], []);
      expect.fail('expected an error');
    } catch (err) {
      expect((err as grpc.ServiceError).code).to.equal(grpc.status.INTERNAL);
      expect((err as grpc.ServiceError).details).to.equal('Internal error');
    }
    expect(logged).to.include('unhandled error');
    expect(logged).to.include('gRPC call failed');
  });
});
