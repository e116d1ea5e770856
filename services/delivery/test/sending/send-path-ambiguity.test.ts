// The whole send path in-process (dispatch → chunk worker → sender → client)
// against a real Postgres and the push-service simulator, which keeps every accepted copy: a
// push service that accepts a message and then resets the connection makes the sender retry a
// push that was delivered. Each such retry must count as ambiguous, so the platform's own figure
// bounds the repeats. Also prints what the delivery log costs in statements per push.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Pool } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage } from '@webpush/contracts/messages.js';
import { startPushSimulator, type PushSimulator } from '../../../../tools/push-simulator/src/index.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createEncryptPool, type EncryptPool } from '@webpush/push/encryption/pool.js';
import { createPushSender } from '@webpush/push/sender.js';
import { createChunkWorker } from '../../src/sending/chunk-worker.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { vapidSigners } from '../../src/sites/vapid-signers.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';

const N = 300;
const log = createLogger('send-path-ambiguity', 'error');
const noop = async () => {};

/** Counts the statements the code under test runs (pool queries and transaction statements). */
function countingPool(real: Pool): { pool: Pool; statements: () => number } {
  let n = 0;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const v = Reflect.get(t, prop, receiver);
        if (prop === 'query') return (...args: unknown[]) => (n++, (v as (...a: unknown[]) => unknown).apply(t, args));
        if (prop === 'connect') return async () => wrap(await (v as () => Promise<object>).apply(t));
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
  return { pool: wrap(real), statements: () => n };
}

describe('send path: accepted-then-reset pushes are counted as ambiguous', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let sim: PushSimulator;
  let encryptor: EncryptPool;

  before(async () => {
    t = await startTestDelivery('send_path_ambiguity');
    sim = await startPushSimulator({ seed: 11, keepReplaced: true });
    encryptor = createEncryptPool({ size: 1 });
  });
  after(async () => {
    await encryptor?.close();
    await sim?.close();
    await t?.stop();
  });

  it('when 10 % of pushes are accepted and then the connection is reset, then nothing is lost and repeats stay within the ambiguous count', async () => {
    const site = await newSite(t);
    const { vapidPublicKey } = (await t.pool.query(`SELECT vapid_public_key AS "vapidPublicKey" FROM delivery.sites WHERE site_id = $1`, [site.siteId])).rows[0];
    const subs = Array.from({ length: N }, () => sim.createSubscription(vapidPublicKey));
    await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
       SELECT $1, e, p, a, 'US', ARRAY['reset'] FROM unnest($2::text[], $3::text[], $4::text[]) AS x(e, p, a)`,
      [site.siteId, subs.map((s) => s.endpoint), subs.map((s) => s.keys.p256dh), subs.map((s) => s.keys.auth)],
    );
    sim.reset();
    sim.setBehaviour({ latencyMs: 5, resetAfterAccept: 0.1 });

    const sender = createPushSender({ ca: sim.caCertPem, testHosts: ['127.0.0.1'], encryptor, concurrencyPerOrigin: 20, baseBackoffMs: 5, maxBackoffMs: 20 });
    const counted = countingPool(t.pool);
    const instanceId = randomUUID();
    await heartbeat(t.pool, instanceId);
    const chunks: ChunkMessage[] = [];
    const dispatch = createDispatchHandler(
      { pool: t.pool, log, publish: async (_topic, messages) => void chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage)), publishStats: noop },
      { chunkSize: 100, chunksPerGroup: 10 },
    );
    const vapid = vapidSigners(t.pool, t.config.vapidEncryptionKey, 'mailto:ops@example.com');
    const chunk = createChunkWorker(
      { pool: counted.pool, log, instanceId, sender, vapid, tokens: trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] }), publishStats: noop },
      { deadAfterSec: 30, waitForOthersMs: 1000, claimBatch: 50 },
    );
    const job = dispatchMessage(site.siteId, ['reset'], { ttl: 600 });
    try {
      await dispatch(job, noop);
      for (const c of chunks) await chunk(c, noop);
    } finally {
      await sender.close();
    }

    const got = sim.received().filter((m) => JSON.parse(m.payload).id === job.campaignId);
    const distinct = new Set(got.map((m) => m.subscriptionId)).size;
    const lost = N - distinct;
    const duplicated = got.length - distinct;
    const run = (await t.pool.query(`SELECT state, sent::int, failed::int, ambiguous::int FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId])).rows[0];
    const rows = (await t.pool.query(
      `SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent, count(*) FILTER (WHERE state IN ('claimed', 'sending'))::int AS unfinished, sum(ambiguous)::int AS ambiguous
         FROM delivery.delivery_log WHERE campaign_id = $1`,
      [job.campaignId],
    )).rows[0];
    const resets = sim.stats().resets.afterAccept;
    console.log(`      accepted-then-reset ${resets}/${N}: lost ${lost}, duplicated ${duplicated}, ambiguous ${run.ambiguous}, run ${run.state} (sent ${run.sent}, failed ${run.failed}); ${(counted.statements() / N).toFixed(2)} statements per push`);
    expect(resets).to.be.greaterThan(0);
    expect(lost).to.equal(0);
    expect(duplicated).to.be.at.most(run.ambiguous);
    expect(run.ambiguous).to.be.at.least(duplicated).and.to.be.greaterThan(0);
    expect(run.state).to.equal('completed');
    expect(rows.unfinished).to.equal(0);
    expect({ sent: run.sent, ambiguous: run.ambiguous }).to.deep.equal({ sent: rows.sent, ambiguous: rows.ambiguous });
  });
});
