// A consumer's messages handled as they arrive, each on its own, with offsets committed in
// order behind them (kafka.ts ConsumeOptions.pipelined; the notification lane's consumers).
//
// kafkajs fetches from a broker, hands the partitions' batches to its workers and fetches again
// only when every batch of that fetch has been handled (its fetcher.js): one slow message holds
// back every partition of the consumer. For a campaign's chunks that is the point (a fetch is
// large, the work is long, memory is bounded by it); for notifications it made each one wait for
// the slowest of the fetch before it — seconds, at 50 a second beside a sending campaign
// (docs/performance.md, "Notifications beside a campaign"). Here a message is taken as soon as a
// slot is free, its offset resolved at once (the next fetch starts after it) and committed only
// when it and every message before it in its partition are handled: a crash redelivers what was
// not, and handlers are idempotent, as with the batch consumers. Messages of one key run one
// after another: a job published twice (the campaign service's relay republishes a row whose
// commit failed after Kafka took it) is handled again only once the first copy is done, and
// finds the work done — two copies at once each counted a notification's one chunk, and its run
// waited for a second that never existed.
import type { Logger } from './log.js';

export interface PipelineOptions {
  /** Handlers running at once. */
  maxInFlight: number;
  /**
   * Messages taken and not yet committed, running or done behind one still running: a message
   * stuck at the head of its partition (retrying through an outage) stops the intake here rather
   * than holding ever more done ones in memory.
   */
  maxPending: number;
  /** A failed handler is run again after this, doubling up to `retryMaxMs`, while the consumer runs. */
  retryFirstMs: number;
  retryMaxMs: number;
}

export const DEFAULT_PIPELINE: PipelineOptions = Object.freeze({ maxInFlight: 64, maxPending: 512, retryFirstMs: 500, retryMaxMs: 30_000 });

export interface PipelineDeps {
  log: Logger;
  /** What the consumer is: in its log lines. */
  name: string;
  /** Commits `nextOffset` (the offset after the last handled one) of `partition`. */
  commit(partition: number, nextOffset: string): Promise<void>;
  /** False once the consumer stops: failed handlers are not run again (their messages are redelivered after a restart). */
  running(): boolean;
}

interface Entry {
  offset: bigint;
  done: boolean;
}

interface PartitionState {
  /** Taken and not committed yet, in offset order. */
  entries: Entry[];
  /** The next offset committed (or being committed), as a number to compare. */
  committed: bigint;
  committing: Promise<void>;
}

export function createPipeline(deps: PipelineDeps, opts: PipelineOptions = DEFAULT_PIPELINE) {
  const partitions = new Map<number, PartitionState>();
  let running = 0;
  let pending = 0;
  const waiting: (() => void)[] = [];
  const settled = new Set<Promise<void>>();
  /** The last message taken of each key still running (or waiting for the one before it). */
  const lastOfKey = new Map<string, Promise<void>>();

  const hasRoom = () => running < opts.maxInFlight && pending < opts.maxPending;
  const wake = () => {
    while (waiting.length > 0 && hasRoom()) waiting.shift()!();
  };
  const stateOf = (partition: number) => {
    let s = partitions.get(partition);
    if (!s) partitions.set(partition, (s = { entries: [], committed: -1n, committing: Promise.resolve() }));
    return s;
  };

  /** Commits past the done messages at the head of the partition, never backwards. */
  const advance = (partition: number, s: PartitionState) => {
    let next: bigint | undefined;
    while (s.entries.length > 0 && s.entries[0].done) {
      next = s.entries.shift()!.offset + 1n;
      pending--;
    }
    wake();
    if (next === undefined || next <= s.committed) return;
    s.committed = next;
    const offset = next.toString();
    // One commit at a time per partition, in order; a failed one (a rebalance took the
    // partition) is left: the next owner starts from the last commit that held, and redoes.
    s.committing = s.committing.then(() =>
      deps.commit(partition, offset).catch((err: unknown) => deps.log.warn('offset commit failed; the messages after the last commit will be handled again', { consumer: deps.name, partition, offset, err })),
    );
  };

  const runHandler = async (handle: () => Promise<void>, where: { partition: number; offset: string }): Promise<boolean> => {
    for (let wait = opts.retryFirstMs; ; wait = Math.min(wait * 2, opts.retryMaxMs)) {
      try {
        await handle();
        return true;
      } catch (err) {
        if (!deps.running()) return false;
        deps.log.warn('message handler failed; retrying', { consumer: deps.name, ...where, retryInMs: wait, err });
        await new Promise((r) => setTimeout(r, wait));
        if (!deps.running()) return false;
      }
    }
  };

  return {
    /**
     * Takes message (`partition`, `offset`, `key`): waits for a free slot, then runs `handle`
     * (until it succeeds or the consumer stops) without waiting for it, after the messages of
     * the same key taken before it. A message already taken (Kafka redelivers from the last
     * commit after a rebalance) is not run twice at once.
     */
    async take(partition: number, offset: string, key: string | null, handle: () => Promise<void>): Promise<void> {
      const at = BigInt(offset);
      const s = stateOf(partition);
      if (s.entries.some((e) => e.offset === at)) return;
      while (!hasRoom()) await new Promise<void>((r) => waiting.push(r));
      // In offset order (a redelivery after a rebalance may come before what is still running).
      const entry: Entry = { offset: at, done: false };
      let i = s.entries.length;
      while (i > 0 && s.entries[i - 1].offset > at) i--;
      s.entries.splice(i, 0, entry);
      pending++;
      running++;
      const before = key === null ? undefined : lastOfKey.get(key);
      const run = (before ?? Promise.resolve()).then(() => runHandler(handle, { partition, offset })).then((ok) => {
        running--;
        if (ok) {
          entry.done = true;
          advance(partition, s);
        } else wake();
      });
      settled.add(run);
      if (key !== null) lastOfKey.set(key, run);
      void run.finally(() => {
        settled.delete(run);
        if (key !== null && lastOfKey.get(key) === run) lastOfKey.delete(key);
      });
    },
    /**
     * The group was joined again: Kafka redelivers from the last commits, so what is done and
     * not committed is forgotten (handled again, harmlessly) — partitions now another member's
     * would otherwise keep it for ever.
     */
    rejoined() {
      for (const s of partitions.values()) {
        const kept = s.entries.filter((e) => !e.done);
        pending -= s.entries.length - kept.length;
        s.entries = kept;
        s.committed = -1n;
      }
      wake();
    },
    /** Waits for every handler running now, at most `ms`. */
    async drain(ms: number): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all([...settled]), new Promise((r) => (timer = setTimeout(r, ms)))]);
      clearTimeout(timer);
      await Promise.all([...partitions.values()].map((s) => s.committing));
    },
    /** Handlers running and messages taken but not committed (tests, metrics). */
    stats: () => ({ running, pending }),
  };
}
