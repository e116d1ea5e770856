// What one push-service origin allows right now: how many requests may be in flight (the one
// per-origin concurrency limit of the push path, adapted to how the origin answers), whether it
// asked us to wait (429 Retry-After), and whether it is down. A push service answering 5xx,
// timeouts or resets to most recent requests is an outage of the origin, not of each
// subscriber: it is paused, and while paused it gets one request at a time — a probe, which is
// one of the waiting pushes — after a growing wait (exponential, equal jitter, capped). The
// first probe the service answers (anything but a 5xx, a timeout or a reset) reopens it.
// Every wait is bounded by the waiting push's own deadline (its retry budget).
//
// The in-flight limit reads congestion from latency (as TCP Vegas and BBR do, and Netflix's
// concurrency-limits Gradient2), not from timeouts: a push service that takes more than it can
// handle queues requests, its answers come later, and by the time requests time out (and are
// retried while the originals are still delivered) the duplicates are made. So, per origin:
//   - the no-load latency (baseline) is the fastest answer of the last one to two minutes;
//   - the latency allowed is the baseline plus a queue of max(baseline, 250 ms) — at most a
//     quarter of the request timeout, and never below 1.25 × the baseline. 250 ms absorbs our own
//     event loop's delays (every answer waits for this busy process to read it) and jitter;
//   - growth on evidence: an answer within half the queue allowed adds 1 (while at least half
//     the limit is in use), up to a doubling per round trip — slow start; one within the latency
//     allowed adds 0.1 (≈ +10 % per round trip); a slower one adds nothing;
//   - a round is one round trip: as many good answers as were in flight when it began. When its
//     mean latency is above the latency allowed, the limit is multiplied by allowed ÷ mean
//     (halved at most), and the next round, whose requests were sent before the cut, neither
//     grows nor cuts it again;
//   - every 429, 5xx, timeout, reset or network error multiplies it by 0.9 (at least 1 less);
//   - it starts at 20 (LIMIT.start), stays within [1, ceiling (PUSH_CONCURRENCY_PER_ORIGIN)].
// A far push service (150 ms whatever the load) answers within the allowance at any load, so its
// limit doubles per round trip to the ceiling; a service that handles 150 pushes a second keeps
// ~40–60 in flight (at most a quarter-timeout's worth of queue), and is still kept busy. A
// lowered limit does not cut requests already in flight: new ones wait until fewer are.
import { setMaxListeners } from 'node:events';

export type Turn =
  /** Send now. */
  | 'send'
  /** Send now as the origin's one probe; report() says how it went. */
  | 'probe'
  /** The push's deadline passed while the origin was down. */
  | 'deadline'
  /** A Retry-After pause in force ends after the push's deadline. */
  | 'beyond'
  | 'closed';

/**
 * `answered`: any HTTP answer but a 429 or a 5xx; `rate-limited`: a 429 (the origin is up, but
 * asks for less); `transient`: 5xx, timeout, reset, network error; `ignored`: none of these
 * (the sender closed, a push withheld or refused before its request).
 */
export type AttemptResult = 'answered' | 'rate-limited' | 'transient' | 'ignored';

export interface ConcurrencyLimits {
  /** The most requests in flight to one origin, however well it answers (PUSH_CONCURRENCY_PER_ORIGIN). */
  ceiling: number;
  /** The limit an origin starts with; default LIMIT.start (20), or the ceiling when lower. */
  initial?: number;
  /** The request timeout (PUSH_TIMEOUT_MS, default 10 s): the queue allowed is at most a quarter of it. */
  timeoutMs?: number;
}

/** The numbers of the adaptive limit (see the top of this file). */
export const LIMIT = {
  start: 20,
  /** Queue allowed on top of the baseline: at least this… */
  queueFloorMs: 250,
  /** …at most this share of the request timeout… */
  queueTimeoutShare: 0.25,
  /** …and the latency allowed is never below the baseline times this. */
  minHeadroom: 1.25,
  /** Growth per good answer: slow start, and near the latency allowed. */
  slowStart: 1,
  nearTarget: 0.1,
  /** A round over the latency allowed cuts the limit by at most this factor. */
  deepestCut: 0.5,
  /** Per 429, 5xx, timeout, reset. */
  backoff: 0.9,
  /** The baseline is the fastest answer of the last one to two of these. */
  baselineWindowMs: 60_000,
} as const;

