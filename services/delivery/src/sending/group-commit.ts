// Per-push writes batched by group commit: whatever is added while one write runs goes into the
// next, so a chunk's pushes cost a handful of statements, not one each, and each item waits
// only for the write in flight plus its own. A failed write fails its items and every later
// add: the caller's attempt is over and is resumed from what was stored.

export interface GroupCommit<T, R> {
  /** Resolves with the result of the write that carried `item`. */
  add(item: T): Promise<R>;
  /** Waits until everything added has been written; rejects with the failure, if any. */
  drain(): Promise<void>;
}

export function groupCommit<T, R>(write: (items: T[]) => Promise<R>, maxItems = 500): GroupCommit<T, R> {
  let queue: { item: T; resolve(r: R): void; reject(err: unknown): void }[] = [];
  let running: Promise<void> | undefined;
  let failure: { err: unknown } | undefined;

  const pump = async () => {
    while (queue.length > 0) {
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
    }
  };

  // Started a microtask later, so the items added in the same turn share the first write; an
  // item added as a pump ends starts the next one.
  const start = () => {
    running ??= Promise.resolve()
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
