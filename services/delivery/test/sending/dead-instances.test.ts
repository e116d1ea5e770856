// Rows of delivery instances that died without deleting them (kill -9, OOM, a lost node) are
// purged by the live instances' heartbeat: bounded per pass, only once silent far past the time
// after which their claims were free anyway, never a live instance's rows.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createPool, type Pool } from '@webpush/shared/db.js';
import { freshDatabase } from '../../../../test/support/postgres.js';
import { migrateDeliverySchema } from '../../src/app.js';
import { createLeases, DEAD_INSTANCE_PURGE } from '../../src/sending/leases.js';

describe('sending: rows of crashed instances are purged', function () {
  this.timeout(60_000);
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;

  before(async () => {
    db = await freshDatabase('dead_instances');
    pool = createPool(db.url);
    await migrateDeliverySchema(pool);
  });

  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** An instance that heart-beat last `silentSec` ago, with `leases` leases. */
  async function instance(silentSec: number, leases: number): Promise<string> {
    const id = randomUUID();
    await pool.query(`INSERT INTO delivery.instances (id, heartbeat_at) VALUES ($1, now() - make_interval(secs => $2))`, [id, silentSec]);
    for (let i = 0; i < leases; i++) await pool.query(`INSERT INTO delivery.claim_leases (id, instance_id, started_at) VALUES ($1, $2, now() - make_interval(secs => $3))`, [randomUUID(), id, silentSec]);
    return id;
  }

  const count = async (table: string, ids: string[]) =>
    (await pool.query(`SELECT count(*)::int AS n FROM delivery.${table} WHERE ${table === 'instances' ? 'id' : 'instance_id'} = ANY($1::uuid[])`, [ids])).rows[0].n as number;

  it('when instances have been silent past the purge age, then a heartbeat deletes them and their leases, a bounded number per pass, and keeps the others', async () => {
    const purge = { afterSec: 3600, everyMs: 0, limit: 3 };
    const dead = [];
    for (let i = 0; i < 5; i++) dead.push(await instance(2 * 3600 + i, 2));
    const recentlyDead = await instance(60, 1); // dead, but its rows are kept a while
    // A lease whose instance row is already gone (its delete failed while the instance stopped).
    const orphanOwner = randomUUID();
    await pool.query(`INSERT INTO delivery.claim_leases (id, instance_id, started_at) VALUES ($1, $2, now() - interval '2 hours')`, [randomUUID(), orphanOwner]);

    const live = createLeases(pool, randomUUID(), { budgetMs: 0 }, purge);
    const lease = await live.begin();
    await live.beat();
    expect(await count('instances', dead), 'at most `limit` a pass, oldest first').to.equal(2);
    // The oldest (the last made) went first.
    expect(await count('instances', dead.slice(0, 2))).to.equal(2);
    expect(await count('claim_leases', dead.slice(0, 2))).to.equal(4);
    expect(await count('claim_leases', dead.slice(2)), 'the purged instances\' leases').to.equal(0);
    expect(await count('claim_leases', [orphanOwner]), 'an orphan lease').to.equal(0);

    await live.beat();
    expect(await count('instances', dead)).to.equal(0);
    expect(await count('claim_leases', dead)).to.equal(0);
    expect(await count('instances', [recentlyDead, live.instanceId]), 'the recently silent and the live instance stay').to.equal(2);
    expect(await count('claim_leases', [recentlyDead, live.instanceId])).to.equal(2);
    live.end(lease);
    await live.forget();
  });

  it('purges at most once per period: a heartbeat between two purges leaves a dead instance for the next', async () => {
    const live = createLeases(pool, randomUUID(), { budgetMs: 0 }, { ...DEAD_INSTANCE_PURGE, everyMs: 3_600_000 });
    await live.beat();
    const dead = await instance(2 * 3600, 1);
    await live.beat();
    expect(await count('instances', [dead])).to.equal(1);
    await live.forget();
  });
});
