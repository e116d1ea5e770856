// Postgres plumbing shared by the services: a pool, transactions, and the migration runner.
// Each service keeps its own schema and its own migrations folder; this file only runs them.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export type Pool = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

export function createPool(connectionString: string, { max = 10, applicationName = 'webpush', waitMs = 5000, keepIdle = false } = {}): pg.Pool {
  // connectionTimeoutMillis bounds the wait for a connection, a free one or a new one: past it
  // the caller gets an error isConnectionWaitTimeout knows, answered "busy" (503), never a hang.
  const pool = new pg.Pool({ connectionString, max, application_name: applicationName, connectionTimeoutMillis: waitMs, ...(keepIdle ? { idleTimeoutMillis: 0 } : {}) });
  // An idle client losing its connection (Postgres restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/** Each pool's size and the longest wait for one of its connections (docs/operations.md, "Capacity"). */
export interface PoolSettings {
  /** Requests a caller waits for, and the background loops (DB_POOL_MAX_INTERACTIVE). */
  readonly interactive: number;
  /** Imports and exports: long and heavy, limited per site (DB_POOL_MAX_BULK). */
  readonly bulk: number;
  /** The longest wait for a free connection before the caller is answered busy (DB_POOL_WAIT_MS). */
  readonly waitMs: number;
}

/**
 * A process's connections, split by use so that one kind of work cannot starve another: a site's
 * imports and exports queue in `bulk`, never in front of another site's interactive calls; the
 * readiness check has its own connection (a pool of 1, kept open), so a saturated pool never
 * makes the process look down. Connections: interactive + bulk + 1.
 */
export interface Pools {
  readonly interactive: pg.Pool;
  readonly bulk: pg.Pool;
  readonly readiness: pg.Pool;
  end(): Promise<void>;
}

export function createPools(connectionString: string, applicationName: string, settings: PoolSettings): Pools {
  const interactive = createPool(connectionString, { max: settings.interactive, applicationName, waitMs: settings.waitMs });
  const bulk = createPool(connectionString, { max: settings.bulk, applicationName: `${applicationName}-bulk`, waitMs: settings.waitMs });
  const readiness = createPool(connectionString, { max: 1, applicationName: `${applicationName}-readiness`, waitMs: settings.waitMs, keepIdle: true });
  return {
    interactive,
    bulk,
    readiness,
    end: async () => {
      await Promise.all([interactive.end(), bulk.end(), readiness.end()]);
    },
  };
}

/**
 * True for pg-pool's errors when no connection came within the pool's wait (`connectionTimeoutMillis`):
 * every connection was in use for that long (`timeout exceeded when trying to connect`), or a new
 * one took that long to open. The statement never ran: the caller is answered busy with a
 * Retry-After (503), not a failure (500).
 */
export function isConnectionWaitTimeout(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.message === 'timeout exceeded when trying to connect' || err.message === 'Connection terminated due to connection timeout';
}

/** Retry-After of a busy answer: a connection's wait is bounded by seconds, and most queries take milliseconds. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

const DECIMAL_ID = /^-?\d{1,19}$/;

/**
 * Ids (decimal strings) as the Postgres array literal of a `$n::bigint[]` parameter. Given a
 * JavaScript array, pg quotes and escapes every element into such a literal itself, which for
 * the delivery log's statements (hundreds of ids each, several per batch of pushes) was about a
 * twentieth of what the delivery service allocates per push; ids need neither. Anything but an
 * integer is refused here, as the cast would refuse it in Postgres.
 */
export function bigintArray(ids: readonly string[]): string {
  for (const id of ids) if (!DECIMAL_ID.test(id)) throw new TypeError(`not an integer id: ${JSON.stringify(String(id).slice(0, 40))}`);
  return `{${ids.join(',')}}`;
}

export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection Postgres closes between two statements (restart, pg_terminate_backend) emits
  // 'error' on the checked-out client, which would crash the process unheard; the next
  // statement fails instead, and the pool discards the client on release.
  const onError = () => {};
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release();
  }
}

const MIGRATION_FILE = /^(\d{14})_[a-z0-9_]+\.sql$/;

/**
 * Applies `<dir>/<YYYYMMDDHHMMSS>_<name>.sql` files not yet recorded in `<schema>.schema_migrations`,
 * in name order, each in its own transaction. An advisory lock per schema lets several
 * instances start at once: the first applies, the others wait and find nothing left to do.
 */
export async function migrate(pool: pg.Pool, schema: string, dir: string): Promise<string[]> {
  if (!/^[a-z_]+$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  for (const f of files) if (!MIGRATION_FILE.test(f)) throw new Error(`migration file name ${f} must be YYYYMMDDHHMMSS_name.sql`);
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await client.query(`SELECT version FROM ${schema}.schema_migrations`)).rows.map((r) => r.version as string));
    for (const file of files) {
      const version = file.slice(0, 14);
      if (done.has(version)) continue;
      const sql = await readFile(path.join(dir, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO ${schema}, public`);
        await client.query(sql);
        await client.query(`INSERT INTO ${schema}.schema_migrations (version) VALUES ($1)`, [version]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw new Error(`migration ${schema}/${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => {});
    client.release();
  }
  return applied;
}
