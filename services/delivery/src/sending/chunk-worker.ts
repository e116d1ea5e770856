// Sends one chunk of a campaign: claim (campaign, subscription) rows in the delivery log, push
// to the claimed ones, record outcomes — batched, never one statement per push.
//
// Every attempt at a chunk claims under a lease of its own (leases.ts). A row goes 'claimed' →
// 'sending' (marked, group-committed, right before its first request) → final (recorded,
// group-committed, as each result arrives). A chunk delivered again (a failed query, restart,
// rebalance) takes over every row not final whose lease is not live — the same instance's from
// a failed attempt included — so nothing claimed is ever skipped: 'claimed' rows were never
// sent and are simply sent; 'sending' rows may have been (maybe sent, result unknown), so they
// are sent again and counted ambiguous, since losing them is worse (the Topic header makes a
// repeat replace the first on the device). The chunk is done — and the Kafka offset committed —
// only when every row of it is final; outcome writes are retried through a Postgres restart.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import type { ChunkMessage } from '@webpush/contracts/messages.js';
import type { ClickUrl } from '@webpush/contracts/campaign-content.js';
import { campaignTopic } from '@webpush/contracts/push-topic.js';
import { batchPayloads, revisionBatchPayloads } from './payloads.js';
import { DEFAULT_URGENCY } from '@webpush/contracts/urgency.js';
import { contentsFor, variantFor } from './run-content.js';
import { claim, claimCapped, frequencyCapOf, markSending, recordOutcomes, subscriptions, unfinishedHolders, unfinishedRows, type Claimant, type Outcome } from './delivery-log-store.js';
import { chunkDone, findRun, type RunRow } from './run-store.js';
import { startTestWindow } from '../ab-tests/index.js';
import { failureClassOf } from '@webpush/push/outcome.js';
import { groupCommit } from './group-commit.js';
import { createLeases, type Leases } from './leases.js';
import { retrying, type RetryPolicy } from './retrying.js';
import { createSendPace, STALL_MS, waitForSlot } from './send-pace.js';
import type { PushSender } from '@webpush/push/sender.js';
import type { PushHooks, PushResult, PushTarget } from '@webpush/push/types.js';
import type { VapidSigners } from '../sites/index.js';

export interface ChunkDeps {
  pool: Pool;
  log: Logger;
  instanceId: string;
  /** The push path (packages/push/src/sender.ts); a push withheld by its beforeSend leaves its row claimed. limitFor: undefined before an origin's first push (a throttled campaign's pace waits for its connection). */
  sender: Pick<PushSender, 'sendBatch'> & Partial<Pick<PushSender, 'limitFor'>>;
  /** Each site's VAPID signer (sites/vapid-signers.ts). */
  vapid: VapidSigners;
  /**
   * Signs the tracking tokens of a batch's pushes, one per subscriber in order. Tracking owns the
   * tokens (tracking/tracking-token.ts, given here by app.ts); sending, a layer below, only asks.
   */
  tokens: { signAll(campaignId: string, subscriberIds: readonly string[]): string[] };
  /** The click-tracking redirect of a token (tracking/click-url.ts); undefined without PUBLIC_URL: no declarative pushes (payloads.ts). */
  clickUrl?: ClickUrl;
  publishStats(run: RunRow): Promise<void>;
  /** This instance's live attempts; the instance's heartbeat must call its beat(). Default: a registry of the worker's own. */
  leases?: Leases;
  /** Aborted when the service stops: delivery-log writes are no longer retried. */
  stopping?: AbortSignal;
  /**
   * The notification lane's worker (docs/architecture.md, "A notification"): its pushes are
   * encrypted ahead of campaigns' (PushJob.urgent). Its `pool` is the lane's own.
   */
  urgent?: boolean;
  /**
   * A campaign's worker: each claim batch waits for its turn (lane-priority.ts campaignTurn),
   * which the notification lane holds back while it has work; the batch ends its turn once its
   * outcomes are recorded.
   */
  turn?: () => Promise<() => void>;
}

export interface ChunkOptions {
  /** An instance silent this long is dead; its claims can be taken over. */
  deadAfterSec: number;
  /** How long to wait for rows another live instance holds before handing the chunk back. */
  waitForOthersMs: number;
  /** Pushes claimed and handed to the sender together. */
  claimBatch: number;
  /** How long a delivery-log write is retried while Postgres is unreachable (DELIVERY_LOG_RETRY_SEC). Default 120. */
  retrySec?: number;
}

