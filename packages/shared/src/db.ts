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
  // A client losing its connection (a Postgres restart, pg_terminate_backend) must not crash the
  // process. An idle one is reported on the pool (and dropped by it). A checked-out one between
  // its statements — a transaction's, or a connection held for a session's advisory lock while
  // its holder awaits Kafka or other queries — emits 'error' on itself: unheard, that was an
  // uncaught exception, and a Postgres stop took the delivery service down with it (the fault
  // suite's "Postgres stopped" made a kill -9 of it). Heard here, its next statement fails
  // instead, and the pool discards it on release (pg-pool drops a client no longer queryable).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
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
  /**
   * The notification lane's own (DB_POOL_MAX_NOTIFICATIONS; the delivery service's): a
   * notification to a person is expanded and sent with these, never queued behind a campaign's
   * chunks in `interactive` (docs/architecture.md, "A notification"). Absent: no such pool.
   */
  readonly notifications?: number;
}

/**
 * A process's connections, split by use so that one kind of work cannot starve another: a site's
 * imports and exports queue in `bulk`, never in front of another site's interactive calls; the
 * readiness check has its own connection (a pool of 1, kept open), so a saturated pool never
 * makes the process look down; the delivery service's notification lane has its own, so a
 * campaign's sending never holds the connections a notification to a person needs.
 * Connections: interactive + bulk + 1 (+ notifications).
 */
export interface Pools {
  readonly interactive: pg.Pool;
  readonly bulk: pg.Pool;
  readonly readiness: pg.Pool;
  /** When PoolSettings.notifications is set. */
  readonly notifications?: pg.Pool;
  end(): Promise<void>;
}

