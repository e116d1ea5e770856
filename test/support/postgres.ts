// Test databases. The mocha global setup (test/support/global-setup.ts) makes sure a Postgres
// server is reachable: DATABASE_URL's server when set, otherwise one throwaway embedded server
// for the whole run. Every suite then gets a brand-new database of its own.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { externalPostgres } from '@webpush/shared/postgres.js';

export const TEST_SERVER_URL_VAR = 'WEBPUSH_TEST_PG_SERVER_URL';

function serverUrl(): string {
  const url = process.env[TEST_SERVER_URL_VAR];
  if (!url) throw new Error(`${TEST_SERVER_URL_VAR} is not set: run the tests through mocha with test/support/global-setup.ts`);
  return url;
}

/** Creates an empty database for one suite and returns its URL and a function that drops it. */
export async function freshDatabase(label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wp_test_${label.replace(/[^a-z0-9]/g, '_')}_${randomBytes(4).toString('hex')}`;
  const server = serverUrl();
  const url = await externalPostgres(server).database(name);
  return {
    url,
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
