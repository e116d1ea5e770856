// A pool's connection that Postgres closes while it is checked out and idle (packages/shared/src/
// db.ts createPool): a counter publisher's connection held for its advisory lock while it awaits
// Kafka, a transaction between two statements. Once an uncaught exception that stopped the
// process (the delivery service, at a Postgres stop: the fault suite's automations); now its next
// statement fails, the pool drops it on release, and the pool goes on with new connections.
import { expect } from 'chai';
import pg from 'pg';
import { createPool, withTransaction, type Pool } from '@webpush/shared/db.js';
import { freshDatabase } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a pooled connection closed by Postgres while checked out', function () {
  this.timeout(30_000);
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;
  let admin: pg.Client;

  before(async () => {
    db = await freshDatabase('connection_loss');
    pool = createPool(db.url, { max: 2 });
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end().catch(() => {});
    await pool?.end().catch(() => {});
    await db?.drop();
  });

  /** Terminates the client's backend and waits (bounded) until its socket has seen the end. */
  async function terminate(client: pg.PoolClient): Promise<void> {
    const pid = (client as unknown as { processID: number }).processID;
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await Promise.race([ended, sleep(5000)]);
    await sleep(50);
  }

  it('held between statements: the process lives on, the next statement fails, the pool drops it and serves a new one', async () => {
    const client = await pool.connect();
    await client.query('SELECT 1');
    await terminate(client);
    const err = await client.query('SELECT 1').then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).to.be.an('error');
    client.release();
    expect(pool.totalCount).to.equal(0);
    expect((await pool.query('SELECT 2 AS n')).rows[0].n).to.equal(2);
  });

  it('inside a transaction between two statements: the transaction fails with the next one, the process lives on', async () => {
    const failed = await withTransaction(pool, async (tx) => {
      await tx.query('SELECT 1');
      await terminate(tx);
      await tx.query('SELECT 1');
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failed).to.be.an('error');
    expect((await pool.query('SELECT 3 AS n')).rows[0].n).to.equal(3);
  });
});
