// Delivery-log writes retried while Postgres is unreachable or restarting: a push already made
// must not lose its outcome to a dropped connection, and a chunk should ride out a restart
// rather than be handed back to Kafka at the first error. Bounded: after `budgetMs` (or when
// the service stops) the error goes up and the chunk is retried by Kafka, which resumes it.
import type { Logger } from '@webpush/shared/log.js';
import { isTransientDbError } from './transient-errors.js';

export interface RetryPolicy {
  /** Time from the first failure after which the error is given up to the caller; 0: no retry. */
  budgetMs: number;
  /** Aborted when the service stops: no further attempts. */
  signal?: AbortSignal;
  log?: Logger;
  random?: () => number;
}

const FIRST_DELAY_MS = 50;
const MAX_DELAY_MS = 2000;

export async function retrying<T>(what: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  const random = policy.random ?? Math.random;
  let giveUpAt: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await fn();
      if (attempt > 1) policy.log?.info('database write succeeded after retries', { what, attempts: attempt });
      return result;
    } catch (err) {
      if (!isTransientDbError(err) || policy.signal?.aborted) throw err;
      giveUpAt ??= Date.now() + policy.budgetMs;
      // Exponential with jitter, so instances do not come back in lockstep.
      const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1)) * (0.5 + random() / 2);
      if (Date.now() + delay > giveUpAt) throw err;
      if (attempt === 1) policy.log?.warn('database write failed; retrying', { what, err });
      await abortableSleep(delay, policy.signal);
    }
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
