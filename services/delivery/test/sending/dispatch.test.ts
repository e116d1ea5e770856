// The dispatch handler (sending/dispatch.ts) against a real Postgres, its chunks recorded as Kafka
// would carry them: an immediate campaign's audience goes out in chunks, the first on its own so
// the first pushes leave after one audience read, then in groups doubling up to chunksPerGroup;
// every subscriber once, in order; a dispatch that failed mid-way resumes where it stopped; two
// handlings of one job at once (a copy of the message) count each chunk once.
import { expect } from 'chai';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage } from '@webpush/contracts/messages.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { withTransaction } from '@webpush/shared/db.js';
import { chunkDone, findRun } from '../../src/sending/run-store.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';

const log = createLogger('dispatch-test', 'error');
const noop = async () => {};

describe('delivery: dispatching an immediate campaign', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteId: string;
  let audience: string[];

  before(async () => {
    t = await startTestDelivery('dispatch');
    siteId = (await newSite(t)).siteId;
    await t.operators.seedSubscribers({ siteId, count: 47, topics: ['all'], countries: ['br'], topicsPerSubscriber: 1 });
    audience = (await t.pool.query(`SELECT s.id::text AS id FROM delivery.subscribers s WHERE s.site_id = $1 AND s.active ORDER BY s.id`, [siteId])).rows.map((r) => r.id as string);
  });
  after(async () => {
    await t?.stop();
  });

  /** A dispatch handler whose produce calls are recorded; `failOnCall`: that call (1-based) throws once. */
  function recorder(failOnCall?: number, turn?: () => Promise<() => void>) {
    const groups: ChunkMessage[][] = [];
    let calls = 0;
    const publish = async (_topic: string, messages: { value: Buffer }[]) => {
      calls += 1;
      if (calls === failOnCall) throw new Error('the broker went away');
      groups.push(messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage));
    };
    const dispatch = createDispatchHandler({ pool: t.pool, log, publish, publishStats: noop, turn }, { chunkSize: 5, chunksPerGroup: 4 });
    return { groups, dispatch };
  }

  it('publishes the first chunk alone, then groups doubling up to chunksPerGroup, each subscriber once and in order', async () => {
    const { groups, dispatch } = recorder();
    const job = dispatchMessage(siteId, ['all']);
    await dispatch(job, noop);
    expect(groups.map((g) => g.length)).to.deep.equal([1, 2, 4, 3]);
    const chunks = groups.flat();
    expect(chunks.map((c) => c.chunkNo)).to.deep.equal(chunks.map((_, i) => i));
    expect(chunks.flatMap((c) => c.subscriberIds)).to.deep.equal(audience);
    const run = (await findRun(t.pool, job.campaignId))!;
    expect(run.chunksTotal).to.equal(10);
    expect(run.state).to.equal('sending');
  });

  it('when a produce call fails mid-way, then the dispatch handed again resumes after the last group published, without repeats', async () => {
    const failing = recorder(3);
    const job = dispatchMessage(siteId, ['all']);
    let failed: Error | undefined;
    await failing.dispatch(job, noop).catch((err: Error) => (failed = err));
    expect(failed?.message).to.equal('the broker went away');
    expect(failing.groups.map((g) => g.length)).to.deep.equal([1, 2]);
    const again = recorder();
    await again.dispatch(job, noop);
    const chunks = [...failing.groups, ...again.groups].flat();
    expect(chunks.map((c) => c.chunkNo)).to.deep.equal(chunks.map((_, i) => i));
    expect(chunks.flatMap((c) => c.subscriberIds)).to.deep.equal(audience);
    expect((await findRun(t.pool, job.campaignId))!.chunksTotal).to.equal(chunks.length);
  });

  it('when the same job is handled twice at once, then each chunk number is counted once and the run waits for no chunk that does not exist', async () => {
    // The second handling starts once the first has its first group in hand, and both groups
    // reach Kafka before either is recorded: the interleaving of two copies of the message.
    const job = dispatchMessage(siteId, ['all']);
    const chunks: ChunkMessage[] = [];
    let firstAtPublish!: () => void;
    const firstPublishing = new Promise<void>((r) => (firstAtPublish = r));
    let secondPublished!: () => void;
    const bothPublished = new Promise<void>((r) => (secondPublished = r));
    const handler = (onFirstPublish: () => Promise<void>) => {
      let calls = 0;
      const publish = async (_topic: string, messages: { value: Buffer }[]) => {
        if (++calls === 1) await onFirstPublish();
        chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage));
      };
      return createDispatchHandler({ pool: t.pool, log, publish, publishStats: noop }, { chunkSize: 5, chunksPerGroup: 4 });
    };
    const first = handler(async () => {
      firstAtPublish();
      await bothPublished;
    })(job, noop);
    await firstPublishing;
    const second = handler(async () => secondPublished())(job, noop);
    await Promise.all([first, second]);

    const run = (await findRun(t.pool, job.campaignId))!;
    const numbers = [...new Set(chunks.map((c) => c.chunkNo))].sort((a, b) => a - b);
    expect(numbers).to.deep.equal([...Array(10).keys()]);
    expect({ published: run.chunksPublished, total: run.chunksTotal }).to.deep.equal({ published: 10, total: 10 });
    // A chunk published by both carries the same subscribers (the audience did not change).
    for (const n of numbers) {
      const copies = chunks.filter((c) => c.chunkNo === n).map((c) => c.subscriberIds.join());
      expect(new Set(copies).size, `chunk ${n}`).to.equal(1);
    }
    expect([...new Set(chunks.flatMap((c) => c.subscriberIds))].sort()).to.deep.equal([...audience].sort());
    // Every chunk done (each copy of it), the run completes.
    for (const c of chunks) await withTransaction(t.pool, (tx) => chunkDone(tx, job.campaignId, c.chunkNo, c.subscriberIds));
    expect((await findRun(t.pool, job.campaignId))!.state).to.equal('completed');
  });

  it('when the notification lane holds the campaigns back (lane-priority.ts), then each group is read and published in a turn of its own, ended before the next begins', async () => {
    const events: string[] = [];
    let turns = 0;
    const rec = recorder(undefined, async () => {
      const n = ++turns;
      events.push(`turn ${n}`);
      return () => events.push(`end ${n} after ${rec.groups.length} groups`);
    });
    await rec.dispatch(dispatchMessage(siteId, ['all']), noop);
    expect(rec.groups.map((g) => g.length)).to.deep.equal([1, 2, 4, 3]);
    // The last group ends with a short chunk: no turn is taken after it.
    expect(events).to.deep.equal(['turn 1', 'end 1 after 1 groups', 'turn 2', 'end 2 after 2 groups', 'turn 3', 'end 3 after 3 groups', 'turn 4', 'end 4 after 4 groups']);
  });
});
