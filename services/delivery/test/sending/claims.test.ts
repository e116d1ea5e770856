// The delivery log's claim bookkeeping under faults (issue 11, defects 1 and 3), in-process
// against a real Postgres: the dispatch handler and the chunk worker as the service wires them,
// a pool that can fail chosen statements (a thrown error, or its connection terminated with
// pg_terminate_backend), and a fake push sender that counts pushes per subscriber and can leave some
// in flight forever (a kill). A chunk is handed to the worker again after a failure, as Kafka
// would, a bounded number of times. After each scenario: lost 0, each audience member has
// exactly one row and every row a final outcome, the run completes only then, counters equal
// rows, and repeats never exceed what the run counts as ambiguous.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Pool } from '@webpush/shared/db.js';
import { createLogger } from '@webpush/shared/log.js';
import type { ChunkMessage, DispatchMessage } from '@webpush/contracts/messages.js';
import { heartbeat } from '../../src/sending/instance-store.js';
import { trackingTokensFor } from '../../src/tracking/tracking-token.js';
import { createChunkWorker, type ChunkDeps } from '../../src/sending/chunk-worker.js';
import type { PushHooks, PushJob, PushResult } from '@webpush/push/types.js';
import type { VapidHeaderCache } from '@webpush/push/vapid.js';
import { createDispatchHandler } from '../../src/sending/dispatch.js';
import { createLanePriority } from '../../src/sending/lane-priority.js';
import { dispatchMessage, newSite, startTestDelivery, type TestDelivery } from '../support.js';
import { faultyPool, type FaultyPool } from './support/faulty-pool.js';

const N = 60;
const CHUNK = 30;
const SLICE = 20;
const log = createLogger('claims-test', 'error');
const noop = async () => {};

type Pusher = ChunkDeps['sender'];

/** The chunk worker signs nothing here: the fake sender never looks at the header. */
const noVapid = async (): Promise<VapidHeaderCache> => ({ headerFor: () => '', publicKey: '', signatures: 0 });

interface FakePusher extends Pusher {
  /** Requests made per subscriber id. */
  readonly pushed: Map<string, number>;
  /** Subscriber ids whose request never returns (in flight when the instance is killed). */
  hang: Set<string>;
  /** Subscriber ids answered as "accepted after a connection broke mid-request". */
  ambiguous: Set<string>;
  readonly hanging: number;
  /** Subscriber ids answered only once release() is called (a far push service). */
  hold: Set<string>;
  release(): void;
}

function fakePusher(): FakePusher {
  const pushed = new Map<string, number>();
  let hanging = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const p: FakePusher = {
    pushed,
    hang: new Set(),
    ambiguous: new Set(),
    get hanging() {
      return hanging;
    },
    hold: new Set(),
    release,
    async sendBatch(job: PushJob, hooks?: PushHooks) {
      return Promise.all(
        job.subscriptions.map(async (item): Promise<PushResult> => {
          if (hooks?.beforeSend && !(await hooks.beforeSend(item.id))) return { id: item.id, outcome: 'failed', reason: 'not sent', attempts: 0 };
          pushed.set(item.id, (pushed.get(item.id) ?? 0) + 1);
          if (p.hang.has(item.id)) {
            hanging += 1;
            return new Promise<PushResult>(() => {});
          }
          if (p.hold.has(item.id)) await released;
          await new Promise((r) => setImmediate(r));
          const result: PushResult = { id: item.id, outcome: 'sent', status: 201, attempts: 1 };
          if (p.ambiguous.has(item.id)) result.ambiguous = 1;
          hooks?.onResult?.(result);
          return result;
        }),
      );
    },
  };
  return p;
}

