// The send path: encrypt every message of a batch on the worker pool, then POST each one over
// the per-origin pool and turn the answer into a final outcome. Retries resend the same body —
// re-encrypting would only burn CPU. A push is retried for a time budget, not a count: a 429
// pauses its origin for Retry-After, and an origin answering 5xx, timeouts or resets to most
// requests is paused as down and probed (origin-gate.ts); the other origins keep going.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Logger } from '../../../shared/src/log.js';
import { createPushClient, PushRequestError, type PushClientOptions } from './client.js';
import { createEncryptPool, type Encryptor } from './encrypt-pool.js';
import { createFailureLog } from './failure-log.js';
import { createOriginGate, type OriginGate, type OutageOptions, type Turn } from './origin-gate.js';
import { failureClassOf } from '../sending/failure-class.js';
import { classifyError, classifyResponse, INVALID_ENDPOINT, INVALID_KEYS, safeReason, SENDER_CLOSED, type Classified } from './outcome.js';
import type { VapidHeaderCache } from './vapid.js';

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';
const URGENCIES: readonly Urgency[] = ['very-low', 'low', 'normal', 'high'];
// RFC 8030 §5.4: at most 32 characters of the URL- and filename-safe base64 alphabet.
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

export interface PushTarget {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** This subscription's own plaintext; default: the job's payload. */
  payload?: string;
}

export interface PushJob {
  payload: string;
  /** Seconds the push service may keep an undelivered message. */
  ttl: number;
  urgency: Urgency;
  /** RFC 8030 Topic; '' sends none. */
  topic: string;
  vapid: VapidHeaderCache;
  subscriptions: readonly PushTarget[];
}

