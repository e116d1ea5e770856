// Each delivery-log statement reads its batch's stretch of the campaign, not the campaign so far,
// on the Postgres of the test run (18) and on Postgres 16 (docker-compose.yml). Postgres 16 plans
// `campaign_id = $1 AND subscriber_id = ANY($2)` as a scan of the whole campaign once the log has
// statistics that do not know it, which is every new campaign of a deployed log (inBatch in
// delivery-log-store.ts). Measured as the entries the statement reads from the log and its
// primary key in its transaction (pg_stat_get_xact_tuples_returned): counts, not times.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { migrateDeliverySchema } from '../../src/app.js';
import { claim, markSending, recordOutcomes, unfinishedRows, type Outcome } from '../../src/sending/delivery-log-store.js';
import { externalPostgres } from '@webpush/shared/postgres.js';
import { freshDatabase } from '../../../../test/support/postgres.js';
import { postgres16Binaries, startPostgres16 } from '../../../../test/support/postgres-16.js';

const BATCH = 250;
/** Rows of the campaign before the measured batch: what a scan of the campaign would read. */
const BEFORE = 20 * BATCH;

interface Server {
  name: string;
  /** A fresh database's URL, and how to remove it (and the server, when it is the suite's own). */
  start(): Promise<{ url: string; stop: () => Promise<void> }>;
  /** Why this server cannot run here, if it cannot. */
  missing?: string;
}

const pg16 = postgres16Binaries();
const SERVERS: Server[] = [
  {
    name: 'the Postgres of the test run',
    start: async () => {
      const db = await freshDatabase('log_batch_reads');
      return { url: db.url, stop: db.drop };
    },
  },
  {
    name: 'Postgres 16',
    missing: 'missing' in pg16 ? pg16.missing : undefined,
    start: async () => {
      const server = await startPostgres16((pg16 as { bin: string }).bin);
      return { url: await externalPostgres(server.url).database('log_batch_reads'), stop: server.stop };
    },
  },
];

for (const server of SERVERS) {
  describe(`sending: delivery-log statements read their batch only, on ${server.name}`, function () {
    this.timeout(120_000);
    let stop: (() => Promise<void>) | undefined;
    let pool: pg.Pool;
    let ids: string[];
    let campaignId: string;
    const instanceId = randomUUID();
    const lease = randomUUID();
    const who = { instanceId, lease, liveLeases: [lease] };

    before(async function () {
      if (server.missing) {
        console.log(`      skipped: ${server.missing}`);
        return this.skip();
      }
      const db = await server.start();
      stop = db.stop;
      pool = new pg.Pool({ connectionString: db.url, max: 2 });
      await migrateDeliverySchema(pool);
      const siteId = randomUUID();
      await pool.query(`INSERT INTO delivery.sites (site_id, public_id, vapid_public_key, vapid_private_key_enc) VALUES ($1, $2, 'k', '\\x00')`, [
        siteId,
        'pub_' + randomBytes(16).toString('base64url').slice(0, 22),
      ]);
      const { rows } = await pool.query(
        `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
         SELECT $1, 'https://push.example/' || g, 'k', 'a', 'country__br', ARRAY['all'] FROM generate_series(1, $2::int) g
         RETURNING id::text`,
        [siteId, BEFORE + 2 * BATCH],
      );
      ids = rows.map((r) => r.id as string).sort((a, b) => Number(a) - Number(b));
      await pool.query(`INSERT INTO delivery.instances (id) VALUES ($1)`, [instanceId]);
      await pool.query(`INSERT INTO delivery.claim_leases (id, instance_id) VALUES ($1, $2)`, [lease, instanceId]);
      const newRun = async () => {
        const id = randomUUID();
        await pool.query(`INSERT INTO delivery.campaign_runs (campaign_id, site_id, job, state) VALUES ($1, $2, '{}', 'sending')`, [id, siteId]);
        return id;
      };
      // An earlier campaign to every subscriber, then statistics that know only it.
      const earlier = await newRun();
      await pool.query(`INSERT INTO delivery.delivery_log (campaign_id, subscriber_id, state, claimed_by) SELECT $1, id, 'sent', $2 FROM delivery.subscribers`, [earlier, instanceId]);
      await pool.query('ANALYZE delivery.delivery_log');
      // The campaign measured, BEFORE rows into its sending.
      campaignId = await newRun();
      for (let at = 0; at < BEFORE; at += BATCH) {
        const batch = ids.slice(at, at + BATCH);
        await claim(pool, campaignId, batch, who, 30);
        await markSending(pool, campaignId, lease, batch);
        await recordOutcomes(pool, campaignId, lease, batch.map((subscriberId) => ({ subscriberId, outcome: 'sent', status: 201, reason: null })));
      }
    });

    after(async () => {
      await pool?.end();
      await stop?.();
    });

    it(`when a batch is claimed, marked, recorded and checked ${BEFORE.toLocaleString('en')} rows into a campaign, then each statement reads at most three times the batch from the log, not the campaign`, async () => {
      const batch = ids.slice(BEFORE, BEFORE + BATCH);
      // Mostly sent, some failed: the outcome statement's two halves both run.
      const outcomes: Outcome[] = batch.map((subscriberId, i) =>
        i % 10 === 0 ? { subscriberId, outcome: 'failed', status: 400, reason: 'bad request', failureClass: 'rejected' } : { subscriberId, outcome: 'sent', status: 201, reason: null },
      );
      const client = await pool.connect();
      const reads: Record<string, number> = {};
      try {
        await client.query('BEGIN');
        const readSoFar = async () =>
          Number(
            (
              await client.query(
                `SELECT pg_stat_get_xact_tuples_returned('delivery.delivery_log'::regclass) + pg_stat_get_xact_tuples_returned('delivery.delivery_log_pkey'::regclass) AS n`,
              )
            ).rows[0].n,
          );
        const steps: [string, () => Promise<unknown>][] = [
          ['claim', () => claim(client, campaignId, batch, who, 30)],
          ['sending marks', () => markSending(client, campaignId, lease, batch)],
          ['outcomes', () => recordOutcomes(client, campaignId, lease, outcomes)],
          ['unfinished rows', () => unfinishedRows(client, campaignId, batch)],
        ];
        for (const [name, step] of steps) {
          const before = await readSoFar();
          await step();
          reads[name] = (await readSoFar()) - before;
        }
        expect((await client.query(`SELECT count(*)::int AS n FROM delivery.delivery_log WHERE campaign_id = $1 AND subscriber_id = ANY($2::bigint[]) AND state IN ('sent', 'failed')`, [campaignId, batch])).rows[0].n).to.equal(BATCH);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
      // Up to three times: the outcome statement's two halves each read the batch's stretch, and
      // rows updated in this transaction leave old entries in it. A scan of the campaign reads
      // BEFORE (20 batches) or more: Postgres 16 without inBatch read 5,302 for the marks and
      // 10,728 for the outcomes.
      for (const [name, n] of Object.entries(reads)) expect(n, `${name}: entries read`).to.be.at.most(3 * BATCH);
    });
  });
}
