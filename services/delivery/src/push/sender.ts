// The send path: encrypt every message of a batch on the worker pool, then POST each one over
// the per-origin pool and turn the answer into a final outcome. Retries resend the same body —
// re-encrypting would only burn CPU. A 429 pauses that one origin; the others keep going.
import type { Logger } from '../../../shared/src/log.js';
import { createPushClient, PushRequestError, type PushClientOptions } from './client.js';
import { createEncryptPool, type Encryptor } from './encrypt-pool.js';
import { classifyError, classifyResponse, safeReason, type Classified } from './outcome.js';
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
}

export interface PushSenderOptions extends PushClientOptions {
  /** POSTs per subscription, 429s included. Default 4. */
  maxAttempts?: number;
  /** Full-jitter exponential backoff after a 5xx, timeout or reset: random() * min(max, base * 2^(n-1)). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch; used to read Retry-After dates. */
  now?: () => number;
  /** Default: a worker pool with one thread per core, owned (and closed) by the sender. */
  encryptor?: Encryptor;
  /** Where refused destinations are reported: one warning per origin and hour. */
  log?: Logger;
}

const REFUSAL_LOG_EVERY_MS = 60 * 60_000;
const REFUSAL_LOG_ORIGINS = 1000;

export interface PushSender {
  /** Rejects only when encryption as a whole fails (nothing is sent then). */
  sendBatch(job: PushJob): Promise<PushResult[]>;
  close(): Promise<void>;
}

export function createPushSender(opts: PushSenderOptions = {}): PushSender {
  const maxAttempts = opts.maxAttempts ?? 4;
  const baseBackoffMs = opts.baseBackoffMs ?? 500;
  const maxBackoffMs = opts.maxBackoffMs ?? 30_000;
  const concurrency = opts.concurrencyPerOrigin ?? 100;
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = opts.now ?? Date.now;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');

  const client = createPushClient(opts);
  let ownedPool: (Encryptor & { close(): Promise<void> }) | undefined;
  const encryptor = (): Encryptor => opts.encryptor ?? (ownedPool ??= createEncryptPool());
  const gates = new Map<string, OriginGate>();
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
    if (!gate) gates.set(origin, (gate = createOriginGate(concurrency, sleep)));
    return gate;
  };

  // Headers are the same for every push of a job to one origin: built once per batch and origin
  // (the VAPID header is cached per origin anyway), then shared by those pushes; a retry asks the
  // VAPID cache again in case the token is due for renewal by then.
  function headersFor(job: PushJob, origin: string): Record<string, string> {
    const headers: Record<string, string> = {
      TTL: String(job.ttl),
      Urgency: job.urgency,
      'Content-Encoding': 'aes128gcm',
      'Content-Type': 'application/octet-stream',
      Authorization: job.vapid.headerFor(origin),
    };
    if (job.topic) headers.Topic = job.topic;
    return headers;
  }

  async function sendOne(job: PushJob, target: PushTarget, origin: string, body: Buffer, batchHeaders: Record<string, string>): Promise<PushResult> {
    const gate = gateFor(origin);
    let last: { status?: number; reason: string } = { reason: 'no attempt made' };
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      let outcome: Classified;
      if (!gate.tryAcquire()) await gate.acquire();
      try {
        if (gate.paused) await gate.whenOpen();
        const headers = attempt === 1 ? batchHeaders : headersFor(job, origin);
        try {
          const res = await client.post(target.endpoint, headers, body);
          outcome = classifyResponse(res.status, res.headers, now(), res.statusText);
        } catch (err) {
          if (err instanceof PushRequestError && err.code === 'refused') {
            const reason = safeReason(err.message);
            noteRefusal(origin, reason);
            return { id: target.id, outcome: 'failed', reason, attempts: attempt - 1, refused: true };
          }
          outcome = err instanceof PushRequestError && err.code === 'closed'
            ? { kind: 'failed', reason: 'sender closed' }
            : classifyError(err);
        }
      } finally {
        gate.release();
      }
      switch (outcome.kind) {
        case 'sent':
          return { id: target.id, outcome: 'sent', status: outcome.status, attempts: attempt };
        case 'expired':
        case 'failed':
          return { id: target.id, outcome: outcome.kind, status: outcome.status, reason: outcome.reason, attempts: attempt };
        case 'rate-limited':
          gate.pause(outcome.retryAfterMs);
          break;
        case 'retry':
          if (attempt < maxAttempts) await sleep(random() * Math.min(maxBackoffMs, baseBackoffMs * 2 ** (attempt - 1)));
          break;
      }
      last = { status: outcome.status, reason: outcome.reason };
    }
    return {
      id: target.id,
      outcome: 'failed',
      status: last.status,
      reason: `gave up after ${maxAttempts} attempts: ${last.reason}`,
      attempts: maxAttempts,
    };
  }

  return {
    async sendBatch(job) {
      validateJob(job);
      const results = new Array<PushResult>(job.subscriptions.length);
      const sendable: Array<{ index: number; origin: string }> = [];
      job.subscriptions.forEach((target, index) => {
        const origin = pushOrigin(target.endpoint);
        if (origin) sendable.push({ index, origin });
        else results[index] = { id: target.id, outcome: 'failed', reason: 'invalid endpoint URL', attempts: 0 };
      });
      const bodies = await encryptor().encryptBatch(
        job.payload,
        sendable.map(({ index }) => job.subscriptions[index]),
      );
      const headersByOrigin = new Map<string, Record<string, string>>();
      await Promise.all(
        sendable.map(async ({ index, origin }, i) => {
          const target = job.subscriptions[index];
          if (bodies[i].length === 0) {
            results[index] = { id: target.id, outcome: 'failed', reason: 'invalid subscription keys', attempts: 0 };
            return;
          }
          let headers = headersByOrigin.get(origin);
          if (!headers) headersByOrigin.set(origin, (headers = headersFor(job, origin)));
          results[index] = await sendOne(job, target, origin, bodies[i], headers);
        }),
      );
      return results;
    },
    async close() {
      await client.close();
      await ownedPool?.close();
    },
  };
}

interface OriginGate {
  /** Takes a slot if one is free at once (the usual case, no promise); false: call acquire(). */
  tryAcquire(): boolean;
  acquire(): Promise<void>;
  release(): void;
  /** A Retry-After pause is in force: whenOpen() waits for its end. */
  readonly paused: boolean;
  /** Resolves once no Retry-After pause is in force for the origin. */
  whenOpen(): Promise<void>;
  pause(ms: number): void;
}

// The gate sits in front of the client's own queue, so a pause stops every send to the
// origin that has not gone out yet — not only the ones that happen to be retried.
function createOriginGate(limit: number, sleep: (ms: number) => Promise<void>): OriginGate {
  let active = 0;
  const waiters: Array<() => void> = [];
  let paused: Promise<void> | undefined;
  return {
    tryAcquire() {
      if (active >= limit) return false;
      active += 1;
      return true;
    },
    get paused() {
      return paused !== undefined;
    },
    acquire() {
      if (active < limit) {
        active += 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiters.push(resolve));
    },
    release() {
      const next = waiters.shift();
      if (next) next();
      else active -= 1;
    },
    async whenOpen() {
      while (paused) await paused;
    },
    pause(ms) {
      // The latest Retry-After wins; waiters re-check after the pause they awaited ends.
      const p: Promise<void> = sleep(ms).then(() => {
        if (paused === p) paused = undefined;
      });
      paused = p;
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