export function createPools(connectionString: string, applicationName: string, settings: PoolSettings): Pools {
  const interactive = createPool(connectionString, { max: settings.interactive, applicationName, waitMs: settings.waitMs });
  const bulk = createPool(connectionString, { max: settings.bulk, applicationName: `${applicationName}-bulk`, waitMs: settings.waitMs });
  const readiness = createPool(connectionString, { max: 1, applicationName: `${applicationName}-readiness`, waitMs: settings.waitMs, keepIdle: true });
  const notifications =
    settings.notifications === undefined ? undefined : createPool(connectionString, { max: settings.notifications, applicationName: `${applicationName}-notifications`, waitMs: settings.waitMs });
  return {
    interactive,
    bulk,
    readiness,
    ...(notifications ? { notifications } : {}),
    end: async () => {
      await Promise.all([interactive.end(), bulk.end(), readiness.end(), notifications?.end()]);
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
  // A connection Postgres closes between two statements fails the next one (createPool).
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const MIGRATION_FILE = /^(\d{14})_[a-z0-9_]+\.sql$/;

/**
 * How long a migration statement may wait for a table lock (Postgres `lock_timeout`). A DDL
 * statement waiting for its lock queues every later writer of that table behind it, so it waits
 * briefly, gives up, and the part is tried again a little later (MIGRATION_LOCK_RETRIES times).
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 100;
const MIGRATION_LOCK_RETRIES = 60;

/** A part of a migration file: one transaction (or, for `without transaction`, one statement at a time). */
interface MigrationPart {
  sql: string;
  /** Runs on a second connection whose snapshot was taken while the part before still held its locks. */
  fromLockedState: boolean;
}

// Directives, each on a line of its own (docs/operations.md, "Migrations that keep the tables
// open"):
//   -- migrate: without transaction
//        the whole file runs statement by statement outside a transaction (CREATE INDEX
//        CONCURRENTLY, which a transaction refuses); every statement must be safe to repeat.
//   -- migrate: next transaction
//        commits what came before and runs what follows in a transaction of its own (e.g. a
//        VALIDATE CONSTRAINT after the short ALTER TABLE that added it NOT VALID).
//   -- migrate: next transaction, from the locked state
//        what follows runs in a REPEATABLE READ transaction whose snapshot is taken while the
//        part before still holds its locks: it reads the rows exactly as they were when that part
//        (say, creating triggers that count changes from now on) took them, and the part before
//        commits at once, so writers wait only for the DDL. It may write only TEMP tables (rows
//        the triggers write meanwhile would fail a REPEATABLE READ write); a `next transaction`
//        after it (on the same connection, so it sees those TEMP tables) merges them.
const DIRECTIVE = /^--\s*migrate:\s*(.+?)\s*$/gm;

function migrationParts(file: string, sql: string): { parts: MigrationPart[]; withoutTransaction: boolean } {
  const parts: MigrationPart[] = [];
  let withoutTransaction = false;
  let from = 0;
  let fromLockedState = false;
  for (const m of sql.matchAll(DIRECTIVE)) {
    const directive = m[1];
    if (directive === 'without transaction') {
      withoutTransaction = true;
      continue;
    }
    if (directive !== 'next transaction' && directive !== 'next transaction, from the locked state') throw new Error(`migration ${file}: unknown directive "${directive}"`);
    parts.push({ sql: sql.slice(from, m.index), fromLockedState });
    from = m.index! + m[0].length;
    fromLockedState = directive.endsWith('from the locked state');
  }
  parts.push({ sql: sql.slice(from), fromLockedState });
  if (withoutTransaction && parts.length > 1) throw new Error(`migration ${file}: "without transaction" excludes other directives`);
  if (parts[0].fromLockedState) throw new Error(`migration ${file}: "from the locked state" needs a part before it`);
  if (parts.at(-1)!.fromLockedState) throw new Error(`migration ${file}: "from the locked state" writes only TEMP tables: a part must follow it`);
  return { parts, withoutTransaction };
}

/** Statements of a `without transaction` file: split at `;` ending a line (such files hold no function bodies). */
function statements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const isLockTimeout = (err: unknown) => (err as { code?: string }).code === '55P03';

export interface MigrateOptions {
  /** Called in each transaction of a migration as it begins and just before it commits (tests audit its locks). */
  afterBegin?: (client: pg.ClientBase, file: string) => Promise<void>;
  beforeCommit?: (client: pg.ClientBase, file: string) => Promise<void>;
}

/**
 * Applies `<dir>/<YYYYMMDDHHMMSS>_<name>.sql` files not yet recorded in `<schema>.schema_migrations`,
 * in name order, each in its own transaction unless its directives say otherwise (above). An
 * advisory lock per schema lets several instances start at once: the first applies, the others
 * wait and find nothing left to do. A file is recorded with its last part: a file cut short
 * runs again from its start, so the parts before a `next transaction` must be safe to repeat.
 */
export async function migrate(pool: pg.Pool, schema: string, dir: string, opts: MigrateOptions = {}): Promise<string[]> {
  if (!/^[a-z_]+$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  for (const f of files) if (!MIGRATION_FILE.test(f)) throw new Error(`migration file name ${f} must be YYYYMMDDHHMMSS_name.sql`);
  const client = await pool.connect();
  const applied: string[] = [];
  const record = (c: pg.ClientBase, version: string) => c.query(`INSERT INTO ${schema}.schema_migrations (version) VALUES ($1)`, [version]);
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
      const { parts, withoutTransaction } = migrationParts(file, await readFile(path.join(dir, file), 'utf8'));
      try {
        if (withoutTransaction) {
          await client.query(`SET search_path TO ${schema}, public`);
          for (const statement of statements(parts[0].sql)) await client.query(statement);
          await client.query('RESET search_path');
          await record(client, version);
        } else {
          await runParts(pool, client, schema, file, parts, (c) => record(c, version), opts);
        }
      } catch (err) {
        throw new Error(`migration ${schema}/${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
  } finally {
    await client.query('RESET search_path').catch(() => {});
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => {});
    client.release();
  }
  return applied;
}

async function runParts(pool: pg.Pool, client: pg.PoolClient, schema: string, file: string, parts: MigrationPart[], record: (c: pg.ClientBase) => Promise<unknown>, opts: MigrateOptions): Promise<void> {
  const begin = async (c: pg.ClientBase, isolation = '') => {
    await c.query(`BEGIN${isolation}`);
    await c.query(`SET LOCAL search_path TO ${schema}, public`);
    await c.query(`SET LOCAL lock_timeout = ${MIGRATION_LOCK_TIMEOUT_MS}`);
  };
  // The second connection, from the first `from the locked state` part on: a client of its own,
  // not the pool's, so that a pool of one connection (a setting) still migrates.
  let reader: pg.Client | undefined;
  try {
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      const next = parts[i + 1];
      for (let attempt = 1; ; attempt++) {
        const c = reader ?? client;
        let snapshot: pg.Client | undefined;
        try {
          if (!parts[i].fromLockedState) {
            await begin(c);
            await opts.afterBegin?.(c, file);
          }
          await c.query(parts[i].sql);
          if (last) await record(c);
          await opts.beforeCommit?.(c, file);
          if (next?.fromLockedState) {
            // The snapshot of the next part: taken now, while this part still holds its locks.
            if (reader) throw new Error(`migration ${file}: one "from the locked state" part per file`);
            snapshot = new pg.Client({ ...pool.options, application_name: 'webpush-migrate' });
            snapshot.on('error', () => {});
            await snapshot.connect();
            await begin(snapshot, ' ISOLATION LEVEL REPEATABLE READ');
            await opts.afterBegin?.(snapshot, file);
            await snapshot.query('SELECT 1');
          }
          await c.query('COMMIT');
          reader ??= snapshot;
          break;
        } catch (err) {
          await c.query('ROLLBACK').catch(() => {});
          if (snapshot && snapshot !== reader) await snapshot.end().catch(() => {});
          if (!isLockTimeout(err) || attempt >= MIGRATION_LOCK_RETRIES || reader) throw err;
          // Someone holds the table (a long read, another migration): let its queue drain, try again.
          await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** Math.min(attempt, 6))));
        }
      }
    }
  } finally {
    await reader?.end().catch(() => {});
  }
}
