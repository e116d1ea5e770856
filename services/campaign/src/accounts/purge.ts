// Removes what the console no longer needs: ended sessions, links a day past their expiry, login
// failures out of the throttle's windows and remembered login addresses past their retention. Correctness never depends on it (every read checks
// the times itself); it only keeps the tables small.
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { purgeEnded } from './account-store.js';
import { KNOWN_ADDRESSES, LOGIN_THROTTLE } from './throttle.js';

export function createConsolePurge(deps: { pool: Pool; log: Logger }, opts: { intervalMs: number }) {
  async function tick(): Promise<number> {
    const n = await purgeEnded(deps.pool, {
      failureWindowSeconds: Math.max(LOGIN_THROTTLE.windowSeconds, LOGIN_THROTTLE.pairWindowSeconds),
      addressRetentionDays: KNOWN_ADDRESSES.retentionDays,
    });
    if (n > 0) deps.log.info('purged ended console sessions, links, login failures and addresses', { count: n });
    return n;
  }
  const loop = createPeriodic(tick, { intervalMs: opts.intervalMs, onError: (err) => deps.log.error('console purge failed', { err }) });
  return { tick, start: loop.start, stop: loop.stop };
}