/** The latency a request may take before its origin counts as congested (see the top of this file). */
export function latencyAllowed(baselineMs: number, timeoutMs: number): number {
  const queue = Math.min(Math.max(baselineMs, LIMIT.queueFloorMs), timeoutMs * LIMIT.queueTimeoutShare);
  return Math.max(baselineMs + queue, baselineMs * LIMIT.minHeadroom);
}

export interface LimitClock {
  now(): number;
}

/** The adaptive limit alone (the gate holds one per origin); exported for tests. */
export interface AdaptiveLimit {
  /** An integer from 1 to the ceiling. */
  readonly value: number;
  /** A good answer: how long its request took, and the requests in flight when it came (its own included). */
  answered(latencyMs: number, inFlight: number): void;
  /** A 429, 5xx, timeout, reset or network error. */
  backoff(): void;
}

export function createAdaptiveLimit(o: { ceiling: number; initial: number; timeoutMs: number }, clock: LimitClock): AdaptiveLimit {
  const { ceiling, timeoutMs } = o;
  let limit = o.initial;
  // The round under way: answers still to come, and the latencies of those come.
  let left = 0;
  let sum = 0;
  let count = 0;
  // The round after a cut: its requests were sent before it.
  let draining = false;
  // The fastest answer of the current and the previous window.
  let windowStart = clock.now();
  let fastestNow = Infinity;
  let fastestBefore = Infinity;

  function noteBaseline(latencyMs: number): void {
    const now = clock.now();
    if (now - windowStart >= LIMIT.baselineWindowMs) {
      fastestBefore = now - windowStart >= 2 * LIMIT.baselineWindowMs ? Infinity : fastestNow;
      fastestNow = Infinity;
      windowStart = now;
    }
    if (latencyMs < fastestNow) fastestNow = latencyMs;
  }

  return {
    get value() {
      return Math.max(1, Math.floor(limit));
    },
    answered(latencyMs, inFlight) {
      noteBaseline(latencyMs);
      const baseline = Math.min(fastestNow, fastestBefore);
      const allowed = latencyAllowed(baseline, timeoutMs);
      // Growth on evidence: a fast answer, while at least half the limit is in use (a limit
      // nobody uses is not tested).
      if (!draining && inFlight * 2 >= limit && latencyMs <= allowed) {
        const growth = latencyMs <= baseline + (allowed - baseline) / 2 ? LIMIT.slowStart : LIMIT.nearTarget;
        limit = Math.min(ceiling, limit + growth);
      }
      if (left === 0) left = Math.max(1, inFlight);
      sum += latencyMs;
      count += 1;
      left -= 1;
      if (left > 0) return;
      const mean = sum / count;
      sum = 0;
      count = 0;
      if (draining) draining = false;
      else if (mean > allowed) {
        limit = Math.max(1, Math.min(limit - 1, limit * Math.max(LIMIT.deepestCut, allowed / mean)));
        draining = true;
      }
    },
    backoff() {
      limit = Math.max(1, Math.min(limit - 1, Math.floor(limit * LIMIT.backoff)));
    },
  };
}

export interface GateClock {
  now(): number;
  /** Resolves after ms, or early (never rejecting) once the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export interface OutageOptions {
  /** Recent attempts looked at (default 20). */
  window?: number;
  /** Down when at least this many of them failed (default 5) and at least half did. */
  minFailures?: number;
  /** First wait before a probe (default 1 s); doubles after each failed probe, up to probeMaxMs (default 10 s). */
  probeBaseMs?: number;
  probeMaxMs?: number;
}

export interface OriginEvents {
  onDown?(info: { failures: number; of: number; lastReason: string }): void;
  onUp?(info: { pausedMs: number; probes: number }): void;
}

