// A background task run every `intervalMs` (the scheduler, the idempotency-key purge). A run
// never overlaps the previous one: the next is armed only when the current one ends. stop()
// waits for a run in progress; `stopping()` lets a long run end early between its batches.
import type { Logger } from '../../../shared/src/log.js';

export interface Periodic {
  start(): void;
  stop(): Promise<void>;
  /** True once stop() was called (until the next start()). */
  stopping(): boolean;
}

export function createPeriodic(opts: { intervalMs: number; log: Logger; failure: string }, run: () => Promise<unknown>): Periodic {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let halting = false; // stop() was called; a run called directly before any start() is not halting

  function arm() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = run()
        .then(
          () => undefined,
          (err) => opts.log.error(opts.failure, { err }),
        )
        .finally(() => {
          running = null;
          arm();
        });
    }, opts.intervalMs);
    // Never the reason a process stays alive: stop() is.
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      halting = false;
      arm();
    },
    async stop() {
      stopped = true;
      halting = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    stopping: () => halting,
  };
}
