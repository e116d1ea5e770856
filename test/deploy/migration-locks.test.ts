// No migration added since the previous release (deploy/previous-release) keeps subscribes or
// sends waiting while it works through the rows of a big table: a migration that built an index
// and backfilled counters under write-blocking locks held subscribes for 8 s at 1,000,000
// subscribers. Checked without timing anything: the release before is migrated, tables are
// seeded (modest sizes; the same rule at 1,000,000 is measured by hand: docs/operations.md,
// "Migrations that keep the tables open"), then this release's migrations run, and just before
// each of their transactions commits, the locks it holds and the rows it has read and written
// are read from Postgres: a transaction holding a lock that blocks writers of a big table may
// only have done catalog work (rows touched far below the seeded sizes). Plain CREATE INDEX on a
// big table (its build reads rows outside those statistics) is refused by reading the files.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ROOT } from '../../scripts/lib/local-env.js';
import type { ClientBase } from 'pg';
import { createPool, migrate, type Pool } from '@webpush/shared/db.js';
import { freshDatabase } from '../support/postgres.js';

const run = promisify(execFile);

/** The tables subscribes and sends write, which grow with the audience. */
const BIG_TABLES = ['subscribers', 'delivery_log', 'tracking'];
/** Lock modes that make INSERT/UPDATE/DELETE (ROW EXCLUSIVE) wait. */
const BLOCKING_WRITES = ['ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'];
const SEEDED = 20_000;
/** Rows a transaction may touch while it blocks writers: catalog work only, far below SEEDED. */
const CATALOG_ONLY = 1_000;
const SERVICES = ['campaign', 'delivery'];

async function previousReleaseFiles(): Promise<Set<string>> {
  const text = await readFile(path.join(ROOT, 'deploy/previous-release'), 'utf8');
  const rev = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'))!.trim();
  const { stdout } = await run('git', ['-C', ROOT, 'ls-tree', '-r', '--name-only', rev, '--', 'services']);
  return new Set(stdout.split('\n').filter(Boolean));
}

describe('deploy: migrations since the previous release never block subscribes or sends while they work through rows', function () {
  this.timeout(300_000);
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  const released: Record<string, string> = {};
  let releasedFiles: Set<string>;

  before(async () => {
    releasedFiles = await previousReleaseFiles();
    db = await freshDatabase('migration_locks');
    // One connection: the runner's snapshot connection is its own.
    pool = createPool(db.url, { max: 1 });
    for (const service of SERVICES) {
      const dir = path.join(ROOT, 'services', service, 'migrations');
      released[service] = await mkdtemp(path.join(os.tmpdir(), `released-${service}-`));
      for (const f of await readdir(dir)) if (releasedFiles.has(`services/${service}/migrations/${f}`)) await cp(path.join(dir, f), path.join(released[service], f));
    }
  });

  after(async () => {
    await pool?.end();
    await db?.drop();
    for (const dir of Object.values(released)) await rm(dir, { recursive: true, force: true });
  });

  it('holds no lock that blocks writers of a big table while it reads or writes rows (tables seeded at the previous release)', async () => {
    for (const service of SERVICES) await migrate(pool, service, released[service]);
    const siteId = randomUUID();
    const campaignId = randomUUID();
    await pool.query(`INSERT INTO delivery.sites (site_id, public_id, vapid_public_key, vapid_private_key_enc) VALUES ($1, 'pub_locks', 'k', '\\x00')`, [siteId]);
    await pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, active, created_at)
       SELECT $1, 'https://fcm.googleapis.com/fcm/send/' || i, 'k', 'a', 'country__br', i % 7 <> 0, now() - (i % 90) * interval '1 day' FROM generate_series(1, $2) i`,
      [siteId, SEEDED],
    );
    await pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job) VALUES ($1, $2, '{}')`, [campaignId, siteId]);
    await pool.query(
      `INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by) SELECT $1, id, 'sent', $1 FROM delivery.subscribers`,
      [campaignId],
    );
    await pool.query(`INSERT INTO delivery.tracking (campaign_id, subscriber_id, kind) SELECT $1, id, 'impression' FROM delivery.subscribers`, [campaignId]);
    await pool.query('ANALYZE');

    const problems: string[] = [];
    let audited = 0;
    // Rows this backend read and wrote, not yet flushed to the cumulative statistics: within a
    // transaction they only grow, so the difference from its start is that transaction's work.
    const rowsTouched = async (client: ClientBase) =>
      Number(
        (await client.query(`SELECT coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0) + n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS n FROM pg_stat_xact_user_tables`)).rows[0].n,
      );
    const atBegin = new Map<ClientBase, number>();
    const afterBegin = async (client: ClientBase) => void atBegin.set(client, await rowsTouched(client));
    const beforeCommit = async (client: ClientBase, file: string) => {
      audited++;
      const { rows: locks } = await client.query(
        `SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE l.pid = pg_backend_pid() AND l.granted AND n.nspname = 'delivery' AND c.relname = ANY($1) AND l.mode = ANY($2)`,
        [BIG_TABLES, BLOCKING_WRITES],
      );
      if (locks.length === 0) return;
      const touched = (await rowsTouched(client)) - atBegin.get(client)!;
      if (touched >= CATALOG_ONLY) problems.push(`${file}: holds ${locks.map((l) => `${l.mode} on ${l.relname}`).join(', ')} while it touched ${touched} rows`);
    };
    for (const service of SERVICES) await migrate(pool, service, path.join(ROOT, 'services', service, 'migrations'), { afterBegin, beforeCommit });
    expect(audited, 'transactions audited').to.be.greaterThan(5);
    expect(problems, 'move the row work out of the locking transaction (docs/operations.md, "Migrations that keep the tables open")').to.deep.equal([]);
  });

  it('builds indexes on big tables only CONCURRENTLY, in files run without a transaction', async () => {
    const problems: string[] = [];
    for (const service of SERVICES) {
      const dir = path.join('services', service, 'migrations');
      for (const f of await readdir(path.join(ROOT, dir))) {
        if (releasedFiles.has(`${dir}/${f}`)) continue;
        const sql = await readFile(path.join(ROOT, dir, f), 'utf8');
        const code = sql.replace(/--(?!\s*migrate:)[^\n]*/g, '');
        for (const m of code.matchAll(/CREATE\s+(?:UNIQUE\s+)?INDEX\s+(CONCURRENTLY\s+)?[^;]*?\bON\s+(?:ONLY\s+)?(?:delivery\.)?(\w+)/gi)) {
          if (!BIG_TABLES.includes(m[2])) continue;
          if (!m[1]) problems.push(`${dir}/${f}: CREATE INDEX on ${m[2]} without CONCURRENTLY`);
          else if (!/^--\s*migrate:\s*without transaction\s*$/m.test(sql)) problems.push(`${dir}/${f}: CONCURRENTLY needs "-- migrate: without transaction"`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
  });
});
