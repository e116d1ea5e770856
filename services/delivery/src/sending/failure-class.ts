// Why a push failed, in the few classes a site owner can act on (the campaign's `delivery.failedBy`
// in the API). Derived from the final result only: the status the push service last answered,
// or whether the platform refused the destination or could not use the stored subscription.
import type { FailureClass } from '../../../shared/src/messages.js';
import { INVALID_ENDPOINT, INVALID_KEYS } from '../push/outcome.js';
import type { PushResult } from '../push/types.js';

/** Reasons the sender gives a push it could not even build: the stored subscription is unusable. */
const UNUSABLE: ReadonlySet<string | undefined> = new Set([INVALID_ENDPOINT, INVALID_KEYS]);

/** The class of a failed push; null for a push that did not fail (sent, or expired: 404/410). */
export function failureClassOf(r: Pick<PushResult, 'outcome' | 'status' | 'reason' | 'refused'>): FailureClass | null {
  if (r.outcome !== 'failed') return null;
  if (r.refused || UNUSABLE.has(r.reason)) return 'refused';
  const status = r.status;
  // No answer at all: timeouts, resets, or waiting behind a down origin until the budget ran out.
  if (status === undefined) return 'unreachable';
  if (status === 401 || status === 403) return 'unauthorized';
  // 429 or 5xx as the last answer: the push service kept answering "later" until the budget ran out.
  if (status === 429 || status >= 500) return 'unreachable';
  return 'rejected';
}