export class ChunkNotFinished extends Error {}

/** How often Kafka hears from a handler that waits on slow pushes (time-budget retries). */
const KAFKA_HEARTBEAT_MS = 3000;
// Group-commit lingers: a mark delays its push by at most this (plus one write); a result waits
// this long in memory at most before its write starts — what a kill in that moment repeats.
const MARK_LINGER_MS = 5;
const OUTCOME_LINGER_MS = 20;
/**
 * Claim batches of one chunk with pushes in flight at once: an instance holds at most
 * CHUNK_CONCURRENCY × this × CLAIM_BATCH_SIZE pushes between claim and outcome (6,000 at the
 * defaults). With one, a 150 ms push service got 75–80 % of the zero-latency throughput on a
 * machine that pushes 12,000–15,000 a second (docs/history/performance-log.md).
 */
const BATCHES_IN_FLIGHT = 2;
/**
 * A throttled batch reaches the sender in groups of the pushes due within this much of each
 * other, this long before the first one's slot (HANDOVER_MS): each is encrypted and marked by
 * its slot, and a push holds its origin's concurrency slot only that long before its request.
 */
const GROUP_MS = 25;
const HANDOVER_MS = 100;
/** New slots a throttled push takes after missing its slot, before it goes without one. */
const RESLOTS = 3;
/** How long throttled pushes to an origin this process has not pushed to wait for the first one's answer (its connection). */
const CONNECTING_MS = 3000;

/** Reads of a run while a rest chunk waits for its winner to be visible: 100 ms more each, 4.5 s in all. */
const WINNER_READS = 9;

