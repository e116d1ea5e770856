// Login throttling without user enumeration (docs/console.md): after 5 failures for an email, or
// 20 from one client address, within 15 minutes, further attempts are refused until the oldest
// failure that keeps the count at its limit leaves the window. Failures are counted by the
// SHA-256 of the email as it was tried, whether or not it is an account, so the refusal is the
// same for every email. Kept in Postgres: every gateway and campaign instance sees the same count.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../../shared/src/db.js';
import { clearLoginFailures, insertLoginFailure, throttledUntil } from './account-store.js';
import { TooManyLoginsError } from './errors.js';

export const LOGIN_THROTTLE = Object.freeze({ emailLimit: 5, addressLimit: 20, windowSeconds: 15 * 60 });

const emailHash = (email: string) => createHash('sha256').update(email, 'utf8').digest('hex');

export function createLoginThrottle(db: Queryable, now: () => number = Date.now) {
  return {
    /** Throws TooManyLoginsError when the email or the address is at its limit. */
    async check(email: string, address: string): Promise<void> {
      const until = await throttledUntil(db, { emailHash: emailHash(email), address, ...LOGIN_THROTTLE });
      if (until) throw new TooManyLoginsError(Math.max(1, Math.ceil((until.getTime() - now()) / 1000)));
    },
    async fail(email: string, address: string): Promise<void> {
      await insertLoginFailure(db, emailHash(email), address);
    },
    /** A successful login forgets the email's failures (the address's stay). */
    async succeed(email: string): Promise<void> {
      await clearLoginFailures(db, emailHash(email));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
