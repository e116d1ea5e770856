// Push failures as a few log lines, not one per push: a campaign to a push service that is down
// fails or retries thousands of pushes for the same reason. Per interval (10 s by default) the
// first failure of each origin and class is logged in full, as it happens; the rest are counted
// and one summary line per interval gives the counts per origin and class, with the origins'
// pauses and resumptions. Nothing in a line comes from a push service beyond the status and the
// reason outcome.ts reduced.
import type { Logger } from '@webpush/shared/log.js';
import type { FailureClass } from '@webpush/contracts/messages.js';

export interface FailureLog {
  /**
   * A push that ended failed; `detail` is logged with the first of its origin and class in the
   * interval, unless `loggedElsewhere` (a refused destination: once per origin and hour, sender.ts).
   */
  failed(origin: string, cls: FailureClass, detail: Record<string, unknown>, loggedElsewhere?: boolean): void;
  /** An attempt that will be retried, by its cause (a status, `timeout`, `reset`, `network`): counted only. */
  retried(origin: string, cause: string): void;
  /** The origin is paused as down / answers again (at most one line of each per origin and interval). */
  paused(origin: string, detail: Record<string, unknown>): void;
  resumed(origin: string, detail: Record<string, unknown>): void;
  /** Writes the summary of the interval so far (the interval timer and close() call it). */
  flush(): void;
}

interface OriginCounts {
  failed: Partial<Record<FailureClass, number>>;
  retried: Record<string, number>;
  paused: number;
  resumed: number;
}

/** Origins named in one summary line; the rest are summed under `otherOrigins`. */
const SUMMARY_ORIGINS = 20;
/** Distinct retry causes counted per origin; more go under `other`. */
const CAUSES = 20;
/** Distinct origins tracked in one interval (each a few counters). */
const TRACKED_ORIGINS = 1000;

export function createFailureLog(log: Logger | undefined, opts: { intervalMs?: number } = {}): FailureLog {
  const intervalMs = opts.intervalMs ?? 10_000;
  let counts = new Map<string, OriginCounts>();
  let detailed = new Set<string>();
  let overflow = { failed: 0, retried: 0 };
  let timer: NodeJS.Timeout | undefined;

  function countsFor(origin: string): OriginCounts | undefined {
    let c = counts.get(origin);
    if (!c) {
      if (counts.size >= TRACKED_ORIGINS) return undefined;
      counts.set(origin, (c = { failed: {}, retried: {}, paused: 0, resumed: 0 }));
    }
    timer ??= setTimeout(flush, intervalMs).unref();
    return c;
  }

  /** True for the first of its kind in the interval. */
  function first(key: string): boolean {
    if (detailed.has(key) || detailed.size >= TRACKED_ORIGINS * 4) return false;
    detailed.add(key);
    return true;
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (counts.size === 0) return;
    const entries = [...counts.entries()];
    const byOrigin: Record<string, OriginCounts> = {};
    let failed = overflow.failed;
    let retried = overflow.retried;
    for (const [origin, c] of entries) {
      failed += sum(c.failed);
      retried += sum(c.retried);
    }
    // The origins with the most failures and retries are the ones worth naming.
    entries.sort((a, b) => sum(b[1].failed) + sum(b[1].retried) - (sum(a[1].failed) + sum(a[1].retried)));
    for (const [origin, c] of entries.slice(0, SUMMARY_ORIGINS)) byOrigin[origin] = c;
    const fields: Record<string, unknown> = { intervalSec: intervalMs / 1000, failed, retried, byOrigin };
    if (entries.length > SUMMARY_ORIGINS) fields.otherOrigins = entries.length - SUMMARY_ORIGINS;
    counts = new Map();
    detailed = new Set();
    overflow = { failed: 0, retried: 0 };
    if (failed > 0) log?.warn('push failures summary', fields);
    else log?.info('push failures summary', fields);
  }

  return {
    failed(origin, cls, detail, loggedElsewhere = false) {
      const c = countsFor(origin);
      if (!c) return void (overflow.failed += 1);
      c.failed[cls] = (c.failed[cls] ?? 0) + 1;
      if (!loggedElsewhere && first(`failed ${origin} ${cls}`)) log?.warn('push failed', { origin, class: cls, ...detail });
    },
    retried(origin, cause) {
      const c = countsFor(origin);
      if (!c) return void (overflow.retried += 1);
      const key = cause in c.retried || Object.keys(c.retried).length < CAUSES ? cause : 'other';
      c.retried[key] = (c.retried[key] ?? 0) + 1;
    },
    paused(origin, detail) {
      const c = countsFor(origin);
      if (c) c.paused += 1;
      if (first(`paused ${origin}`)) log?.warn('push origin paused: most recent requests failed; probing it', { origin, ...detail });
    },
    resumed(origin, detail) {
      const c = countsFor(origin);
      if (c) c.resumed += 1;
      if (first(`resumed ${origin}`)) log?.info('push origin resumed: a probe was answered', { origin, ...detail });
    },
    flush,
  };
}

function sum(counts: Partial<Record<string, number>>): number {
  let n = 0;
  for (const v of Object.values(counts)) n += v ?? 0;
  return n;
}