export function createChunkWorker(deps: ChunkDeps, opts: ChunkOptions) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const leases = deps.leases ?? createLeases(deps.pool, deps.instanceId);
  const retry: RetryPolicy = { budgetMs: (opts.retrySec ?? 120) * 1000, signal: deps.stopping, log: deps.log };
  const sendPace = createSendPace(deps.pool);
  /**
   * Origins whose first push of this process is on its way: the connection (TLS, SETTINGS) opens
   * with it, and throttled pushes released meanwhile would leave together once it is open — a
   * burst after every start. They wait for its answer, then go if still in time, else take new slots.
   */
  const connecting = new Map<string, { opener: string; open: Promise<void> }>();

  /**
   * Sends claimed rows and records their outcomes. `done` resolves when every one is recorded;
   * `gone` earlier, once every push has gone out (its request started, or it ended without one):
   * from then on the batch only waits for answers, and its chunk may claim the next one.
   */
  const sendClaimed = (run: RunRow, ids: string[], lease: string): { gone: Promise<void>; done: Promise<void> } => {
    let allGone!: () => void;
    const gone = new Promise<void>((resolve) => (allGone = resolve));
    const out = new Set<string>();
    const goneOut = (id: string) => {
      out.add(id);
      if (out.size === ids.length) allGone();
    };
    const done = sendAndRecord(run, ids, lease, goneOut);
    void done.finally(allGone).catch(() => {});
    return { gone, done };
  };

  /**
   * Reads the batch's subscriptions, makes each one's payload and hands them to the sender; a
   * subscription deleted since its claim has nothing to send to and is final at once. Returns
   * the sender's promise without awaiting it: this frame holds the targets (keys, plaintexts,
   * tokens), and must be gone while the answers are awaited (a throttled batch's are held until
   * its last group is handed over, a fraction of a second's worth of pushes).
   */
  const loadAndSend = async (run: RunRow, ids: string[], hooks: Required<PushHooks>): Promise<PushResult[]> => {
    const { job } = run;
    const campaignId = job.campaignId;
    const read = await retrying('subscriptions', retry, () => subscriptions(deps.pool, ids));
    const found = new Set(read.map((s) => s.id));
    for (const id of ids) if (!found.has(id)) hooks.onResult({ id, outcome: 'failed', reason: 'subscription no longer exists', attempts: 0 });
    const contentOf = read.length === 0 ? () => undefined : await retrying('contents', retry, () => contentsFor(deps.pool, run, ids));
    // Only a notification made from a template can have a subscriber without content (none is
    // expected: a row whose rendering failed is never expanded); it is failed, never sent another's.
    const subs: typeof read = [];
    for (const s of read) {
      if (contentOf(s.id) !== undefined) subs.push(s);
      else hooks.onResult({ id: s.id, outcome: 'failed', reason: 'no content was rendered for this subscription', attempts: 0 });
    }
    if (subs.length === 0) return [];
    // Per batch, not per push: the tokens are signed together, and each content's JSON is made
    // once (payloads.ts), with the batch's moment as the notification's time (unless the campaign sets one).
    // A revision's pushes are its campaign's notification: its id (the tag), its Topic (a copy
    // still queued at the push service is replaced) and its tracking tokens (counted once).
    const notified = job.revision?.campaignId ?? campaignId;
    const tokens = deps.tokens.signAll(notified, subs.map((s) => s.id));
    const payloadOf = job.revision ? revisionBatchPayloads(job.revision, Date.now()) : batchPayloads(campaignId, Date.now(), deps.clickUrl);
    const items: PushTarget[] = subs.map(({ declarative, ...s }, i) => ({ ...s, payload: payloadOf(contentOf(s.id)!, declarative, tokens[i]) }));
    const vapid = await deps.vapid(job.siteId);
    const urgency = job.urgency ?? DEFAULT_URGENCY;
    const send = (subscriptions: PushTarget[], withHooks: Required<PushHooks>) =>
      deps.sender.sendBatch({ payload: '', ttl: job.ttl, urgency, topic: campaignTopic(notified), vapid, subscriptions, ...(deps.urgent ? { urgent: true } : {}) }, withHooks);
    return job.throttlePerMinute === undefined ? send(items, hooks) : sendPaced(campaignId, job.throttlePerMinute, items, send, hooks);
  };

  /**
   * A throttled batch: its slots reserved on the campaign's clock (send-pace.ts), its pushes
   * handed to the sender a group at a time shortly before their slots, each request started at
   * its slot — after its mark, so what is marked `sending` goes out at most HANDOVER_MS later.
   */
  const sendPaced = async (
    campaignId: string,
    perMinute: number,
    items: PushTarget[],
    send: (subscriptions: PushTarget[], hooks: Required<PushHooks>) => Promise<PushResult[]>,
    hooks: Required<PushHooks>,
  ): Promise<PushResult[]> => {
    const spacingMs = 60_000 / perMinute;
    const reserve = (count: number) => retrying('send pace', retry, () => sendPace.reserve(campaignId, count, spacingMs));
    const start = await reserve(items.length);
    const slotOf = new Map(items.map((item, i) => [item.id, start + i * spacingMs]));
    // Pushes that missed their slots together (a stall) take new ones together.
    const reslots = groupCommit(async (ids: string[]) => {
      const first = await reserve(ids.length);
      return new Map(ids.map((id, i) => [id, first + i * spacingMs]));
    });
    const originOf = new Map<string, string>();
    const opened = new Map<string, () => void>();
    for (const item of items) {
      const origin = URL.parse(item.endpoint)?.origin ?? '';
      originOf.set(item.id, origin);
      if (deps.sender.limitFor && deps.sender.limitFor(origin) === undefined && !connecting.has(origin)) {
        let open!: () => void;
        const opening = { opener: item.id, open: new Promise<void>((r) => (open = r)) };
        connecting.set(origin, opening);
        const timer = setTimeout(open, CONNECTING_MS);
        void opening.open.then(() => (clearTimeout(timer), connecting.delete(origin)));
        opened.set(item.id, open);
      }
    }
    const inTime = async (id: string, slot: number) => {
      if (!(await waitForSlot(slot))) return false;
      const opening = connecting.get(originOf.get(id)!);
      if (!opening || opening.opener === id) return true;
      await opening.open;
      return performance.now() - slot <= STALL_MS;
    };
    const paced: Required<PushHooks> = {
      onResult: (result) => {
        opened.get(result.id)?.();
        hooks.onResult(result);
      },
      beforeSend: async (id) => {
        if (!(await hooks.beforeSend(id))) return false;
        let slot = slotOf.get(id)!;
        for (let n = 0; !(await inTime(id, slot)) && n < RESLOTS; n++) slot = (await reslots.add(id)).get(id)!;
        return true;
      },
    };
    const sent: Promise<PromiseSettledResult<PushResult[]>>[] = [];
    for (let from = 0; from < items.length; ) {
      const first = start + from * spacingMs;
      let to = from + 1;
      while (to < items.length && start + to * spacingMs < first + GROUP_MS) to++;
      const wait = first - HANDOVER_MS - performance.now();
      if (wait > 0) await sleep(wait);
      // Settled, not raced: a group that fails must not end the attempt while others are in flight.
      sent.push(send(items.slice(from, to), paced).then((value) => ({ status: 'fulfilled', value }), (reason: unknown) => ({ status: 'rejected', reason })));
      from = to;
    }
    const settled = await Promise.all(sent);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  };

  const sendAndRecord = async (run: RunRow, ids: string[], lease: string, goneOut: (id: string) => void) => {
    const campaignId = run.job.campaignId;
    const marks = groupCommit((batch: string[]) => retrying('sending marks', retry, () => markSending(deps.pool, campaignId, lease, batch)), {
      lingerMs: MARK_LINGER_MS,
    });
    const outcomes = groupCommit(
      (batch: Outcome[]) => retrying('outcomes', retry, () => recordOutcomes(deps.pool, campaignId, lease, batch)),
      { lingerMs: OUTCOME_LINGER_MS },
    );
    const withheld = new Set<string>();
    /** A push whose mark was not written (or whose row is no longer this attempt's) is not sent. */
    const withhold = (id: string) => {
      withheld.add(id);
      return false;
    };
    const recorded = new Set<string>();
    const record = (r: PushResult) => {
      goneOut(r.id);
      if (withheld.has(r.id) || recorded.has(r.id)) return;
      recorded.add(r.id);
      void outcomes.add({
        subscriberId: r.id,
        outcome: r.outcome,
        status: r.status ?? null,
        reason: r.reason ?? null,
        failureClass: failureClassOf(r),
        ambiguous: r.ambiguous ?? 0,
      });
    };
    try {
      const results = await loadAndSend(run, ids, {
        beforeSend: (id) => marks.add(id).then((set) => (goneOut(id), set.has(id) || withhold(id)), () => (goneOut(id), withhold(id))),
        onResult: record,
      });
      for (const r of results) record(r);
    } finally {
      // What did arrive is recorded even when the sender failed as a whole.
      await outcomes.drain().catch(() => {});
    }
    // The sender counts the pushes (metrics) and logs the failed ones, aggregated per origin and class (packages/push/src/failure-log.ts).
    await outcomes.drain();
    // Unsent because the mark could not be written (or the row was taken over): the next attempt resumes them.
    await marks.drain();
    if (withheld.size > 0) throw new ChunkNotFinished(`${withheld.size} pushes of campaign ${campaignId} were not sent: their rows are no longer this attempt's`);
  };

  /** Says who holds the rows an attempt waited for: this instance's other attempt, or others. */
  const heldBy = async (chunk: ChunkMessage, count: number): Promise<string> => {
    const holders = await unfinishedHolders(deps.pool, chunk.campaignId, chunk.subscriberIds, deps.instanceId).catch(() => undefined);
    const who = !holders
      ? 'held by another attempt'
      : [holders.thisInstance > 0 && `${holders.thisInstance} by another attempt of this instance (${deps.instanceId})`, holders.others > 0 && `${holders.others} by another instance`].filter(Boolean).join(', ') || 'finished meanwhile';
    return `${count} pushes of chunk ${chunk.chunkNo} of campaign ${chunk.campaignId} are still held: ${who}`;
  };

  /**
   * The run as a chunk needs it. A rest chunk of an A/B test is published in the transaction that
   * chooses the winner, so it can arrive a moment before the winner is visible: an expected wait,
   * read again for a few seconds; a rest chunk with no winner after that is out of its time.
   */
  const runForChunk = async (chunk: ChunkMessage): Promise<RunRow | null> => {
    for (let read = 0; ; read++) {
      const run = await findRun(deps.pool, chunk.campaignId);
      const waitsForWinner = run?.job.abTest && !run.abWinner && chunk.subscriberIds.some((id) => variantFor(run, id) === undefined);
      if (!waitsForWinner) return run;
      if (read === WINNER_READS) {
        throw new ChunkNotFinished(`chunk ${chunk.chunkNo} of campaign ${chunk.campaignId} holds the rest of an A/B test whose winner is not chosen yet`);
      }
      await sleep(100 * (read + 1));
    }
  };

  const handleChunk = async (chunk: ChunkMessage, heartbeat: () => Promise<void>, lease: string): Promise<void> => {
    const run = await runForChunk(chunk);
    if (!run) {
      deps.log.warn('chunk of an unknown campaign run ignored', { campaignId: chunk.campaignId, chunkNo: chunk.chunkNo });
      return;
    }
    if (run.state === 'failed' || run.state === 'completed') return;
    // An A/B test's window starts at its first push (a chunk before it is a test chunk).
    let windowToStart = run.job.abTest !== undefined && !run.abWindowStarted;
    // Read per chunk: a cap the operator sets or lifts applies from the next chunk on.
    const cap = await retrying('frequency cap', retry, () => frequencyCapOf(deps.pool, run.siteId));
    // A revision replaces a notification, it adds none: the cap neither holds it back nor counts it.
    const claimSlice = (slice: string[], claimant: Claimant) =>
      cap === null || run.job.revision
        ? claim(deps.pool, chunk.campaignId, slice, claimant, opts.deadAfterSec)
        : claimCapped(deps.pool, chunk.campaignId, slice, claimant, opts.deadAfterSec, cap, run.job.ignoreFrequencyCap !== true);
    const until = Date.now() + opts.waitForOthersMs;
    for (let pass = 0; ; pass++) {
      // A batch whose pushes have all gone out waits only for answers: the next is claimed and
      // sent meanwhile, at most BATCHES_IN_FLIGHT of them, so a far push service's latency is
      // spent with twice the pushes in flight (and a near one's answers no longer hold the
      // claims back). Every batch is settled before the pass ends, also when one fails: the
      // attempt's lease must outlive its pushes.
      const sending: Promise<unknown>[] = [];
      const failed: unknown[] = [];
      try {
        for (let at = 0; at < chunk.subscriberIds.length; at += opts.claimBatch) {
          const slice = chunk.subscriberIds.slice(at, at + opts.claimBatch);
          if (sending.length >= BATCHES_IN_FLIGHT) await sending.shift();
          if (failed.length > 0) break;
          const endTurn = deps.turn ? await deps.turn() : () => {};
          const claimant = { instanceId: deps.instanceId, lease, liveLeases: leases.live() };
          const claimed = await retrying('claim', retry, () => claimSlice(slice, claimant)).catch((err: unknown) => {
            endTurn();
            throw err;
          });
          const { ids, ambiguous } = claimed;
          if (ambiguous > 0) deps.log.warn('resending pushes that were in flight when their attempt ended', { campaignId: chunk.campaignId, count: ambiguous });
          if (ids.length > 0) {
            const batch = sendClaimed(run, ids, lease);
            sending.push(batch.done.catch((err: unknown) => void failed.push(err)).finally(endTurn));
            await batch.gone;
          } else endTurn();
          if (windowToStart) {
            await retrying('test window', retry, () => startTestWindow(deps.pool, chunk.campaignId, run.job.abTest!.windowMinutes));
            windowToStart = false;
          }
          await heartbeat();
        }
      } finally {
        await Promise.all(sending);
      }
      if (failed.length > 0) throw failed[0];
      const others = await retrying('unfinished rows', retry, () => unfinishedRows(deps.pool, chunk.campaignId, chunk.subscriberIds));
      if (others === 0) break;
      if (Date.now() > until) throw new ChunkNotFinished(await heldBy(chunk, others));
      await sleep(Math.min(1000, 100 * (pass + 1)));
    }
    const after = await retrying('chunk done', retry, () =>
      withTransaction(deps.pool, (tx) => chunkDone(tx, chunk.campaignId, chunk.chunkNo, chunk.subscriberIds)),
    );
    if (!after) throw new ChunkNotFinished(`chunk ${chunk.chunkNo} of campaign ${chunk.campaignId} has rows without an outcome`);
    await deps.publishStats(after);
  };

  return async function handleChunkAttempt(chunk: ChunkMessage, heartbeat: () => Promise<void>): Promise<void> {
    const lease = await leases.begin(deps.pool);
    // Pushes retried for minutes must not cost the Kafka session; a failed heartbeat here is
    // left to the consumer (it rejoins after this handler).
    const keepAlive = setInterval(() => void heartbeat().catch(() => {}), KAFKA_HEARTBEAT_MS);
    keepAlive.unref();
    try {
      await handleChunk(chunk, heartbeat, lease);
    } finally {
      clearInterval(keepAlive);
      leases.end(lease);
    }
  };
}
