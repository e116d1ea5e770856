import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import { purgeExpiredKeys } from '../src/campaigns/idempotency-store.js';
import { createIdempotencyPurge } from '../src/campaigns/idempotency-purge.js';
import { startHarness, validCampaign, type Harness, type TestSite } from './support/harness.js';

describe('idempotency keys past their 24 hours', function () {
  this.timeout(60_000);
  let h: Harness;
  let site: TestSite;
  const log = createLogger('test', 'error');

  before(async () => {
    h = await startHarness('campaign_idempotency_purge');
    site = await h.newSite();
  });
  after(async () => h?.stop());
  beforeEach(async () => h.pool.query('DELETE FROM campaign.idempotency_keys'));

  const create = (body: object, key: string) =>
    h.call<{ id: string }>('CreateCampaign', { siteId: site.siteId, bodyJson: JSON.stringify(body), idempotencyKey: key });
  /** Stores keys directly, `age` old (a Postgres interval). */
  const storeKeys = async (prefix: string, count: number, age: string) => {
    for (let i = 0; i < count; i++) {
      await h.pool.query(
        `INSERT INTO campaign.idempotency_keys (site_id, key, request_hash, campaign_id, created_at)
         VALUES ($1, $2, 'h', $3, now() - $4::interval)`,
        [site.siteId, `${prefix}-${i}`, randomUUID(), age],
      );
    }
  };
  const keys = async () => (await h.pool.query('SELECT key FROM campaign.idempotency_keys ORDER BY key')).rows.map((r) => r.key as string);

  it('when a key is older than 24 hours and not purged yet, then the same body creates a new campaign (no replay)', async () => {
    const body = validCampaign();
    const first = await create(body, 'stale');
    await h.pool.query(`UPDATE campaign.idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE key = 'stale'`);
    const second = await create(body, 'stale');
    expect(second.id).to.not.equal(first.id);
    const third = await create(body, 'stale');
    expect(third.id).to.equal(second.id); // the key now belongs to the new campaign, for 24 hours
  });

  it('when a purge runs, then every key older than 24 hours goes, in batches, and fresher keys stay', async () => {
    await storeKeys('old', 7, '25 hours');
    await storeKeys('edge', 1, '23 hours 59 minutes');
    await storeKeys('new', 2, '1 minute');
    expect(await purgeExpiredKeys(h.pool, 3)).to.equal(3); // one statement deletes at most its batch
    const purge = createIdempotencyPurge({ pool: h.pool, log }, { intervalMs: 60_000, batchSize: 3 });
    expect(await purge.tick()).to.equal(4);
    expect(await keys()).to.deep.equal(['edge-0', 'new-0', 'new-1']);
    expect(await purge.tick()).to.equal(0);
  });

  it('when a tick has more than its cap of batches, then it stops there and the next tick continues', async () => {
    await storeKeys('old', 5, '2 days');
    const purge = createIdempotencyPurge({ pool: h.pool, log }, { intervalMs: 60_000, batchSize: 2, maxBatchesPerTick: 2 });
    expect(await purge.tick()).to.equal(4);
    expect(await purge.tick()).to.equal(1);
    expect(await keys()).to.deep.equal([]);
  });

  it('when an expired key is locked by a create taking it over, then the purge skips it without waiting', async () => {
    await storeKeys('old', 2, '25 hours');
    const holder = await h.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM campaign.idempotency_keys WHERE key = 'old-0' FOR UPDATE`);
      const started = Date.now();
      expect(await purgeExpiredKeys(h.pool, 10)).to.equal(1);
      expect(Date.now() - started).to.be.below(2000);
      await holder.query('ROLLBACK');
    } finally {
      holder.release();
    }
    expect(await keys()).to.deep.equal(['old-0']);
  });

  it('when the service runs with a short purge interval, then expired keys disappear on their own and a stopped service purges no more', async () => {
    const instance = await h.startInstance({ IDEMPOTENCY_PURGE_INTERVAL_MS: '50', IDEMPOTENCY_PURGE_BATCH_SIZE: '2' });
    try {
      await storeKeys('old', 5, '30 hours');
      await storeKeys('new', 1, '1 hour');
      const deadline = Date.now() + 10_000;
      while ((await keys()).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await keys()).to.deep.equal(['new-0']);
    } finally {
      await instance.stop();
    }
    await storeKeys('after-stop', 1, '30 hours');
    await new Promise((r) => setTimeout(r, 300));
    expect(await keys()).to.deep.equal(['after-stop-0', 'new-0']);
  });
});

