// One site's bulk work against another site's calls, through the real stack (docs/operations.md,
// "Capacity"): a site's imports and exports are limited per site (429 with Retry-After), they
// take the bulk pool, never the interactive one, a wait for a connection beyond its bound is a
// 503 with Retry-After (never a 500), and readiness has a connection of its own. Postgres holds
// the first import (a test transaction locks the subscribers table against writes), so the
// saturation is a state, not a race.
import net from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import { ALL, browserKeys, siteWithPermissions, type SiteInfo } from './support/fixtures.js';
import { startStack, type ApiResponse, type Stack } from './support/harness.js';

/** A port free now, for the delivery service's ops listener (/readyz). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const IMPORTS_AT_ONCE = 12; // the flood: more than the 10 connections one pool had

describe('e2e: noisy neighbours', function () {
  this.timeout(180_000);
  let stack: Stack;
  let noisy: SiteInfo;
  let neighbour: SiteInfo;
  let locker: pg.Client;
  let held: Promise<ApiResponse>[] = [];
  /** The noisy site's imports answered so far, in the order they were. */
  const answered: ApiResponse[] = [];
  let opsPort = 0;

  const importBody = (n: number) => ({ subscriptions: Array.from({ length: n }, (_, i) => ({ endpoint: `https://127.0.0.1/push/${Date.now()}-${i}-${Math.random()}`, keys: browserKeys() })) });
  const lockWaiters = async () =>
    Number((await locker.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n);

  before(async () => {
    opsPort = await freePort();
    stack = await startStack('e2e_noisy', { DELIVERY_OPS_PORT: String(opsPort), DB_POOL_MAX_BULK: '1', DB_POOL_WAIT_MS: '300', SITE_CONCURRENT_IMPORTS: '1', SITE_CONCURRENT_EXPORTS: '1', API_RATE_LIMIT_PER_MINUTE: '0' });
    noisy = await siteWithPermissions(stack, ALL, 'noisy');
    neighbour = await siteWithPermissions(stack, ALL, 'neighbour');
    expect((await stack.api.request('POST', '/v2/subscribers/import', { key: neighbour.apiKey, body: importBody(3) })).status).to.equal(200);
    // Writes to the subscribers table wait until the lock is released; reads go on.
    locker = new pg.Client({ connectionString: stack.databaseUrl });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE delivery.subscribers IN SHARE MODE');
    held = Array.from({ length: IMPORTS_AT_ONCE }, () =>
      stack.api.request('POST', '/v2/subscribers/import', { key: noisy.apiKey, body: importBody(1000) }).then((res) => (answered.push(res), res)),
    );
    // Bounded: one import waiting on the lock (every one, before the per-site limit).
    for (let i = 0; i < 200 && (await lockWaiters()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await lockWaiters()).to.be.greaterThan(0);
  });
  after(async () => {
    await locker?.query('ROLLBACK').catch(() => {});
    await Promise.allSettled(held);
    await locker?.end().catch(() => {});
    await stack?.stop();
  });

  it("a site's imports beyond its limit are 429 with Retry-After and a message, at once", async () => {
    // Only one runs (held by the lock); the others are answered without waiting for it. Bounded.
    for (let i = 0; i < 200 && answered.length < IMPORTS_AT_ONCE - 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(answered.length, 'the imports beyond the limit were not answered at once').to.equal(IMPORTS_AT_ONCE - 1);
    for (const res of answered) {
      expect(res.status, res.text).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('5');
      expect(res.body).to.deep.equal({ message: 'Too many imports for this site at once; retry after Retry-After seconds' });
    }
  });

  it("another site's call that waits for a bulk connection beyond its bound is 503 with Retry-After, never 500", async () => {
    const imported = await stack.api.request('POST', '/v2/subscribers/import', { key: neighbour.apiKey, body: importBody(1) });
    expect([imported.status, imported.body]).to.deep.equal([503, { message: 'Service busy; retry after Retry-After seconds' }]);
    expect(imported.headers.get('retry-after')).to.equal('2');
    const exported = await stack.api.request('GET', '/v2/subscribers/export', { key: neighbour.apiKey });
    expect([exported.status, exported.body]).to.deep.equal([503, { message: 'Service busy; retry after Retry-After seconds' }]);
  });

  it("readiness and another site's interactive calls answer while the bulk pool is saturated", async () => {
    const ready = await fetch(`http://127.0.0.1:${opsPort}/readyz`, { signal: AbortSignal.timeout(10_000) });
    expect(ready.status, await ready.text()).to.equal(200);
    const topics = await stack.api.request('GET', '/v2/topics', { key: neighbour.apiKey });
    expect(topics.status, topics.text).to.equal(200);
  });

  it('the import that held the connection finishes once the lock is gone', async () => {
    await locker.query('ROLLBACK');
    const all = await Promise.all(held);
    const done = all.filter((res) => res.status === 200);
    expect(done, all.map((r) => r.status).join()).to.have.length(1);
    expect(done[0].body).to.include({ imported: 1000 });
  });
});
