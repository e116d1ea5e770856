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
