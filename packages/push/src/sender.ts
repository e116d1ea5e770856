// The push path: encrypt every message of a batch on the worker pool, then POST each one to its
// push service (client.ts: HTTP/2 connections per origin, opened as the streams in use need)
// and turn the answer into a final outcome. Retries resend the same body — re-encrypting would
// only burn CPU. How many requests are in flight to one origin is decided in one place, its
// gate (origin-gate.ts): a limit read from the answers' latency, up to PUSH_CONCURRENCY_PER_ORIGIN. A push is retried for
// a time budget, not a count: a 429 pauses its origin for Retry-After, and an origin answering
// 5xx, timeouts or resets to most requests is paused as down and probed; the other origins keep
// going.
//
// Memory: the sender holds no queue of its own. Every push waiting for its origin's slot belongs
// to a batch a caller handed to sendBatch and is waiting for, so what waits is bounded by those
// batches (the chunk worker: 2 × CHUNK_CONCURRENCY × CLAIM_BATCH_SIZE pushes per instance).
import { setMaxListeners } from 'node:events';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Logger } from '@webpush/shared/log.js';
import { createPushClient, PushRequestError, type PushClientOptions } from './client.js';
import { createEncryptPool, type EncryptPoolOptions, type Encryptor } from './encryption/pool.js';
import { createFailureLog } from './failure-log.js';
import type { PushMetrics } from './metrics.js';
import { createOriginGate, type AttemptResult, type OriginGate, type OutageOptions, type Turn } from './origin-gate.js';
import { classifyError, classifyResponse, failureClassOf, INVALID_ENDPOINT, INVALID_KEYS, safeReason, SENDER_CLOSED, type Classified } from './outcome.js';
import { NOT_SENT, type PushHooks, type PushJob, type PushResult } from './types.js';
import { URGENCIES } from '@webpush/contracts/urgency.js';

export { NOT_SENT, type PushHooks, type PushJob, type PushResult, type PushTarget, type Urgency } from './types.js';

// RFC 8030 §5.4: at most 32 characters of the URL- and filename-safe base64 alphabet.
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

export interface PushSenderOptions extends Omit<PushClientOptions, 'http1SocketsPerOrigin'> {
  /**
   * The ceiling of each origin's adaptive in-flight limit (origin-gate.ts). Default 3000
   * (PUSH_CONCURRENCY_PER_ORIGIN): at 150 ms per answer up to ~20,000 pushes/s to one origin,
   * so that at such a latency this cap is not what holds the sender back. With 2000 it was: a
   * machine pushing 12,000–15,000 a second to a near push service got 9,700–10,600 to a 150 ms
   * one (docs/history/performance-log.md).
   */
  concurrencyPerOrigin?: number;
  /** Where each origin's limit starts; default 20 (origin-gate.ts LIMIT.start), or concurrencyPerOrigin when lower. */
  initialConcurrency?: number;
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
  /** Default: a worker pool made on the first push (encryptionPool), owned (and closed) by the sender. */
  encryptor?: Encryptor;
  /** Settings of that pool (ENCRYPTION_WORKERS, ENCRYPTION_ENGINE); default one thread per core, the addon if built. */
  encryptionPool?: EncryptPoolOptions;
  /** Failures, retries and origin pauses, aggregated per origin and class (failure-log.ts). */
  log?: Logger;
  /** Summary interval of the failure log. Default 10 s. */
  logIntervalMs?: number;
  /** Every request's answer and latency, every retry and every push's outcome, by push service (metrics.ts). */
  metrics?: Pick<PushMetrics, 'attempt' | 'retried' | 'pushed'>;
}

const REFUSAL_LOG_EVERY_MS = 60 * 60_000;
const REFUSAL_LOG_ORIGINS = 1000;

export interface PushSender {
  /**
   * Resolves when every push of the batch has a final outcome: retries end by the retry budget
   * (or the job's TTL) after the call, plus one connection and one request timeout — queueing
   * for the origin's concurrency aside. Rejects only when encryption as a whole fails (nothing is sent then).
   */
  sendBatch(job: PushJob, hooks?: PushHooks): Promise<PushResult[]>;
  /** An origin's in-flight limit now (origin-gate.ts), undefined before its first push: for metrics and tests. */
  limitFor(origin: string): number | undefined;
  close(): Promise<void>;
}

/** What a push needs of its job once encrypted: everything but the targets and the plaintext. */
type JobHead = Omit<PushJob, 'payload' | 'subscriptions'>;

function jobHead({ ttl, retryBudgetMs, urgency, topic, vapid }: PushJob): JobHead {
  return { ttl, retryBudgetMs, urgency, topic, vapid };
}

