// kafkajs 2.2.4 (its last release) keeps every broker connection busy while nothing happens: its
// request queue re-arms a "check pending requests" timer after every check, and with no client
// throttling the delay is negative, so the timer fires again after 1 ms, forever — about a
// thousand callbacks a second per connection (tulios/kafkajs#1556, #1704; the fix proposed in
// #1667 was never released). Here that cost 4–6 % of a core in each idle service and was paid
// during every campaign too. The replacement below is 2.2.4's method with one change: a check
// is scheduled only when a request is waiting. Nothing else needs one: a request that cannot go
// at once is queued and schedules its own check (at the end of a throttle, or after the usual
// interval), and a finished request checks the queue itself.
//
// The way back: KAFKAJS_REQUEST_QUEUE_FIX=false (docs/configuration.md) runs kafkajs as released;
// another kafkajs version is never patched (the services log it and run it as released), so an
// upgrade or a replacement of kafkajs needs no change here, only this file's removal once fixed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const PATCHED_VERSION = '2.2.4';
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

/** The parts of kafkajs's RequestQueue this fix reads and replaces. */
export interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** The request-queue class of the installed kafkajs (an internal module; the version is pinned). */
export const RequestQueue: { prototype: RequestQueueInternals } = require('kafkajs/src/network/requestQueue/index.js');

/** The installed kafkajs's version. */
export const KAFKAJS_VERSION: string = require('kafkajs/package.json').version;

const released = RequestQueue.prototype.scheduleCheckPendingRequests;

/**
 * Applies the fix to every request queue of this process (idempotent): true when applied, false
 * when the installed kafkajs is another version than the one patched (a newer one may have fixed
 * or reshaped this method: look again before carrying the patch over), which runs as released.
 */
export function fixRequestQueue(): boolean {
  if (KAFKAJS_VERSION !== PATCHED_VERSION) return false;
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}

/** kafkajs's own method again (the tests compare the two). */
export function releasedRequestQueue(): void {
  RequestQueue.prototype.scheduleCheckPendingRequests = released;
}

function scheduleCheckPendingRequests(this: RequestQueueInternals) {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const untilUnthrottled = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL,
  );
}
