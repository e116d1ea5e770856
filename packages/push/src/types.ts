// What goes into the push path and what comes out of it: one job of one site's pushes, one
// result per push, and the per-push hooks of a caller that records progress push by push.
// The sender (sender.ts), the chunk worker, failure classes and the tests all use these.
import type { Urgency } from '@webpush/contracts/urgency.js';
import type { VapidHeaderCache } from './vapid.js';

/** RFC 8030's values (@webpush/contracts urgency.ts: a campaign's urgency travels in its dispatch message). */
export type { Urgency };

export interface PushTarget {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** This subscription's own plaintext; default: the job's payload. */
  payload?: string;
}

export interface PushJob {
  /** The plaintext of every target without a payload of its own. */
  payload: string;
  /** Seconds the push service may keep an undelivered message. */
  ttl: number;
  /**
   * How long this job's pushes are retried, when shorter than the sender's retry budget (a
   * console test push answers while its caller waits). Default: the sender's.
   */
  retryBudgetMs?: number;
  urgency: Urgency;
  /** RFC 8030 Topic; '' sends none. */
  topic: string;
  /** The site's VAPID signer (sites/vapid-signers.ts gives one per site). */
  vapid: VapidHeaderCache;
  subscriptions: readonly PushTarget[];
  /** Encrypted ahead of jobs without it (encryption/pool.ts EncryptOptions.urgent): a notification to a person, a few pushes someone waits for. */
  urgent?: boolean;
}

export interface PushResult {
  id: string;
  outcome: 'sent' | 'expired' | 'failed';
  /** The push service's last answer, when there was one. */
  status?: number;
  reason?: string;
  /** POSTs made for this subscription (0 when it was rejected or withheld before sending). */
  attempts: number;
  /** The destination policy refused the endpoint (already logged, once per origin). */
  refused?: true;
  /**
   * An attempt broke after the request went out (a reset or a timeout on a live connection):
   * the push service may have accepted it, so a `sent` may be a second copy and a `failed` may
   * have been delivered. How many attempts broke so: each may have left a copy, so each counts
   * as ambiguous (a push reset twice after being accepted arrives three times).
   */
  ambiguous?: number;
}

/** Per-push calls for a caller that records progress push by push (the chunk worker). */
export interface PushHooks {
  /**
   * Right before the first request of a push (after any wait for its origin): false, or a
   * rejection, withholds it — the push ends `failed` with reason NOT_SENT and no request.
   */
  beforeSend?(id: string): Promise<boolean> | boolean;
  /** Once per push, as soon as its outcome is final (before sendBatch resolves). Must not throw. */
  onResult?(result: PushResult): void;
}

/** The reason of a push withheld by PushHooks.beforeSend. */
export const NOT_SENT = 'not sent';
