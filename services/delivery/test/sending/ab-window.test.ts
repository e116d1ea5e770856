// An A/B test's window starts at the test share's first push, not when its chunks are published
// (a busy consumer must not eat the window), or when the test share has no one to send to; a
// rest chunk that arrives a moment before its winner is visible waits for it instead of failing.
// In-process against a real Postgres: the dispatch handler, pacer and chunk worker as the
// service wires them, chunks recorded as Kafka would carry them, a stand-in push service.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import type { AbTest } from '@webpush/contracts/ab-test.js';
import type { ChunkMessage, DispatchMessage } from '@webpush/contracts/messages.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createChunkWorker, type ChunkDeps } from '../../src/sending/chunk-worker.js';
import { setWinner } from '../../src/ab-tests/ab-test-store.js';
import type { PushJob, PushHooks, PushResult } from '@webpush/push/types.js';
import type { VapidHeaderCache } from '@webpush/push/vapid.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { expansionRecorder } from './support/expansion.js';

const log = createLogger('ab-window-test', 'error');
const noop = async () => {};
const noVapid = async (): Promise<VapidHeaderCache> => ({ headerFor: () => '', publicKey: '', signatures: 0 });

/** A push service that accepts every push. */
const accepting: ChunkDeps['sender'] = {
  async sendBatch(job: PushJob, hooks?: PushHooks) {
    return Promise.all(
      job.subscriptions.map(async (item): Promise<PushResult> => {
        if (hooks?.beforeSend && !(await hooks.beforeSend(item.id))) return { id: item.id, outcome: 'failed', reason: 'not sent', attempts: 0 };
        const result: PushResult = { id: item.id, outcome: 'sent', status: 201, attempts: 1 };
        hooks?.onResult?.(result);
        return result;
      }),
    );
  },
};

describe('sending: an A/B test\'s window', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  const ab: AbTest = { variants: [{}, { title: 'B title' }], testPercent: 50, winnerMetric: 'ctr', windowMinutes: 30 };

  before(async () => {
    t = await startTestDelivery('ab_window');
  });
  after(async () => t?.stop());

  async function worker() {
    const instanceId = randomUUID();
    await heartbeat(t.pool, instanceId);
    return createChunkWorker(
      { pool: t.pool, log, instanceId, sender: accepting, vapid: noVapid, tokens: trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] }), publishStats: noop },
      { deadAfterSec: 30, waitForOthersMs: 2000, claimBatch: 50, retrySec: 5 },
    );
  }
  const windowEnds = async (campaignId: string): Promise<Date | null> =>
    (await t.pool.query('SELECT ab_window_ends_at FROM delivery.campaign_runs WHERE campaign_id = $1', [campaignId])).rows[0].ab_window_ends_at;
  const dbNow = async (): Promise<number> => ((await t.pool.query('SELECT now() AS n')).rows[0].n as Date).getTime();

  async function abCampaign(subscribers: number) {
    const { siteId } = await newSite(t);
    if (subscribers > 0) await t.operators.seedSubscribers({ siteId, count: subscribers, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    const job: DispatchMessage = { ...dispatchMessage(siteId, ['all']), abTest: ab };
    const rec = expansionRecorder(t);
    await rec.dispatch(job, noop);
    for (let pass = 0; pass < 3; pass++) await rec.pacer.advanceDue();
    return { job, ...rec };
  }

  it('starts at the test share\'s first push, however long its chunks waited after they were published', async () => {
    const { job, chunks } = await abCampaign(200);
    expect(chunks.length).to.be.greaterThan(0);
    // Published, not yet pushed (a busy consumer): the window has not started.
    expect(await windowEnds(job.campaignId)).to.equal(null);
    await new Promise((r) => setTimeout(r, 1100));
    const beforePush = await dbNow();
    const handle = await worker();
    await handle(chunks[0], noop);
    const ends = (await windowEnds(job.campaignId))!.getTime();
    expect(ends - beforePush).to.be.at.least(ab.windowMinutes * 60_000);
    // Later test chunks leave it where the first push put it.
    for (const c of chunks.slice(1)) await handle(c, noop);
    expect((await windowEnds(job.campaignId))!.getTime()).to.equal(ends);
  });

  it('starts when the test share has no one to send to, so the rest is not held forever', async () => {
    const { job, chunks } = await abCampaign(0);
    expect(chunks).to.deep.equal([]);
    expect(await windowEnds(job.campaignId)).to.not.equal(null);
  });

  it('a rest chunk read before its winner is visible waits for the winner, then sends', async () => {
    const { job, chunks, pacer } = await abCampaign(200);
    const handle = await worker();
    for (const c of chunks) await handle(c, noop);
    // The rest's chunk as the pacer publishes it with the winner (here: before the winner commits).
    await setWinner(t.pool, job.campaignId, 1, 'customer');
    const published = chunks.length;
    for (let pass = 0; pass < 3; pass++) await pacer.advanceDue();
    const rest: ChunkMessage[] = chunks.slice(published);
    expect(rest.length).to.be.greaterThan(0);
    await t.pool.query('UPDATE delivery.campaign_runs SET ab_winner = NULL WHERE campaign_id = $1', [job.campaignId]);
    const winnerLater = new Promise((r) => setTimeout(r, 400)).then(() => setWinner(t.pool, job.campaignId, 1, 'customer'));
    await handle(rest[0], noop);
    await winnerLater;
    const { rows } = await t.pool.query(`SELECT count(*)::int AS n FROM delivery.delivery_log WHERE campaign_id = $1 AND subscriber_id = ANY($2::bigint[]) AND state = 'sent'`, [
      job.campaignId,
      rest[0].subscriberIds,
    ]);
    expect(rows[0].n).to.equal(rest[0].subscriberIds.length);
  });
});