export interface OriginGate {
  /** Requests that may be in flight now (adaptive, 1 to the ceiling). */
  readonly limit: number;
  /** Slots taken: requests in flight, and pushes waiting for their turn while paused or down. */
  readonly inFlight: number;
  /** Takes a slot if one is free at once (the usual case, no promise); false: call acquire(). */
  tryAcquire(): boolean;
  acquire(): Promise<void>;
  release(): void;
  /** Nothing to wait for (no pause, not down, open): send without calling waitTurn. */
  readonly clear: boolean;
  readonly down: boolean;
  /** Waits, holding the caller's slot, until it may send or its deadline (ms since the epoch) makes waiting pointless. */
  waitTurn(deadline: number): Promise<Turn>;
  /**
   * After every attempt, with the turn it was sent on ('send' for the fast path) and how long its
   * request took (ms; the latency an 'answered' result adapts the limit with); adapts the limit.
   */
  report(turn: 'send' | 'probe', result: AttemptResult, reason: string, latencyMs: number): void;
  /** A 429: no request until ms from now (the latest Retry-After wins). */
  rateLimit(ms: number): void;
  close(): void;
}

interface Down {
  since: number;
  delayMs: number;
  nextProbeAt: number;
  probing: boolean;
  probes: number;
}

interface Waiter {
  deadline: number;
  resolve(turn: Turn | 'resumed'): void;
}

