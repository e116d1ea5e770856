// The migration runner's lock manners (packages/shared/src/db.ts migrate): a migration that must
// wait for a table lock (a long read holds the table) waits only MIGRATION_LOCK_TIMEOUT_MS at a
// time, so writers queued behind it go on, and it applies once the table is free.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createPool, migrate, type Pool } from '@webpush/shared/db.js';
import { freshDatabase } from '../support/postgres.js';

describe('migration runner: waiting for a table lock', function () {
  this.timeout(120_000);
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let dir: string;

  before(async () => {
    db = await freshDatabase('migration_runner');
    pool = createPool(db.url, { max: 6 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    await pool.query('CREATE SCHEMA locktest; CREATE TABLE locktest.t (id int)');
    await writeFile(path.join(dir, '20990101000000_add_column.sql'), 'ALTER TABLE locktest.t ADD COLUMN c int;\n');
  });

  after(async () => {
    await pool?.end();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when a long reader holds the table, then writers are not held behind the waiting migration, and it applies once the reader is done', async () => {
    const reader = await pool.connect();
    await reader.query('BEGIN');
    await reader.query('SELECT count(*) FROM locktest.t');
    const migrating = migrate(pool, 'locktest', dir);
    // Until the migration's ACCESS EXCLUSIVE request is queued (bounded).
    const queued = async () =>
      (await pool.query(`SELECT 1 FROM pg_locks WHERE relation = 'locktest.t'::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`)).rowCount! > 0;
    let seen = false;
    for (let i = 0; i < 2000 && !(seen = await queued()); i++) await new Promise((r) => setTimeout(r, 5));
    expect(seen, 'the migration asked for its lock').to.equal(true);
    // A writer arriving now queues behind the migration's request; it gets through while the
    // reader still holds the table, because the migration gives up its place after the timeout.
    await pool.query('INSERT INTO locktest.t (id) VALUES (1)');
    expect((await pool.query('SELECT count(*)::int AS n FROM locktest.t')).rows[0].n).to.equal(1);
    await reader.query('COMMIT');
    reader.release();
    expect(await migrating).to.deep.equal(['20990101000000_add_column.sql']);
    expect((await pool.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = 'locktest' AND table_name = 't' AND column_name = 'c'`)).rows[0].n).to.equal(1);
  });
});
