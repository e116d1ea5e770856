// The cap on concurrent password hashes (docs/console.md, "Logging in"). scrypt runs on libuv's
// thread pool (4 threads by default, shared with DNS lookups and file reads); left uncapped, a
// flood of wrong logins queues there and every login, the owners' too, waits past the gateway's
// deadline and answers 500. So each process runs at most `shared` hashes for logins from
// addresses the account has not logged in from, plus `reserved` kept for those it has (the
// owners, from their usual place), and lets a few wait; beyond that a login is refused at once
// (PasswordChecksBusyError: 429 with Retry-After) and costs nothing.
import { PasswordChecksBusyError } from './errors.js';

/**
 * `known`: an address the account logged in from before, or a caller who proved a secret (a
 * one-time link); `other`: everyone else, unknown emails included (their dummy hash is one too).
 */
export type Lane = 'known' | 'other';

export const PASSWORD_CHECKS = Object.freeze({
  /** Hashes at once for the `other` lane: one of the pool's four threads (one core at most for a flood). */
  shared: 1,
  /** A second thread only the `known` lane may take (it may take the shared one too). */
  reserved: 1,
  /** Logins waiting per lane; at ~60–300 ms a hash, a wait stays well under a second or two. */
  waiting: { known: 8, other: 4 },
  /** What a refused login is told to wait. */
  retryAfterSeconds: 2,
});

interface Waiter {
  start(): void;
}

export function createPasswordGate(limits: typeof PASSWORD_CHECKS = PASSWORD_CHECKS) {
  let running = 0;
  let runningOther = 0;
  const queues: Record<Lane, Waiter[]> = { known: [], other: [] };

  const fits = (lane: Lane) => (lane === 'known' ? running < limits.shared + limits.reserved : running < limits.shared + limits.reserved && runningOther < limits.shared);

  function take(lane: Lane): void {
    running++;
    if (lane === 'other') runningOther++;
  }

  /** A slot freed: the known lane's first waiter goes first, then the other lane's. */
  function release(lane: Lane): void {
    running--;
    if (lane === 'other') runningOther--;
    for (const next of ['known', 'other'] as const) {
      if (queues[next].length > 0 && fits(next)) {
        take(next);
        queues[next].shift()!.start();
        return;
      }
    }
  }

  return {
    /** `hash()` when a slot is free or soon; PasswordChecksBusyError, at once, when not. */
    async run<T>(lane: Lane, hash: () => Promise<T>): Promise<T> {
      if (fits(lane) && queues[lane].length === 0) take(lane);
      else if (queues[lane].length < limits.waiting[lane]) await new Promise<void>((start) => queues[lane].push({ start }));
      else throw new PasswordChecksBusyError(limits.retryAfterSeconds);
      try {
        return await hash();
      } finally {
        release(lane);
      }
    },
  };
}

export type PasswordGate = ReturnType<typeof createPasswordGate>;