export function createOriginGate(limits: ConcurrencyLimits, clock: GateClock, outage: OutageOptions = {}, events: OriginEvents = {}): OriginGate {
  const { ceiling } = limits;
  if (!Number.isInteger(ceiling) || ceiling < 1) throw new RangeError('the concurrency ceiling must be a positive integer');
  const initial = limits.initial ?? Math.min(ceiling, LIMIT.start);
  if (!Number.isInteger(initial) || initial < 1 || initial > ceiling) throw new RangeError('the initial concurrency must be an integer from 1 to the ceiling');
  const windowSize = outage.window ?? 20;
  const minFailures = outage.minFailures ?? 5;
  const probeBaseMs = outage.probeBaseMs ?? 1000;
  const probeMaxMs = Math.max(outage.probeMaxMs ?? 10_000, probeBaseMs);

  const adaptive = createAdaptiveLimit({ ceiling, initial, timeoutMs: limits.timeoutMs ?? 10_000 }, clock);
  let active = 0;
  const slotWaiters = fifo<() => void>();
  let closed = false;
  const closing = new AbortController();
  setMaxListeners(0, closing.signal); // one listener per Retry-After pause in force

  let pause: Promise<void> | undefined;
  let pausedUntil = 0;

  // The last windowSize attempts as a ring: true = transient failure.
  const recent: boolean[] = [];
  let next = 0;
  let failures = 0;

  let down: Down | undefined;
  const waiters: Waiter[] = [];
  let timer: { at: number; abort: AbortController } | undefined;

  const probeWait = (ms: number) => ms / 2 + clock.random() * (ms / 2);

  function record(failed: boolean): void {
    if (recent.length < windowSize) recent.push(failed);
    else {
      if (recent[next]) failures -= 1;
      recent[next] = failed;
      next = (next + 1) % windowSize;
    }
    if (failed) failures += 1;
  }

  function trip(lastReason: string): void {
    const now = clock.now();
    events.onDown?.({ failures, of: recent.length, lastReason });
    down = { since: now, delayMs: probeBaseMs, nextProbeAt: now + probeWait(probeBaseMs), probing: false, probes: 0 };
    recent.length = 0;
    next = 0;
    failures = 0;
  }

  function resume(): void {
    const d = down!;
    down = undefined;
    disarm();
    for (const w of waiters.splice(0)) w.resolve('resumed');
    events.onUp?.({ pausedMs: clock.now() - d.since, probes: d.probes });
  }

  // Expires waiters past their deadline, hands out the probe when it is due, and sets one timer
  // for the next of those moments. Waiters hold slots, so there are at most `ceiling` of them.
  // `reached`: the moment a timer was set for — reached when it fires, whatever the clock says
  // (a clock a little behind the timer must not re-arm it in a loop).
  function pump(reached = -Infinity): void {
    if (!down) return;
    const now = Math.max(clock.now(), reached);
    for (let i = 0; i < waiters.length; ) {
      if (waiters[i].deadline <= now) waiters.splice(i, 1)[0].resolve('deadline');
      else i += 1;
    }
    if (!down.probing && now >= down.nextProbeAt && waiters.length > 0) {
      down.probing = true;
      down.probes += 1;
      waiters.shift()!.resolve('probe');
    }
    if (waiters.length === 0) return disarm();
    let wake = down.probing ? Infinity : down.nextProbeAt;
    for (const w of waiters) wake = Math.min(wake, w.deadline);
    if (timer && timer.at <= wake) return;
    disarm();
    const t = { at: wake, abort: new AbortController() };
    timer = t;
    void clock.sleep(Math.max(0, wake - now), t.abort.signal).then(() => {
      if (timer !== t) return;
      timer = undefined;
      pump(t.at);
    });
  }

  // Hands free slots to waiting pushes, oldest first: after a release, or when the limit grew.
  function admit(): void {
    const limit = adaptive.value;
    while (active < limit && slotWaiters.length > 0) {
      active += 1;
      slotWaiters.shift()();
    }
  }

  function disarm(): void {
    timer?.abort.abort();
    timer = undefined;
  }

  return {
    get limit() {
      return adaptive.value;
    },
    get inFlight() {
      return active;
    },
    tryAcquire() {
      if (active >= adaptive.value) return false;
      active += 1;
      return true;
    },
    acquire() {
      if (active < adaptive.value) {
        active += 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => slotWaiters.push(resolve));
    },
    release() {
      active -= 1;
      admit();
    },
    get clear() {
      return pause === undefined && down === undefined && !closed;
    },
    get down() {
      return down !== undefined;
    },
    async waitTurn(deadline) {
      for (;;) {
        if (closed) return 'closed';
        if (pause) {
          if (pausedUntil > deadline) return 'beyond';
          await pause;
          continue;
        }
        if (down) {
          const turn = await new Promise<Turn | 'resumed'>((resolve) => {
            waiters.push({ deadline, resolve });
            pump();
          });
          if (turn === 'resumed') continue;
          return turn;
        }
        return 'send';
      }
    },
    report(turn, result, reason, latencyMs) {
      if (closed) return;
      if (result === 'answered') {
        const before = adaptive.value;
        adaptive.answered(latencyMs, active);
        if (adaptive.value > before) admit();
      } else if (result !== 'ignored') adaptive.backoff();
      if (turn === 'probe' && down?.probing) {
        down.probing = false;
        if (result === 'answered' || result === 'rate-limited') return resume();
        if (result === 'transient') {
          down.delayMs = Math.min(probeMaxMs, down.delayMs * 2);
          down.nextProbeAt = clock.now() + probeWait(down.delayMs);
        }
        return pump();
      }
      // Answers to requests sent before the origin went down say nothing new: only probes reopen it.
      if (down || result === 'ignored') return;
      record(result === 'transient');
      if (result === 'transient' && failures >= minFailures && failures * 2 >= recent.length) trip(reason);
    },
    rateLimit(ms) {
      pausedUntil = clock.now() + ms;
      const p: Promise<void> = clock.sleep(ms, closing.signal).then(() => {
        if (pause === p) pause = undefined;
      });
      pause = p;
    },
    close() {
      closed = true;
      closing.abort();
      disarm();
      for (const w of waiters.splice(0)) w.resolve('closed');
      // Pushes waiting for a slot take one now, only to be told 'closed' by waitTurn.
      for (const w of slotWaiters.drain()) {
        active += 1;
        w();
      }
    },
  };
}

interface Fifo<T> {
  readonly length: number;
  push(item: T): void;
  /** The oldest item; only when length > 0. */
  shift(): T;
  /** Every item, oldest first, leaving none. */
  drain(): T[];
}

// A queue whose shift is O(1): a whole batch of pushes (thousands) may wait for an origin's
// slots, and Array.prototype.shift on such an array moves every element each time.
function fifo<T>(): Fifo<T> {
  let items: T[] = [];
  let head = 0;
  return {
    get length() {
      return items.length - head;
    },
    push(item) {
      items.push(item);
    },
    shift() {
      const item = items[head];
      items[head] = undefined as T;
      head += 1;
      if (head >= 1024 && head * 2 >= items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    drain() {
      const rest = items.slice(head);
      items = [];
      head = 0;
      return rest;
    },
  };
}
