// One wakeable loop for background work: the outbox relay, the scheduler and the idempotency-key
// purge (campaign), the counter publisher (delivery). A pass never overlaps the previous one: the
// next is armed only when the current one has ended. wake() asks for a pass now; wakes during a
// pass make one more pass right after it, not one each. stop() disarms and waits for a pass in
// progress; `stopping()` lets a long pass end early between its batches. The timer is unref'd:
// stop() ends a loop, a loop is never the reason a process stays alive.
import type { Logger } from './log.js';

export interface PeriodicOptions {
  /** From the end of one pass to the start of the next. */
  intervalMs: number;
  /** From start() to the first pass; default intervalMs. */
  firstPassDelayMs?: number;
  /** A woken pass starts at least this long after the previous pass ended; default 0. */
  wakeGapMs?: number;
  /** A pass that rejected (the loop goes on). */
  onError(err: unknown): void;
}

export interface Periodic {
  /** Arms the first pass; a second start() while started does nothing. */
  start(): void;
  /** A pass as soon as the wake gap allows; during a pass, one more right after it. Ignored while stopped. */
  wake(): void;
  /** Disarms and resolves once the pass in progress (if any) has ended. */
  stop(): Promise<void>;
  /** True from stop() until the next start(): a long pass checks it between batches. */
  stopping(): boolean;
  /** True between start() and stop(). */
  started(): boolean;
}

export function createPeriodic(pass: () => Promise<unknown>, opts: PeriodicOptions): Periodic {
  const wakeGapMs = opts.wakeGapMs ?? 0;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  let inPass: Promise<void> | undefined;
  let started = false;
  let halting = false;
  let wakeRequested = false;
  let lastPassEnded = -Infinity;

  function disarm() {
    clearTimeout(timer);
    timer = undefined;
    dueAt = Infinity;
  }

  /** Arms the next pass in `delayMs`, unless one is due sooner or one is running (it re-arms). */
  function arm(delayMs: number) {
    if (!started || inPass) return;
    const at = Date.now() + Math.max(0, delayMs);
    if (timer && dueAt <= at) return;
    disarm();
    dueAt = at;
    timer = setTimeout(runPass, Math.max(0, delayMs));
    timer.unref();
  }

  function runPass() {
    disarm();
    inPass = Promise.resolve()
      .then(pass)
      .then(
        () => undefined,
        (err: unknown) => {
          try {
            opts.onError(err);
          } catch {
            // A failure report that fails must not end the loop.
          }
        },
      )
      .finally(() => {
        inPass = undefined;
        lastPassEnded = Date.now();
        const again = wakeRequested;
        wakeRequested = false;
        arm(again ? wakeGapMs : opts.intervalMs);
      });
  }

  return {
    start() {
      if (started) return;
      started = true;
      halting = false;
      arm(opts.firstPassDelayMs ?? opts.intervalMs);
    },
    wake() {
      if (!started) return;
      if (inPass) {
        wakeRequested = true;
        return;
      }
      arm(lastPassEnded + wakeGapMs - Date.now());
    },
    async stop() {
      started = false;
      halting = true;
      wakeRequested = false;
      disarm();
      await inPass;
    },
    stopping: () => halting,
    started: () => started,
  };
}

/**
 * A pass that handles its own failures (the resource it needs is away: Postgres, Kafka): the
 * first failure of an outage is logged as a warning with `failed`, the passes after it quietly,
 * and the first success after it with `recovered`. So an outage is two log lines, not one a pass.
 */
export function quietWhileFailing(pass: () => Promise<unknown>, log: Pick<Logger, 'warn' | 'info'>, texts: { failed: string; recovered: string }): () => Promise<void> {
  let failing = false;
  return async () => {
    try {
      await pass();
      if (failing) log.info(texts.recovered);
      failing = false;
    } catch (err) {
      if (!failing) log.warn(texts.failed, { err });
      failing = true;
    }
  };
}
