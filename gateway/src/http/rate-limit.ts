// The gateway's abuse limits on /v2 (docs/api-decisions.md, "Rate limits"). Both are in memory,
// per gateway process, and bounded: the oldest entries are dropped first when a map is full
// (a dropped entry only forgets a caller's recent use, it never blocks anyone).

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const ALLOWED: RateDecision = Object.freeze({ allowed: true });

function remember<V>(map: Map<string, V>, key: string, value: V, maxEntries: number): void {
  map.delete(key);
  // Map iteration order is insertion order: the first key is the least recently used.
  while (map.size >= maxEntries) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * Token bucket per key: `burst` calls at once, refilled at `perMinute` per minute. A caller that
 * keeps within `perMinute` is never refused; a burst above it is smoothed instead of cut off at
 * a window boundary. `perMinute` 0 turns it off.
 */
export function createTokenBucket(opts: { perMinute: number; burst: number; maxEntries?: number; now?: () => number }) {
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

/**
 * Distinct failed keys per client address in a fixed one-minute window (key guessing). Only
 * distinct keys count: a client repeating one revoked or mistyped key is not guessing, and its
 * repeats are answered from the key cache anyway. `limit` 0 turns it off.
 */
export function createFailureLimiter(opts: { limit: number; windowMs?: number; maxEntries?: number; now?: () => number }) {
  const windowMs = opts.windowMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const windows = new Map<string, { start: number; keys: Set<string> }>();

  function current(client: string, at: number) {
    const w = windows.get(client);
    if (w && at - w.start < windowMs) return w;
    if (w) windows.delete(client);
    return undefined;
  }

  return {
    /** Refused when the client has used up its failures in this window. */
    check(client: string): RateDecision {
      if (opts.limit <= 0) return ALLOWED;
      const at = now();
      const w = current(client, at);
      if (!w || w.keys.size < opts.limit) return ALLOWED;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - at) / 1000)) };
    },
    /** A key this client sent was not recognised; `keyId` is a digest of it, never the key. */
    fail(client: string, keyId: string): void {
      if (opts.limit <= 0) return;
      const at = now();
      const w = current(client, at) ?? { start: at, keys: new Set<string>() };
      // At most `limit` keys are kept per client: more than that changes nothing.
      if (w.keys.size < opts.limit) w.keys.add(keyId);
      remember(windows, client, w, maxEntries);
    },
  };
}
