// A site's bulk work at a pace (rows exported, items imported per second, per site and process):
// the concurrency limits (site-slots.ts) keep a site from holding every bulk connection, but two
// exports of a large site pulled as fast as a client reads still took this process's whole CPU,
// and another site's calls waited behind them (its GET /v2/topics p99 from 18 ms to 1.5 s,
// docs/performance.md "Noisy neighbours"). A site may run ahead by one second of work (a small
// export or import is not slowed at all); beyond that, its next page or batch waits its turn.
export interface SitePace {
  /** Resolves when the site may do `units` more of this work. */
  take(siteId: string, units: number): Promise<void>;
}

/** One second of work may be done ahead of the pace. */
const AHEAD_MS = 1000;
/** Sites remembered at most; idle ones are forgotten first (they owe nothing). */
const MAX_SITES = 10_000;

export function createSitePace(perSecond: number, clock: () => number = Date.now, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): SitePace {
  // When the work a site has taken so far is paid for, at the pace.
  const paidUntil = new Map<string, number>();
  return {
    async take(siteId, units) {
      const now = clock();
      if (paidUntil.size >= MAX_SITES) for (const [site, until] of paidUntil) if (until <= now - AHEAD_MS) paidUntil.delete(site);
      const until = Math.max(paidUntil.get(siteId) ?? 0, now - AHEAD_MS) + (units * 1000) / perSecond;
      paidUntil.set(siteId, until);
      if (until > now) await sleep(until - now);
    },
  };
}
