// Per-push writes batched by group commit: whatever is added while one write runs (or within
// `lingerMs` of the first item) goes into the next write, so a chunk's pushes cost a statement
// per batch of results, not one each — even when results trickle in — and each item waits at
// most the linger, the write in flight and its own. A failed write fails its items and every
// later add: the caller's attempt is over and is resumed from what was stored.

export interface GroupCommit<T, R> {
  /** Resolves with the result of the write that carried `item`. */
  add(item: T): Promise<R>;
  /** Waits until everything added has been written; rejects with the failure, if any. */
  drain(): Promise<void>;
}

export function groupCommit<T, R>(write: (items: T[]) => Promise<R>, opts: { lingerMs?: number; maxItems?: number } = {}): GroupCommit<T, R> {
  const lingerMs = opts.lingerMs ?? 0;
  const maxItems = opts.maxItems ?? 500;
  let queue: { item: T; resolve(r: R): void; reject(err: unknown): void }[] = [];
  let running: Promise<void> | undefined;
  let failure: { err: unknown } | undefined;

  const pump = async () => {
    const batch = queue.slice(0, maxItems);
    queue = queue.slice(batch.length);
    try {
      const result = await write(batch.map((b) => b.item));
      for (const b of batch) b.resolve(result);
    } catch (err) {
      failure = { err };
      for (const b of [...batch, ...queue]) b.reject(err);
      queue = [];
    }
  };

  // One write at a time, each started a little later (at least a microtask) than the item that
  // calls for it, so items added meanwhile share it: at most one write per linger per writer.
  const start = () => {
    running ??= new Promise<void>((resolve) => (lingerMs > 0 ? setTimeout(resolve, lingerMs) : queueMicrotask(resolve)))
      .then(pump)
      .finally(() => {
        running = undefined;
        if (queue.length > 0) start();
      });
  };

  return {
    add(item) {
      const p = failure ? Promise.reject(failure.err) : new Promise<R>((resolve, reject) => queue.push({ item, resolve, reject }));
      p.catch(() => {}); // callers that do not wait learn of a failure from drain()
      if (!failure) start();
      return p;
    },
    async drain() {
      while (running) await running;
      if (failure) throw failure.err;
    },
  };
}
