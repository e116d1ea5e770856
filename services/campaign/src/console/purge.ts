// Removes what the console no longer needs: ended sessions, links a day past their expiry and
// login failures out of the throttle's window. Correctness never depends on it (every read checks
// the times itself); it only keeps the tables small.
import type { Pool } from '../../../shared/src/db.js';
import type { Logger } from '../../../shared/src/log.js';
import { createPeriodic } from '../../../shared/src/periodic.js';
import { purgeEnded } from './account-store.js';
import { LOGIN_THROTTLE } from './throttle.js';

export function createConsolePurge(deps: { pool: Pool; log: Logger }, opts: { intervalMs: number }) {
  async function tick(): Promise<number> {
    const n = await purgeEnded(deps.pool, LOGIN_THROTTLE.windowSeconds);
    if (n > 0) deps.log.info('purged ended console sessions, links and login failures', { count: n });
    return n;
  }
  const loop = createPeriodic(tick, { intervalMs: opts.intervalMs, onError: (err) => deps.log.error('console purge failed', { err }) });
  return { tick, start: loop.start, stop: loop.stop };
}
