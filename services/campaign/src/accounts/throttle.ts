// Login throttling without a lock and without user enumeration (docs/security.md, "Console
// logins"). Failures are counted by the SHA-256 of the email as it was tried, whether or not it
// is an account, so every answer is the same for every email; kept in Postgres, so every
// instance sees the same counts. Three counts, none of which keeps an account's owner out:
// - the pair (email, client address): after `pairFree` failures, each next attempt from that
//   address for that email waits 2^(n − pairFree + 1) s after the last failure (2, 4, 8 … s),
//   at most `maxDelaySeconds`; a success there forgets the pair's failures. Someone guessing at
//   one address slows only themselves;
// - the address, any email: `addressLimit` failures within `windowSeconds` (a NAT's worth);
// - the email, any address: `emailLimit` failures within `windowSeconds` (a spread-out guess);
// the last two hold back only addresses the account has not logged in from before: an address
// it has (remembered as a hash, `KNOWN_ADDRESSES`) gets through a flood from anywhere else.
import { createHash } from 'node:crypto';
import type { Queryable } from '@webpush/shared/db.js';
import { clearPairFailures, insertLoginFailure, loginStanding } from './account-store.js';
import { TooManyLoginsError } from './errors.js';

export const LOGIN_THROTTLE = Object.freeze({
  pairFree: 3,
  maxDelaySeconds: 15 * 60,
  /** A pair's failures count for a day, so the delay cannot shrink while someone keeps trying. */
  pairWindowSeconds: 24 * 3600,
  addressLimit: 30,
  emailLimit: 50,
  windowSeconds: 15 * 60,
});

/** The addresses an account logged in from that the throttle trusts: the latest few, for a while. */
export const KNOWN_ADDRESSES = Object.freeze({ perUser: 10, retentionDays: 90 });

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** How a known address is stored: hashed with the email (a short list per user, never the address itself). */
export const knownAddressHash = (email: string, address: string) => sha256Hex(`${email}\n${address}`);

/** The wait after a pair's `failures`-th failure, in seconds (0 below `pairFree`). */
export function pairDelaySeconds(failures: number): number {
  if (failures < LOGIN_THROTTLE.pairFree) return 0;
  return Math.min(2 ** (failures - LOGIN_THROTTLE.pairFree + 1), LOGIN_THROTTLE.maxDelaySeconds);
}

export function createLoginThrottle(db: Queryable) {
  return {
    /** Throws TooManyLoginsError while the pair waits, or, for an address not `known`, the address or the email is at its limit. */
    async check(email: string, address: string, known: boolean): Promise<void> {
      const s = await loginStanding(db, { emailHash: sha256Hex(email), address, ...LOGIN_THROTTLE });
      const waits = [s.pairFailures > 0 ? pairDelaySeconds(s.pairFailures) - s.sinceLastPairFailure : 0];
      if (!known) waits.push(s.addressWait ?? 0, s.emailWait ?? 0);
      const wait = Math.max(...waits);
      if (wait > 0) throw new TooManyLoginsError(Math.max(1, Math.ceil(wait)));
    },
    async fail(email: string, address: string): Promise<void> {
      await insertLoginFailure(db, sha256Hex(email), address);
    },
    /** A success forgets the pair's failures (the address's and the email's elsewhere stay counted). */
    async succeed(email: string, address: string): Promise<void> {
      await clearPairFailures(db, sha256Hex(email), address);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