describe('sending: claims survive failed queries, failed outcome writes, redelivery and kills', function () {
  this.timeout(60_000);
  let t: TestDelivery;
  let siteId: string;
  let audience: string[];
  const tokens = () => trackingTokensFor({ current: t.config.vapidEncryptionKey, previous: [] });

  before(async () => {
    t = await startTestDelivery('claims');
    siteId = (await newSite(t)).siteId;
    const { rows } = await t.pool.query(
      `INSERT INTO delivery.subscribers (site_id, endpoint, p256dh, auth, country, topics)
       SELECT $1, 'https://push.example/' || g, 'key', 'auth', 'US', ARRAY['all'] FROM generate_series(1, $2) g
       RETURNING id::text`,
      [siteId, N],
    );
    audience = rows.map((r) => r.id as string);
  });
  after(async () => {
    await t?.stop();
  });

  /** A campaign to everyone, expanded into chunk messages (what Kafka would carry). */
  async function dispatched(): Promise<{ job: DispatchMessage; chunks: ChunkMessage[] }> {
    const chunks: ChunkMessage[] = [];
    const job = dispatchMessage(siteId, ['all']);
    const dispatch = createDispatchHandler(
      { pool: t.pool, log, publish: async (_topic, messages) => void chunks.push(...messages.map((m) => JSON.parse(m.value.toString()) as ChunkMessage)), publishStats: noop },
      { chunkSize: CHUNK, chunksPerGroup: 10 },
    );
    await dispatch(job, noop);
    return { job, chunks };
  }

  async function worker(pool: Pool, pusher: Pusher, opts: { instanceId?: string; retrySec?: number; waitForOthersMs?: number; deadAfterSec?: number; claimBatch?: number; turn?: ChunkDeps['turn'] } = {}) {
    const instanceId = opts.instanceId ?? randomUUID();
    await heartbeat(t.pool, instanceId);
    const handle = createChunkWorker(
      { pool, log, instanceId, sender: pusher, vapid: noVapid, tokens: tokens(), publishStats: noop, ...(opts.turn ? { turn: opts.turn } : {}) },
      { deadAfterSec: opts.deadAfterSec ?? 30, waitForOthersMs: opts.waitForOthersMs ?? 2000, claimBatch: opts.claimBatch ?? SLICE, retrySec: opts.retrySec ?? 5 },
    );
    return { instanceId, handle };
  }

  /** Hands each chunk to the worker until it finishes, as Kafka redelivers a failed one (bounded). */
  async function deliver(handle: (c: ChunkMessage, hb: () => Promise<void>) => Promise<void>, chunks: ChunkMessage[]): Promise<number> {
    let failures = 0;
    for (const c of chunks) {
      for (let attempt = 1; ; attempt++) {
        try {
          await handle(c, noop);
          break;
        } catch (err) {
          failures += 1;
          if (attempt >= 5) throw err;
        }
      }
    }
    return failures;
  }

  /** What the database and the push service say about one campaign. */
  async function audit(campaignId: string, pushers: FakePusher[]) {
    const rows = (await t.pool.query(`SELECT subscriber_id::text AS id, state, ambiguous FROM delivery.delivery_log WHERE campaign_id = $1`, [campaignId])).rows;
    const run = (await t.pool.query(`SELECT state, sent::int, failed::int, expired::int, ambiguous::int FROM delivery.campaign_runs WHERE campaign_id = $1`, [campaignId])).rows[0];
    const pushes = new Map<string, number>();
    for (const p of pushers) for (const [id, n] of p.pushed) pushes.set(id, (pushes.get(id) ?? 0) + n);
    const lost = audience.filter((id) => !pushes.has(id)).length;
    const duplicated = [...pushes.values()].reduce((a, n) => a + n - 1, 0);
    const count = (state: string) => rows.filter((r) => r.state === state).length;
    return {
      lost,
      duplicated,
      run,
      rows: rows.length,
      distinctRows: new Set(rows.map((r) => r.id)).size,
      unfinished: rows.filter((r) => r.state === 'claimed' || r.state === 'sending').length,
      rowCounts: { sent: count('sent'), failed: count('failed'), expired: count('expired'), ambiguous: rows.reduce((a, r) => a + Number(r.ambiguous ?? 0), 0) },
    };
  }

  function expectWhole(a: Awaited<ReturnType<typeof audit>>) {
    const figures = `lost ${a.lost}, duplicated ${a.duplicated}, ambiguous ${a.run.ambiguous}, unfinished rows ${a.unfinished}, run ${a.run.state} (sent ${a.run.sent})`;
    console.log(`      ${figures}`);
    expect(a.lost, figures).to.equal(0);
    expect(a.rows, 'one row per audience member').to.equal(N);
    expect(a.distinctRows).to.equal(N);
    expect(a.unfinished, figures).to.equal(0);
    expect(a.run.state).to.equal('completed');
    expect({ sent: a.run.sent, failed: a.run.failed, expired: a.run.expired, ambiguous: a.run.ambiguous }, 'counters equal rows').to.deep.equal(a.rowCounts);
    expect(a.duplicated, figures).to.be.at.most(a.run.ambiguous);
  }

  it('when the subscriptions read fails right after the claim, then the retried chunk sends its own claimed rows: nothing lost', async () => {
    const db: FaultyPool = faultyPool(t.pool);
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    db.fail(/FROM delivery\.subscribers s WHERE s\.id = ANY/, { times: 1, how: 'throw' });
    const w = await worker(db.pool, pusher, { retrySec: 0 });
    await deliver(w.handle, chunks);
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
    expect(a.duplicated).to.equal(0);
    expect(db.injected).to.equal(1);
  });

  /** Postgres terminates the connection of the statement matching `statement` twice: the work is done again, whole, nothing repeated. */
  async function survivesTwoTerminations(statement: RegExp) {
    const db = faultyPool(t.pool);
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    db.fail(statement, { times: 2, how: 'terminate' });
    const w = await worker(db.pool, pusher);
    await deliver(w.handle, chunks);
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
    expect(a.duplicated).to.equal(0);
    expect(db.injected).to.equal(2);
  }

  it('when the connection is terminated (pg_terminate_backend) between claim and send, then every subscriber is pushed once', () =>
    survivesTwoTerminations(/FROM delivery\.subscribers s WHERE s\.id = ANY/));

  it('when an outcome write loses its connection (terminated by Postgres), then it is written again: every row final, counters equal rows, nothing repeated', () =>
    survivesTwoTerminations(/finished_at = now\(\)/));

  it('when outcome writes fail for longer than the retry budget, then the same instance resends the unrecorded pushes on redelivery, counted as ambiguous', async () => {
    const db = faultyPool(t.pool);
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    // More failures than the budget allows in one pass: the chunk is handed back.
    db.fail(/finished_at = now\(\)/, { times: 3, how: 'throw' });
    const w = await worker(db.pool, pusher, { retrySec: 0 });
    const failures = await deliver(w.handle, chunks);
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
    expect(failures).to.be.greaterThan(0);
    expect(a.duplicated).to.be.greaterThan(0);
  });

  it('when every statement fails once (Postgres restarting), then the campaign still completes whole', async () => {
    const db = faultyPool(t.pool);
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    for (const re of [/INSERT INTO delivery\.delivery_log/, /FROM delivery\.subscribers s WHERE s\.id = ANY/, /SET state = 'sending'/, /finished_at = now\(\)/, /INSERT INTO delivery\.campaign_chunks/]) {
      db.fail(re, { times: 1, how: 'terminate' });
    }
    const w = await worker(db.pool, pusher);
    await deliver(w.handle, chunks);
    expectWhole(await audit(job.campaignId, [pusher]));
  });

  it('when an instance is killed with pushes in flight, then only those are ambiguous and sent again; what it finished is not repeated', async () => {
    const pusherA = fakePusher();
    const pusherB = fakePusher();
    const { job, chunks } = await dispatched();
    const inFlight = audience.slice(3, 8);
    pusherA.hang = new Set(inFlight);
    const a = await worker(t.pool, pusherA);
    // Instance A works on the first chunk and never finishes it (5 requests never return).
    void a.handle(chunks[0], noop).catch(() => {});
    for (let i = 0; i < 200 && !(pusherA.hanging === inFlight.length && (await finalRows(job.campaignId)) >= SLICE - inFlight.length); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    // A dies: its heartbeat stops. B gets the chunks (Kafka hands A's partitions over).
    await t.pool.query(`UPDATE delivery.instances SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [a.instanceId]);
    const b = await worker(t.pool, pusherB, { deadAfterSec: 5 });
    await deliver(b.handle, chunks);
    const result = await audit(job.campaignId, [pusherA, pusherB]);
    expectWhole(result);
    expect(result.run.ambiguous, 'only the pushes in flight at the kill are ambiguous').to.equal(inFlight.length);
    expect(result.duplicated).to.equal(inFlight.length);
    expect([...pusherB.pushed.keys()].filter((id) => audience.indexOf(id) < SLICE).sort()).to.deep.equal([...inFlight].sort());
  });

  it('when rows are held by another live instance, then the chunk is not done and the run does not complete', async () => {
    const pusherA = fakePusher();
    const pusherB = fakePusher();
    const { job, chunks } = await dispatched();
    pusherA.hang = new Set([audience[0]]);
    const a = await worker(t.pool, pusherA);
    void a.handle(chunks[0], noop).catch(() => {});
    for (let i = 0; i < 200 && pusherA.hanging === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const b = await worker(t.pool, pusherB, { waitForOthersMs: 200 });
    let error: unknown;
    await b.handle(chunks[0], noop).catch((err) => (error = err));
    expect(String(error)).to.match(/1 pushes of chunk \d+ of campaign [-0-9a-f]+ are still held: 1 by another instance$/);
    for (const c of chunks.slice(1)) await b.handle(c, noop);
    const run = (await t.pool.query(`SELECT state FROM delivery.campaign_runs WHERE campaign_id = $1`, [job.campaignId])).rows[0];
    expect(run.state).to.equal('sending');
    expect(pusherB.pushed.has(audience[0])).to.equal(false);
  });

  it('when rows are held by another attempt of the same instance (the chunk redelivered while it runs), then the message says so, not "another instance"', async () => {
    const pusher = fakePusher();
    const { chunks } = await dispatched();
    pusher.hang = new Set([audience[0]]);
    const w = await worker(t.pool, pusher, { waitForOthersMs: 200 });
    void w.handle(chunks[0], noop).catch(() => {});
    for (let i = 0; i < 200 && pusher.hanging === 0; i++) await new Promise((r) => setTimeout(r, 10));
    let error: unknown;
    await w.handle(chunks[0], noop).catch((err) => (error = err));
    expect(String(error)).to.include(`are still held: 1 by another attempt of this instance (${w.instanceId})`).and.not.include('another instance');
  });

  it('when a batch waits for its answers, then the chunk claims and sends its next batch meanwhile, and a third waits for the first', async () => {
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    const batch = 10; // three batches in each chunk of 30
    const [first, second, third] = [0, 1, 2].map((b) => chunks[0].subscriberIds.slice(b * batch, (b + 1) * batch));
    pusher.hold = new Set(first);
    const w = await worker(t.pool, pusher, { claimBatch: batch });
    const handled = w.handle(chunks[0], noop);
    const pushedAll = (ids: string[]) => ids.every((id) => pusher.pushed.has(id));
    for (let i = 0; i < 300 && !(pushedAll(first) && pushedAll(second)); i++) await new Promise((r) => setTimeout(r, 10));
    expect(pushedAll(first), 'the first batch went out').to.equal(true);
    expect(pushedAll(second), 'the second batch went out while the first waited for its answers').to.equal(true);
    // Time for a third batch to go out, were it allowed to.
    await new Promise((r) => setTimeout(r, 200));
    expect(third.filter((id) => pusher.pushed.has(id)), 'no third batch while the first is unanswered').to.deep.equal([]);
    expect(await finalRows(job.campaignId), 'the second batch is recorded while the first waits').to.equal(batch);
    pusher.release();
    await handled;
    await deliver(w.handle, chunks.slice(1));
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
    expect(a.duplicated).to.equal(0);
  });

  it('when the notification lane has work, then a campaign chunk sends one batch at a time; once the lane is idle, the next goes while the first waits for its answers', async () => {
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    const batch = 10;
    const [first, second] = [0, 1].map((b) => chunks[0].subscriberIds.slice(b * batch, (b + 1) * batch));
    pusher.hold = new Set(first);
    const priority = createLanePriority({ whileBusy: 1, holdMs: 0 });
    let laneDone!: () => void;
    const lane = priority.lane(() => new Promise<void>((r) => (laneDone = r)));
    const w = await worker(t.pool, pusher, { claimBatch: batch, turn: priority.campaignTurn });
    const handled = w.handle(chunks[0], noop);
    const pushedAll = (ids: string[]) => ids.every((id) => pusher.pushed.has(id));
    for (let i = 0; i < 300 && !pushedAll(first); i++) await new Promise((r) => setTimeout(r, 10));
    expect(pushedAll(first), 'the first batch went out').to.equal(true);
    // Time for a second batch to go out, were it allowed to.
    await new Promise((r) => setTimeout(r, 200));
    expect(second.filter((id) => pusher.pushed.has(id)), 'no second batch beside the busy lane while the first is unanswered').to.deep.equal([]);
    laneDone();
    await lane;
    for (let i = 0; i < 300 && !pushedAll(second); i++) await new Promise((r) => setTimeout(r, 10));
    expect(pushedAll(second), 'the second batch went out once the lane was idle, the first still unanswered').to.equal(true);
    expect(first.filter((id) => pusher.pushed.get(id) !== 1), 'the first batch pushed once').to.deep.equal([]);
    pusher.release();
    await handled;
    await deliver(w.handle, chunks.slice(1));
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
    expect(a.duplicated).to.equal(0);
  });

  it('when a batch fails while the next is in flight, then the chunk waits for that one before it hands the chunk back, and a redelivery finishes it once', async () => {
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    const batch = 10;
    const second = chunks[0].subscriberIds.slice(batch, 2 * batch);
    pusher.hold = new Set(second);
    // The first outcome write fails, and is not retried (no retry budget): the first batch fails.
    const db: FaultyPool = faultyPool(t.pool);
    db.fail(/WITH same AS/, { times: 1, how: 'throw' });
    const w = await worker(db.pool, pusher, { claimBatch: batch, retrySec: 0 });
    let settled = false;
    const handled = w.handle(chunks[0], noop).finally(() => (settled = true));
    for (let i = 0; i < 300 && !second.every((id) => pusher.pushed.has(id)); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 200));
    expect(db.injected, 'the first batch failed meanwhile').to.equal(1);
    expect(settled, 'not handed back while the second batch is in flight').to.equal(false);
    pusher.release();
    let error: unknown;
    await handled.catch((err) => (error = err));
    expect(String(error)).to.match(/injected fault/);
    await deliver(w.handle, chunks);
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
  });

  it('when a push was accepted only after a connection broke mid-request, then it counts as ambiguous', async () => {
    const pusher = fakePusher();
    const { job, chunks } = await dispatched();
    pusher.ambiguous = new Set(audience.slice(0, 3));
    const w = await worker(t.pool, pusher);
    await deliver(w.handle, chunks);
    const a = await audit(job.campaignId, [pusher]);
    expectWhole(a);
    expect(a.run.ambiguous).to.equal(3);
    expect(a.run.sent).to.equal(N);
  });

  async function finalRows(campaignId: string): Promise<number> {
    const { rows } = await t.pool.query(`SELECT count(*)::int AS n FROM delivery.delivery_log WHERE campaign_id = $1 AND state NOT IN ('claimed', 'sending')`, [campaignId]);
    return rows[0].n;
  }
});
