// What one push-service origin allows right now: how many requests may be in flight, whether it
// asked us to wait (429 Retry-After), and whether it is down. A push service answering 5xx,
// timeouts or resets to most recent requests is an outage of the origin, not of each
// subscriber: it is paused, and while paused it gets one request at a time — a probe, which is
// one of the waiting pushes — after a growing wait (exponential, equal jitter, capped). The
// first probe the service answers (anything but a 5xx, a timeout or a reset) reopens it.
// Every wait is bounded by the waiting push's own deadline (its retry budget).
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

/** `answered`: any HTTP answer but a 5xx; `transient`: 5xx, timeout, reset; `ignored`: neither (closed). */
export type AttemptResult = 'answered' | 'transient' | 'ignored';

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
  /** Takes a slot if one is free at once (the usual case, no promise); false: call acquire(). */
  tryAcquire(): boolean;
  acquire(): Promise<void>;
  release(): void;
  /** Nothing to wait for (no pause, not down, open): send without calling waitTurn. */
  readonly clear: boolean;
  readonly down: boolean;
  /** Waits, holding the caller's slot, until it may send or its deadline (ms since the epoch) makes waiting pointless. */
  waitTurn(deadline: number): Promise<Turn>;
  /** After every attempt, with the turn it was sent on ('send' for the fast path). */
  report(turn: 'send' | 'probe', result: AttemptResult, reason: string): void;
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

export function createOriginGate(limit: number, clock: GateClock, outage: OutageOptions = {}, events: OriginEvents = {}): OriginGate {
  const windowSize = outage.window ?? 20;
  const minFailures = outage.minFailures ?? 5;
  const probeBaseMs = outage.probeBaseMs ?? 1000;
  const probeMaxMs = Math.max(outage.probeMaxMs ?? 10_000, probeBaseMs);

  let active = 0;
  const slotWaiters: Array<() => void> = [];
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
  // for the next of those moments. Waiters hold slots, so there are at most `limit` of them.
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

  function disarm(): void {
    timer?.abort.abort();
    timer = undefined;
  }

  return {
    tryAcquire() {
      if (active >= limit) return false;
      active += 1;
      return true;
    },
    acquire() {
      if (active < limit) {
        active += 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => slotWaiters.push(resolve));
    },
    release() {
      const nextWaiter = slotWaiters.shift();
      if (nextWaiter) nextWaiter();
      else active -= 1;
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
    report(turn, result, reason) {
      if (closed) return;
      if (turn === 'probe' && down?.probing) {
        down.probing = false;
        if (result === 'answered') return resume();
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
    },
  };
}
