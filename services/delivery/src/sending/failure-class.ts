// Why a push failed, in the few classes a site owner can act on (the campaign's `delivery.failedBy`
// in the API). Derived from the final result only: the status the push service last answered,
// whether the platform refused the destination, whether anything was sent at all.
import type { FailureClass } from '../../../shared/src/messages.js';

export interface FinalResult {
  outcome: 'sent' | 'expired' | 'failed';
  status?: number;
  /** The destination policy refused the endpoint. */
  refused?: true;
  /** POSTs made (0: the stored subscription could not be used, nothing was sent). */
  attempts?: number;
}

/** The class of a failed push; null for a push that did not fail (sent, or expired: 404/410). */
export function failureClassOf(r: FinalResult): FailureClass | null {
  if (r.outcome !== 'failed') return null;
  if (r.refused) return 'refused';
  const status = r.status;
  if (status === undefined) return r.attempts === 0 ? 'refused' : 'unreachable';
  if (status === 401 || status === 403) return 'unauthorized';
  // 429 or 5xx as the last answer: the push service kept answering "later" until the budget ran out.
  if (status === 429 || status >= 500) return 'unreachable';
  return 'rejected';
}
