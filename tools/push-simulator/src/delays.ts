/**
 * Timers that answers wait on (a far push service's latency, a behaviour's delay, a device's
 * report delay), all ended at once by close(). A set of waiters rather than an abort listener per
 * wait: AbortSignal's addEventListener scans its listeners for a duplicate, so with a thousand
 * pushes waiting every new wait cost a thousand steps (a fifth of a far simulator's CPU).
 */
export class Delays {
  private readonly waiting = new Set<() => void>();
  private ended = false;

  /** True once close() was called: whoever waited has nothing left to answer. */
  get closed(): boolean {
    return this.ended;
  }

  wait(ms: number): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  close(): void {
    this.ended = true;
    for (const done of [...this.waiting]) done();
  }
}

/**
 * A push service of limited capacity: it handles `perSecond` pushes a second, one after another
 * in arrival order, so a push that arrives while others wait takes its turn after them and its
 * answer comes later the more are queued (queueing, not a fixed delay). A push whose sender gave
 * up waiting (a timeout, a reset stream) keeps its place and is still handled, as a real service
 * that has taken the request does.
 */
export class ServiceQueue {
  private nextFree = 0;
  private readonly serviceMs: number;

  constructor(perSecond: number) {
    this.serviceMs = 1000 / perSecond;
  }

  /** Milliseconds from now until a push arriving now has been handled. */
  turn(): number {
    const now = performance.now();
    const start = Math.max(now, this.nextFree);
    this.nextFree = start + this.serviceMs;
    return this.nextFree - now;
  }
}
