// Fixed-window request counter per client address. Memory is bounded: expired windows are
// dropped oldest first, and when every entry is live the oldest is evicted.

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): RateDecision;
}

export function createFixedWindowLimiter(opts: {
  limit: number;
  windowMs?: number;
  maxEntries?: number;
  now?: () => number;
}): RateLimiter {
  const windowMs = opts.windowMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 100_000;
  const now = opts.now ?? Date.now;
  // Insertion order is window-start order, because a key is re-inserted when its window restarts.
  const windows = new Map<string, { start: number; count: number }>();

  function evict(at: number): void {
    for (const [key, w] of windows) {
      if (windows.size < maxEntries && at - w.start < windowMs) return;
      windows.delete(key);
    }
  }

  return {
    take(key) {
      if (opts.limit <= 0) return { allowed: true };
      const at = now();
      let w = windows.get(key);
      if (w && at - w.start >= windowMs) {
        windows.delete(key);
        w = undefined;
      }
      if (!w) {
        if (windows.size >= maxEntries) evict(at);
        w = { start: at, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= opts.limit) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - at) / 1000)) };
      }
      w.count += 1;
      return { allowed: true };
    },
  };
}
