// Maps a push service's answer (RFC 8030 §5, plus what FCM, Mozilla autopush, WNS and Apple
// actually send) to what the sender does next. Pure: no I/O, the clock is passed in.
// A reason is stored in the delivery log and logged, so it is built from the status and our
// own labels only — never from a push service's body — and bounded to safe characters.
import type { FailureClass } from '@webpush/contracts/messages.js';
import { PushRequestError, safeStatusText } from './client.js';
import type { PushResult } from './types.js';

export type Classified =
  | { kind: 'sent'; status: number }
  | { kind: 'expired'; status: number; reason: string }
  | { kind: 'rate-limited'; status: number; retryAfterMs: number; reason: string }
  /** `maybeAccepted`: the request broke after it went out; the push service may have taken it. */
  | { kind: 'retry'; status?: number; reason: string; maybeAccepted?: true }
  | { kind: 'failed'; status?: number; reason: string };

export const DEFAULT_RETRY_AFTER_MS = 60_000;
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
const REASON_CHARS = 200;

/**
 * `statusText` is the push service's reason phrase; it is used only for a status we have no
 * label for, and only after safeStatusText has reduced it.
 */
export function classifyResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  nowMs: number = Date.now(),
  statusText = '',
): Classified {
  if (status >= 200 && status < 300) return { kind: 'sent', status };
  const reason = statusLine(status, statusText);
  if (status === 404 || status === 410) return { kind: 'expired', status, reason };
  if (status === 429) {
    return { kind: 'rate-limited', status, retryAfterMs: parseRetryAfter(headers['retry-after'], nowMs), reason };
  }
  if (status >= 500 && status < 600) return { kind: 'retry', status, reason };
  return { kind: 'failed', status, reason };
}

// Timeouts and resets after the request went out are ambiguous (the push service may have
// accepted the message), but RFC 8030's Topic header makes a repeat replace the first copy, so
// resending is the safer side — marked, so that the resend is counted ambiguous.
// A refused destination is final: the same endpoint would be refused again.
export function classifyError(err: unknown): Classified {
  if (err instanceof PushRequestError) {
    const reason = safeReason(err.message);
    if (err.code === 'refused') return { kind: 'failed', reason };
    return err.maybeAccepted ? { kind: 'retry', reason: `${err.code}: ${reason}`, maybeAccepted: true } : { kind: 'retry', reason: `${err.code}: ${reason}` };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'retry', reason: `network: ${safeReason(message)}` };
}

/** Reasons of failures the sender decides itself. */
export const INVALID_ENDPOINT = 'invalid endpoint URL';
export const INVALID_KEYS = 'invalid subscription keys';
export const SENDER_CLOSED = 'sender closed';

/** Reasons the sender gives a push it could not even build: the stored subscription is unusable. */
const UNUSABLE: ReadonlySet<string | undefined> = new Set([INVALID_ENDPOINT, INVALID_KEYS]);

/**
 * Why a push failed, in the few classes a site owner can act on (the campaign's
 * `delivery.failedBy` in the API), from the final result only: the status the push service last
 * answered, or whether the platform refused the destination or could not use the stored
 * subscription. Null for a push that did not fail (sent, or expired: 404/410).
 */
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

/** Error text (Node's, which may quote what a server sent) as one bounded line of printable ASCII. */
export function safeReason(text: string): string {
  return text.replace(/[^\x20-\x7e]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, REASON_CHARS);
}

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3), clamped to [0, 10 min]. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number {
  const raw = value?.trim();
  if (!raw) return DEFAULT_RETRY_AFTER_MS;
  let ms: number;
  if (/^\d+$/.test(raw)) {
    ms = Number(raw) * 1000;
  } else {
    const at = Date.parse(raw);
    if (Number.isNaN(at) || !/[a-z]/i.test(raw)) return DEFAULT_RETRY_AFTER_MS;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** `404 subscription not found`; a status without a label shows the reason phrase, reduced. */
export function statusLine(status: number, statusText = ''): string {
  const code = Number.isInteger(status) && status >= 100 && status <= 999 ? String(status) : 'invalid status';
  const label = STATUS_LABELS[status] ?? (safeStatusText(statusText) || 'unexpected status');
  return `${code} ${label}`;
}

const STATUS_LABELS: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized (VAPID)',
  403: 'forbidden (VAPID key mismatch)',
  404: 'subscription not found',
  410: 'subscription gone',
  413: 'payload too large',
  429: 'rate limited',
  500: 'push service error',
  502: 'bad gateway',
  503: 'push service unavailable',
  504: 'gateway timeout',
};
