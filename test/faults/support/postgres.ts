// A Postgres server of the fault suite's own, which a test stops and starts again on the same
// data and port (a fast shutdown cuts every connection), with the same embedded server as
// packages/shared/src/postgres.ts.
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { externalPostgres, loadEmbeddedPostgres } from '@webpush/shared/postgres.js';

export interface OwnPostgres {
  readonly url: string;
  database(name: string): Promise<string>;
  /** SIGINT to the postmaster: a fast shutdown (every connection cut, nothing lost). */
  stop(): Promise<void>;
}

/** Starts the server on `dataDir` (initialised the first time), keeping its data when stopped. */
export async function startOwnPostgres(dataDir: string, port: number): Promise<OwnPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const initialised = await access(path.join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  await mkdir(path.dirname(dataDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // fsync off as for test servers: a fast shutdown writes everything out anyway.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  });
  if (!initialised) await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return { url, database: (name) => externalPostgres(url).database(name), stop: () => server.stop() };
}
