// Per-site limits on concurrent bulk work (imports, exports) in this process: one site's bulk
// work must leave the bulk pool's connections (shared/db.ts) to the others. In memory, like the
// gateway's rate limits: N delivery instances allow up to N times the figure.
import { RateLimitedError } from '../errors.js';

export interface SiteSlots {
  /**
   * Takes one of the site's slots, answering its release (idempotent), or throws
   * RateLimitedError (429 with Retry-After) when the site already holds all of them.
   */
  take(siteId: string): () => void;
}

export function createSiteSlots(perSite: number, refusal: { message: string; retryAfterSeconds: number }): SiteSlots {
  const held = new Map<string, number>();
  return {
    take(siteId) {
      const n = held.get(siteId) ?? 0;
      if (n >= perSite) throw new RateLimitedError(refusal.message, refusal.retryAfterSeconds);
      held.set(siteId, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(siteId) ?? 1) - 1;
        // Sites without bulk work running hold no entry: the map stays as small as the work.
        if (left === 0) held.delete(siteId);
        else held.set(siteId, left);
      };
    },
  };
}
