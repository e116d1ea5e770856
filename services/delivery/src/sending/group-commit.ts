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

interface Batch<T, R> {
  items: T[];
  /** What every add() of these items returns: one promise per write, not one per item. */
  written: Promise<R>;
  resolve(r: R): void;
  reject(err: unknown): void;
}

export function groupCommit<T, R>(write: (items: T[]) => Promise<R>, opts: { lingerMs?: number; maxItems?: number } = {}): GroupCommit<T, R> {
  const lingerMs = opts.lingerMs ?? 0;
  const maxItems = opts.maxItems ?? 500;
  /** Waiting to be written, oldest first; the last takes new items until it holds maxItems. */
  const waiting: Batch<T, R>[] = [];
  let running: Promise<void> | undefined;
  let failure: { err: unknown } | undefined;

  const batch = (): Batch<T, R> => {
    let resolve!: (r: R) => void;
    let reject!: (err: unknown) => void;
    const written = new Promise<R>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    written.catch(() => {}); // callers that do not wait learn of a failure from drain()
    return { items: [], written, resolve, reject };
  };

  const pump = async () => {
    const next = waiting.shift()!;
    try {
      next.resolve(await write(next.items));
    } catch (err) {
      failure = { err };
      next.reject(err);
      for (const b of waiting.splice(0)) b.reject(err);
    }
  };

  // One write at a time, each started a little later (at least a microtask) than the item that
  // calls for it, so items added meanwhile share it: at most one write per linger per writer.
  const start = () => {
    running ??= new Promise<void>((resolve) => (lingerMs > 0 ? setTimeout(resolve, lingerMs) : queueMicrotask(resolve)))
      .then(pump)
      .finally(() => {
        running = undefined;
        if (waiting.length > 0) start();
      });
  };

  return {
    add(item) {
      if (failure) {
        const p = Promise.reject(failure.err);
        p.catch(() => {});
        return p;
      }
      let last = waiting[waiting.length - 1];
      if (!last || last.items.length >= maxItems) waiting.push((last = batch()));
      last.items.push(item);
      start();
      return last.written;
    },
    async drain() {
      while (running) await running;
      if (failure) throw failure.err;
    },
  };
}