export interface PushResult {
  id: string;
  outcome: 'sent' | 'expired' | 'failed';
  status?: number;
  reason?: string;
  /** POSTs made for this subscription (0 when it was rejected before sending). */
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

export interface PushSenderOptions extends PushClientOptions {
  /**
   * How long a push is retried (5xx, timeouts, resets, 429) from the moment its batch reaches
   * the sender, never past the job's TTL. Default 300 s (PUSH_RETRY_BUDGET_SEC).
   */
  retryBudgetMs?: number;
  /** Safety net on POSTs per subscription, 429s and probes included; the budget normally ends retries first. Default 50. */
  maxAttempts?: number;
  /** Full-jitter exponential backoff after a 5xx, timeout or reset: random() * min(max, base * 2^(n-1)). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** When an origin counts as down and how it is probed (origin-gate.ts). */
  outage?: OutageOptions;
  random?: () => number;
  /** Must resolve early (not reject) when the signal aborts: the sender's close() cuts waits short. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch: deadlines, Retry-After dates. */
  now?: () => number;
  /** Default: a worker pool with one thread per core, owned (and closed) by the sender. */
  encryptor?: Encryptor;
  /** Failures, retries and origin pauses, aggregated per origin and class (failure-log.ts). */
  log?: Logger;
  /** Summary interval of the failure log. Default 10 s. */
  logIntervalMs?: number;
}

const REFUSAL_LOG_EVERY_MS = 60 * 60_000;
const REFUSAL_LOG_ORIGINS = 1000;

export interface PushSender {
  /**
   * Resolves when every push of the batch has a final outcome: retries end by the retry budget
   * (or the job's TTL) after the call, plus one request timeout — queueing for the origin's
   * concurrency aside. Rejects only when encryption as a whole fails (nothing is sent then).
   */
  sendBatch(job: PushJob, hooks?: PushHooks): Promise<PushResult[]>;
  close(): Promise<void>;
}

const defaultSleep = (ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, { signal }).catch(() => {});

export function createPushSender(opts: PushSenderOptions = {}): PushSender {
  const retryBudgetMs = opts.retryBudgetMs ?? 300_000;
  const maxAttempts = opts.maxAttempts ?? 50;
  const baseBackoffMs = opts.baseBackoffMs ?? 500;
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  const concurrency = opts.concurrencyPerOrigin ?? 100;
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');
  if (!(retryBudgetMs >= 0)) throw new RangeError('retryBudgetMs must be zero or more');

  const client = createPushClient(opts);
  let ownedPool: (Encryptor & { close(): Promise<void> }) | undefined;
  const encryptor = (): Encryptor => opts.encryptor ?? (ownedPool ??= createEncryptPool());
  const closing = new AbortController();
  // Every push backing off listens on it: thousands at once is normal, not a leak.
  setMaxListeners(0, closing.signal);
  const failures = createFailureLog(opts.log, { intervalMs: opts.logIntervalMs });
  const gates = new Map<string, OriginGate>();
  // What each origin last answered with a 5xx, timeout or reset: the reason given to a push that
  // waited out its budget while the origin was down, without an attempt of its own.
  const lastTransient = new Map<string, { status?: number; reason: string }>();
  // A refused origin is usually a hostile or broken endpoint repeated across many pushes: one
  // line per origin says it; the per-push results carry the reason to the delivery log.
  const refusalsLogged = new Map<string, number>();
  const noteRefusal = (origin: string, reason: string) => {
    const at = now();
    const last = refusalsLogged.get(origin);
    if (last !== undefined && at - last < REFUSAL_LOG_EVERY_MS) return;
    if (refusalsLogged.size >= REFUSAL_LOG_ORIGINS) refusalsLogged.clear();
    refusalsLogged.set(origin, at);
    opts.log?.warn('push destination refused', { origin, reason });
  };
  const gateFor = (origin: string) => {
    let gate = gates.get(origin);
    if (!gate) {
      gate = createOriginGate(concurrency, { now, sleep, random }, opts.outage, {
        onDown: ({ failures: failed, of, lastReason }) => failures.paused(origin, { failed, of, lastReason }),
        onUp: ({ pausedMs, probes }) => failures.resumed(origin, { pausedSec: Math.round(pausedMs / 100) / 10, probes }),
      });
      gates.set(origin, gate);
    }
    return gate;
  };

  // Headers are the same for every push of a job to one origin: built once per batch and origin
  // (the VAPID header is cached per origin anyway), then shared by those pushes. A later attempt
  // asks the VAPID cache again in case the token is due for renewal by then, and sends what is
  // left of the TTL, so a message delivered late still expires when the first one would have.
  function headersFor(job: PushJob, origin: string, ttl = job.ttl): Record<string, string> {
    const headers: Record<string, string> = {
      TTL: String(ttl),
      Urgency: job.urgency,
      'Content-Encoding': 'aes128gcm',
      'Content-Type': 'application/octet-stream',
      Authorization: job.vapid.headerFor(origin),
    };
    if (job.topic) headers.Topic = job.topic;
    return headers;
  }

  /** `startedAt`: when the batch reached the sender; the push ends by startedAt + min(budget, TTL). */
  async function sendOne(job: PushJob, target: PushTarget, origin: string, body: Buffer, batchHeaders: Record<string, string>, startedAt: number, hooks: PushHooks): Promise<PushResult> {
    const gate = gateFor(origin);
    const limitMs = Math.min(retryBudgetMs, job.ttl * 1000);
    const deadline = startedAt + limitMs;
    let attempts = 0;
    let retries = 0;
    let last: { status?: number; reason: string } | undefined;
    let ambiguous = 0;
    const done = (r: Omit<PushResult, 'id' | 'attempts'>): PushResult => {
      const result: PushResult = { id: target.id, ...r, attempts };
      if (ambiguous > 0) result.ambiguous = ambiguous;
      if (result.outcome === 'failed' && result.reason !== NOT_SENT) {
        const detail = { topic: job.topic, subscriberId: target.id, status: result.status, reason: result.reason, attempts };
        failures.failed(origin, failureClassOf(result) ?? 'unreachable', detail, result.refused);
      }
      return result;
    };
    const giveUp = (why: string, fallback: { status?: number; reason: string }) => {
      const { status, reason } = last ?? fallback;
      return done({ outcome: 'failed', status, reason: `${why}: ${reason}` });
    };
    const budget = `retry budget ${+(limitMs / 1000).toFixed(1)} s${limitMs < retryBudgetMs ? ', the TTL' : ''}`;

    for (;;) {
      let outcome: Classified;
      let turn: Turn = 'send';
      if (!gate.tryAcquire()) await gate.acquire();
      try {
        if (!gate.clear) turn = await gate.waitTurn(deadline);
        if (turn === 'closed') return done({ outcome: 'failed', reason: SENDER_CLOSED });
        if (turn === 'deadline') return giveUp(`gave up after ${attempts} attempts (${budget}; origin down)`, lastTransient.get(origin) ?? { reason: 'push service unavailable' });
        if (turn === 'beyond') return giveUp(`gave up after ${attempts} attempts (${budget}; Retry-After ends after it)`, { status: 429, reason: '429 rate limited' });
        const { beforeSend } = hooks;
        if (attempts === 0 && beforeSend && !(await Promise.resolve(target.id).then(beforeSend).catch(() => false))) {
          gate.report(turn, 'ignored', '');
          return done({ outcome: 'failed', reason: NOT_SENT });
        }
        const ttl = Math.max(0, job.ttl - Math.floor((now() - startedAt) / 1000));
        const headers = attempts === 0 && ttl === job.ttl ? batchHeaders : headersFor(job, origin, ttl);
        attempts += 1;
        try {
          const res = await client.post(target.endpoint, headers, body);
          outcome = classifyResponse(res.status, res.headers, now(), res.statusText);
        } catch (err) {
          if (err instanceof PushRequestError && err.code === 'refused') {
            gate.report(turn, 'ignored', '');
            const reason = safeReason(err.message);
            noteRefusal(origin, reason);
            attempts -= 1;
            return done({ outcome: 'failed', reason, refused: true });
          }
          outcome = err instanceof PushRequestError && err.code === 'closed' ? { kind: 'failed', reason: SENDER_CLOSED } : classifyError(err);
        }
        if (outcome.kind === 'sent') gate.report(turn, 'answered', '');
        else gate.report(turn, outcome.kind === 'retry' ? 'transient' : outcome.reason === SENDER_CLOSED ? 'ignored' : 'answered', outcome.reason);
      } finally {
        gate.release();
      }
      switch (outcome.kind) {
        case 'sent':
          return done({ outcome: 'sent', status: outcome.status });
        case 'expired':
        case 'failed':
          return done({ outcome: outcome.kind, status: outcome.status, reason: outcome.reason });
        case 'rate-limited':
          last = { status: outcome.status, reason: outcome.reason };
          if (attempts >= maxAttempts) return giveUp(`gave up after ${attempts} attempts (the attempt limit)`, last);
          failures.retried(origin, String(outcome.status));
          gate.rateLimit(outcome.retryAfterMs);
          break;
        case 'retry':
          last = { status: outcome.status, reason: outcome.reason };
          lastTransient.set(origin, last);
          if (outcome.maybeAccepted) ambiguous += 1;
          if (now() >= deadline) return giveUp(`gave up after ${attempts} attempts (${budget})`, last);
          if (attempts >= maxAttempts) return giveUp(`gave up after ${attempts} attempts (the attempt limit)`, last);
          // By cause: the status, or the client's error code that starts the reason (`timeout: …`).
          failures.retried(origin, outcome.status !== undefined ? String(outcome.status) : outcome.reason.split(':', 1)[0].slice(0, 20));
          // A down origin is waited for at the gate (its probes are the backoff); otherwise this
          // push backs off on its own, never past its deadline.
          if (!gate.down) {
            const backoff = random() * Math.min(maxBackoffMs, baseBackoffMs * 2 ** retries);
            retries += 1;
            await sleep(Math.min(backoff, deadline - now()), closing.signal);
          }
          break;
      }
      if (closing.signal.aborted) return done({ outcome: 'failed', reason: SENDER_CLOSED });
    }
  }

  return {
    async sendBatch(job, hooks = {}) {
      validateJob(job);
      const startedAt = now();
      const results = new Array<PushResult>(job.subscriptions.length);
      const sendable: Array<{ index: number; origin: string }> = [];
      const settle = (index: number, result: PushResult) => {
        results[index] = result;
        try {
          hooks.onResult?.(result);
        } catch (err) {
          opts.log?.error('push result hook failed', { err });
        }
      };
      const rejected = (index: number, origin: string, reason: string) => {
        const target = job.subscriptions[index];
        settle(index, { id: target.id, outcome: 'failed', reason, attempts: 0 });
        failures.failed(origin, 'refused', { topic: job.topic, subscriberId: target.id, reason });
      };
      job.subscriptions.forEach((target, index) => {
        const origin = pushOrigin(target.endpoint);
        if (origin) sendable.push({ index, origin });
        else rejected(index, 'invalid', INVALID_ENDPOINT);
      });
      const bodies = await encryptor().encryptBatch(
        job.payload,
        sendable.map(({ index }) => job.subscriptions[index]),
      );
      const headersByOrigin = new Map<string, Record<string, string>>();
      await Promise.all(
        sendable.map(async ({ index, origin }, i) => {
          const target = job.subscriptions[index];
          if (bodies[i].length === 0) return rejected(index, origin, INVALID_KEYS);
          let headers = headersByOrigin.get(origin);
          if (!headers) headersByOrigin.set(origin, (headers = headersFor(job, origin)));
          settle(index, await sendOne(job, target, origin, bodies[i], headers, startedAt, hooks));
        }),
      );
      return results;
    },
    async close() {
      closing.abort();
      for (const gate of gates.values()) gate.close();
      await client.close();
      await ownedPool?.close();
      failures.flush();
    },
  };
}

function pushOrigin(endpoint: string): string | undefined {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function validateJob(job: PushJob): void {
  if (!Number.isInteger(job.ttl) || job.ttl < 0) throw new RangeError('ttl must be a non-negative integer');
  if (!URGENCIES.includes(job.urgency)) throw new RangeError(`urgency must be one of ${URGENCIES.join(', ')}`);
  if (job.topic !== '' && !TOPIC.test(job.topic)) throw new RangeError('topic must be 1-32 base64url characters');
}
