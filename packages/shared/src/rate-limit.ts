// The one rate limiter of the platform, in memory, per process, and bounded: a map that is full
// drops its oldest entry first (a dropped entry only forgets a caller's recent use, it never
// blocks anyone). Two shapes: fixed one-minute windows per key — counting calls (the delivery
// service's public endpoints, the console's test push) or distinct items (the gateway's failed
// key checks per client address) — and a token bucket per key (the gateway's calls per API key).
// A limit of 0 turns a limiter off.

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): RateDecision;
}

const ALLOWED: RateDecision = Object.freeze({ allowed: true });

/** Sets `key`, first dropping the oldest entries (Map order is insertion order) while the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V, maxEntries: number): void {
  map.delete(key);
  while (map.size >= maxEntries) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

interface WindowOptions {
  limit: number;
  windowMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/** Fixed windows per key, each holding what was counted in it; a key's window restarts when it ends. */
function createWindows<C>(opts: WindowOptions, fresh: () => C) {
  const windowMs = opts.windowMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 100_000;
  const now = opts.now ?? Date.now;
  // Insertion order is window-start order: a key is re-inserted only when its window restarts.
  const windows = new Map<string, { start: number; counted: C }>();
  const current = (key: string, at: number) => {
    const w = windows.get(key);
    if (w && at - w.start < windowMs) return w;
    if (w) windows.delete(key);
    return undefined;
  };
  return {
    now,
    current,
    /** The key's window, opened now when it has none. */
    open(key: string, at: number) {
      let w = current(key, at);
      if (!w) {
        w = { start: at, counted: fresh() };
        remember(windows, key, w, maxEntries);
      }
      return w;
    },
    refused(w: { start: number }, at: number): RateDecision {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - at) / 1000)) };
    },
  };
}

/** At most `limit` calls per key in each window. */
export function createFixedWindowLimiter(opts: WindowOptions): RateLimiter {
  const windows = createWindows(opts, () => ({ calls: 0 }));
  return {
    take(key) {
      if (opts.limit <= 0) return ALLOWED;
      const at = windows.now();
      const w = windows.open(key, at);
      if (w.counted.calls >= opts.limit) return windows.refused(w, at);
      w.counted.calls += 1;
      return ALLOWED;
    },
  };
}

/**
 * At most `limit` distinct failures per client in each window (key guessing). Only distinct
 * items count: a client repeating one revoked or mistyped key is not guessing.
 */
export function createFailureLimiter(opts: WindowOptions) {
  const windows = createWindows({ maxEntries: 10_000, ...opts }, () => new Set<string>());
  return {
    /** Refused when the client has used up its failures in this window. */
    check(client: string): RateDecision {
      if (opts.limit <= 0) return ALLOWED;
      const at = windows.now();
      const w = windows.current(client, at);
      if (!w || w.counted.size < opts.limit) return ALLOWED;
      return windows.refused(w, at);
    },
    /** A failure of this client; `item` names what failed (a digest of a key, never the key). */
    fail(client: string, item: string): void {
      if (opts.limit <= 0) return;
      const w = windows.open(client, windows.now());
      // At most `limit` items are kept per client: more than that changes nothing.
      if (w.counted.size < opts.limit) w.counted.add(item);
    },
  };
}

/**
 * Token bucket per key: `burst` calls at once, refilled at `perMinute` per minute. A caller that
 * keeps within `perMinute` is never refused; a burst above it is smoothed instead of cut off at
 * a window boundary. `perMinute` 0 turns it off.
 */
export function createTokenBucket(opts: { perMinute: number; burst: number; maxEntries?: number; now?: () => number }): RateLimiter {
  const maxEntries = opts.maxEntries ?? 100_000;
  const now = opts.now ?? Date.now;
  const perMs = opts.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key: string): RateDecision {
      if (opts.perMinute <= 0) return ALLOWED;
      const at = now();
      const b = buckets.get(key) ?? { tokens: opts.burst, at };
      b.tokens = Math.min(opts.burst, b.tokens + Math.max(0, at - b.at) * perMs);
      b.at = at;
      remember(buckets, key, b, maxEntries);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return ALLOWED;
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)) };
    },
  };
}