/** A batch encrypted and ready to send (prepareBatch). */
interface PreparedBatch {
  head: JobHead;
  startedAt: number;
  results: PushResult[];
  settle(index: number, result: PushResult): void;
  pushes: Array<{ index: number; id: string; url: URL; origin: string }>;
  /** The pushes' bodies, in their order. */
  bodies: Buffer[];
}

const defaultSleep = (ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, { signal }).catch(() => {});

export function createPushSender(opts: PushSenderOptions = {}): PushSender {
  const retryBudgetMs = opts.retryBudgetMs ?? 300_000;
  const maxAttempts = opts.maxAttempts ?? 50;
  const baseBackoffMs = opts.baseBackoffMs ?? 500;
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  const ceiling = opts.concurrencyPerOrigin ?? 3000;
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');
  if (!(retryBudgetMs >= 0)) throw new RangeError('retryBudgetMs must be zero or more');
  if (!Number.isInteger(ceiling) || ceiling < 1) throw new RangeError('concurrencyPerOrigin must be a positive integer');
  const initial = opts.initialConcurrency;
  if (initial !== undefined && !(Number.isInteger(initial) && initial >= 1 && initial <= ceiling)) {
    throw new RangeError('initialConcurrency must be an integer from 1 to concurrencyPerOrigin');
  }

  // The gate never lets more than the ceiling through, so HTTP/1.1 sockets capped at it never queue.
  const client = createPushClient({ ...opts, http1SocketsPerOrigin: ceiling });
  let ownedPool: (Encryptor & { close(): Promise<void> }) | undefined;
  const encryptor = (): Encryptor => opts.encryptor ?? (ownedPool ??= createEncryptPool(opts.encryptionPool));
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
      gate = createOriginGate({ ceiling, initial, timeoutMs: opts.timeoutMs }, { now, sleep, random }, opts.outage, {
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
  function headersFor(job: JobHead, origin: string, ttl = job.ttl): Record<string, string> {
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

  /** A push's final result: a failure is logged, and every outcome counted, except a push withheld by beforeSend. */
  function finish(job: JobHead, id: string, origin: string, r: Omit<PushResult, 'id' | 'attempts'>, attempts: number, ambiguous: number): PushResult {
    const result: PushResult = { id, ...r, attempts };
    if (ambiguous > 0) result.ambiguous = ambiguous;
    if (result.reason === NOT_SENT) return result;
    if (result.outcome === 'failed') {
      const detail = { topic: job.topic, subscriberId: id, status: result.status, reason: result.reason, attempts };
      failures.failed(origin, failureClassOf(result) ?? 'unreachable', detail, result.refused);
    }
    opts.metrics?.pushed(origin, result.outcome);
    return result;
  }

  /** A push that gave up: why, then the last answer it had. */
  function gaveUp(job: JobHead, id: string, origin: string, why: string, answer: { status?: number; reason: string }, attempts: number, ambiguous: number): PushResult {
    return finish(job, id, origin, { outcome: 'failed', status: answer.status, reason: `${why}: ${answer.reason}` }, attempts, ambiguous);
  }

  /** The retry budget in a give-up reason: made only for the pushes (few) that give up. */
  const budgetWords = (limitMs: number, job: JobHead) => `retry budget ${+(limitMs / 1000).toFixed(1)} s${limitMs < retryBudgetMs && limitMs === job.ttl * 1000 ? ', the TTL' : ''}`;

  /** `startedAt`: when the batch reached the sender; the push ends by startedAt + min(budget, TTL). */
  async function sendOne(job: JobHead, id: string, url: URL, origin: string, body: Buffer, batchHeaders: Record<string, string>, startedAt: number, hooks: PushHooks): Promise<PushResult> {
    const gate = gateFor(origin);
    const limitMs = Math.min(retryBudgetMs, job.retryBudgetMs ?? retryBudgetMs, job.ttl * 1000);
    const deadline = startedAt + limitMs;
    let attempts = 0;
    let retries = 0;
    let last: { status?: number; reason: string } | undefined;
    let ambiguous = 0;
    // No closures in here: what they would capture would move from this frame into a context
    // object of its own, one more allocation per push (finish and gaveUp, above, take what they need).

    for (;;) {
      let outcome: Classified;
      let turn: Turn = 'send';
      if (!gate.tryAcquire()) await gate.acquire();
      try {
        if (!gate.clear) turn = await gate.waitTurn(deadline);
        if (turn === 'closed') return finish(job, id, origin, { outcome: 'failed', reason: SENDER_CLOSED }, attempts, ambiguous);
        if (turn === 'deadline') return gaveUp(job, id, origin, `gave up after ${attempts} attempts (${budgetWords(limitMs, job)}; origin down)`, last ?? lastTransient.get(origin) ?? { reason: 'push service unavailable' }, attempts, ambiguous);
        if (turn === 'beyond') return gaveUp(job, id, origin, `gave up after ${attempts} attempts (${budgetWords(limitMs, job)}; Retry-After ends after it)`, last ?? { status: 429, reason: '429 rate limited' }, attempts, ambiguous);
        if (attempts === 0 && hooks.beforeSend) {
          // A throw or a rejection withholds the push, as false does.
          let allowed: boolean;
          try {
            allowed = Boolean(await hooks.beforeSend(id));
          } catch {
            allowed = false;
          }
          if (!allowed) {
            gate.report(turn, 'ignored', '', 0);
            return finish(job, id, origin, { outcome: 'failed', reason: NOT_SENT }, attempts, ambiguous);
          }
        }
        const ttl = Math.max(0, job.ttl - Math.floor((now() - startedAt) / 1000));
        const headers = attempts === 0 && ttl === job.ttl ? batchHeaders : headersFor(job, origin, ttl);
        attempts += 1;
        // Wall-clock time of the request itself (`now` may be a test's fake clock): what the
        // gate reads congestion from.
        const sentAt = performance.now();
        let tookMs: number;
        try {
          const res = await client.post(url, headers, body);
          tookMs = performance.now() - sentAt;
          opts.metrics?.attempt(origin, res.status, tookMs / 1000);
          outcome = classifyResponse(res.status, res.headers, now(), res.statusText);
        } catch (err) {
          tookMs = performance.now() - sentAt;
          // A refused destination or a closing sender made no request worth measuring.
          const code = err instanceof PushRequestError ? err.code : 'network';
          if (code !== 'refused' && code !== 'closed') opts.metrics?.attempt(origin, code, tookMs / 1000);
          if (err instanceof PushRequestError && err.code === 'refused') {
            gate.report(turn, 'ignored', '', 0);
            const reason = safeReason(err.message);
            noteRefusal(origin, reason);
            attempts -= 1;
            return finish(job, id, origin, { outcome: 'failed', reason, refused: true }, attempts, ambiguous);
          }
          outcome = err instanceof PushRequestError && err.code === 'closed' ? { kind: 'failed', reason: SENDER_CLOSED } : classifyError(err);
        }
        gate.report(turn, attemptResult(outcome), outcome.kind === 'sent' ? '' : outcome.reason, tookMs);
      } finally {
        gate.release();
      }
      switch (outcome.kind) {
        case 'sent':
          return finish(job, id, origin, { outcome: 'sent', status: outcome.status }, attempts, ambiguous);
        case 'expired':
        case 'failed':
          return finish(job, id, origin, { outcome: outcome.kind, status: outcome.status, reason: outcome.reason }, attempts, ambiguous);
        case 'rate-limited':
          last = { status: outcome.status, reason: outcome.reason };
          if (attempts >= maxAttempts) return gaveUp(job, id, origin, `gave up after ${attempts} attempts (the attempt limit)`, last, attempts, ambiguous);
          failures.retried(origin, String(outcome.status));
          opts.metrics?.retried(origin, String(outcome.status));
          gate.rateLimit(outcome.retryAfterMs);
          break;
        case 'retry':
          last = { status: outcome.status, reason: outcome.reason };
          lastTransient.set(origin, last);
          if (outcome.maybeAccepted) ambiguous += 1;
          if (now() >= deadline) return gaveUp(job, id, origin, `gave up after ${attempts} attempts (${budgetWords(limitMs, job)})`, last, attempts, ambiguous);
          if (attempts >= maxAttempts) return gaveUp(job, id, origin, `gave up after ${attempts} attempts (the attempt limit)`, last, attempts, ambiguous);
          // By cause: the status, or the client's error code that starts the reason (`timeout: …`).
          const cause = outcome.status !== undefined ? String(outcome.status) : outcome.reason.split(':', 1)[0].slice(0, 20);
          failures.retried(origin, cause);
          opts.metrics?.retried(origin, cause);
          // A down origin is waited for at the gate (its probes are the backoff); otherwise this
          // push backs off on its own, never past its deadline.
          if (!gate.down) {
            const backoff = random() * Math.min(maxBackoffMs, baseBackoffMs * 2 ** retries);
            retries += 1;
            await sleep(Math.min(backoff, deadline - now()), closing.signal);
          }
          break;
      }
      if (closing.signal.aborted) return finish(job, id, origin, { outcome: 'failed', reason: SENDER_CLOSED }, attempts, ambiguous);
    }
  }

  /** Stores a push's result and tells the caller. Made outside prepareBatch, so as not to share (and keep) its context, which holds the job. */
  function settlerFor(results: PushResult[], hooks: PushHooks): PreparedBatch['settle'] {
    return (index, result) => {
      results[index] = result;
      try {
        hooks.onResult?.(result);
      } catch (err) {
        opts.log?.error('push result hook failed', { err });
      }
    };
  }

  /**
   * A batch up to its sending: its targets checked, every sendable one encrypted. What it returns
   * holds no target: a push in flight keeps its id, URL and body, not its subscription's keys and
   * plaintext (a batch's pushes wait for answers up to a far push service's latency).
   */
  async function prepareBatch(job: PushJob, hooks: PushHooks): Promise<PreparedBatch> {
    validateJob(job);
    const startedAt = now();
    const results = new Array<PushResult>(job.subscriptions.length);
    const sendable: Array<{ index: number; id: string; url: URL; origin: string }> = [];
    const settle = settlerFor(results, hooks);
    const rejected = (index: number, id: string, origin: string, reason: string) => {
      settle(index, { id, outcome: 'failed', reason, attempts: 0 });
      failures.failed(origin, 'refused', { topic: job.topic, subscriberId: id, reason });
      opts.metrics?.pushed(origin, 'failed');
    };
    // Each endpoint is parsed once: the client is handed the URL.
    job.subscriptions.forEach((target, index) => {
      const url = pushUrl(target.endpoint);
      if (url) sendable.push({ index, id: target.id, url, origin: url.origin });
      else rejected(index, target.id, 'invalid', INVALID_ENDPOINT);
    });
    const bodies = await encryptor().encryptBatch(
      job.payload,
      sendable.map(({ index }) => job.subscriptions[index]),
      { urgent: job.urgent === true },
    );
    const prepared: PreparedBatch = { head: jobHead(job), startedAt, results, settle, pushes: [], bodies: [] };
    sendable.forEach((push, i) => {
      if (bodies[i].length === 0) return rejected(push.index, push.id, push.origin, INVALID_KEYS);
      prepared.pushes.push(push);
      prepared.bodies.push(bodies[i]);
    });
    return prepared;
  }

  async function sendPrepared({ head, startedAt, results, settle, pushes, bodies }: PreparedBatch, hooks: PushHooks): Promise<PushResult[]> {
    const headersByOrigin = new Map<string, Record<string, string>>();
    // (A push is one sendOne frame: no async wrapper of its own around it.)
    await Promise.all(
      pushes.map(({ index, id, url, origin }, i) => {
        let headers = headersByOrigin.get(origin);
        if (!headers) headersByOrigin.set(origin, (headers = headersFor(head, origin)));
        return sendOne(head, id, url, origin, bodies[i], headers, startedAt, hooks).then((result) => settle(index, result));
      }),
    );
    return results;
  }

  return {
    sendBatch(job, hooks = {}) {
      // Not one async function: its frame would keep `job`, every target of it, until the last answer.
      return prepareBatch(job, hooks).then((batch) => sendPrepared(batch, hooks));
    },
    limitFor: (origin) => gates.get(origin)?.limit,
    async close() {
      closing.abort();
      for (const gate of gates.values()) gate.close();
      await client.close();
      await ownedPool?.close();
      failures.flush();
    },
  };
}

/** What an attempt says about its origin (origin-gate.ts AttemptResult). */
function attemptResult(outcome: Classified): AttemptResult {
  switch (outcome.kind) {
    case 'retry':
      return 'transient';
    case 'rate-limited':
      return 'rate-limited';
    case 'failed':
      return outcome.reason === SENDER_CLOSED ? 'ignored' : 'answered';
    default:
      return 'answered';
  }
}

function pushUrl(endpoint: string): URL | undefined {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function validateJob(job: PushJob): void {
  if (!Number.isInteger(job.ttl) || job.ttl < 0) throw new RangeError('ttl must be a non-negative integer');
  if (job.retryBudgetMs !== undefined && !(job.retryBudgetMs >= 0)) throw new RangeError('retryBudgetMs must be zero or more');
  if (!URGENCIES.includes(job.urgency)) throw new RangeError(`urgency must be one of ${URGENCIES.join(', ')}`);
  if (job.topic !== '' && !TOPIC.test(job.topic)) throw new RangeError('topic must be 1-32 base64url characters');
}
