// The webhook sender of a delivery instance: every pass claims the due deliveries (under a
// lease: several instances share the work, and a row whose instance died is due again when its
// lease runs out), posts them, and records each outcome — a retry with exponential backoff and
// jitter, a success, or, past the retry window, a give-up. Every few seconds it also turns the
// buffered impressions and clicks into batched events, and now and then drops old finished rows.
import type { Pool } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { createPeriodic, quietWhileFailing } from '@webpush/shared/periodic.js';
import type { VapidEncryptionKeys } from '../sites/index.js';
import type { WebhookMetrics } from './metrics.js';
import { openWebhookSecret } from './secrets.js';
import type { WebhookAttempt, WebhookPost } from './sender.js';
import * as store from './webhook-store.js';

export interface WebhookLoopOptions {
  /** From the end of a pass to the next (WEBHOOK_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** How often buffered impressions and clicks become events (WEBHOOK_BATCH_INTERVAL_MS). */
  batchIntervalMs: number;
  /** Requests in flight per instance, and deliveries claimed at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** A claimed row is due again after this, if its instance never recorded an outcome. */
  leaseMs: number;
  /** The first retry's delay; each next one doubles, up to retryMaxMs (WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Retries stop this long after the event (or its manual redelivery) (WEBHOOK_RETRY_FOR_SEC). */
  retryForMs: number;
  /** An endpoint failing this long without a success is disabled (WEBHOOK_DISABLE_AFTER_SEC). */
  disableAfterMs: number;
  /** Delivered and given-up rows are kept this long for the deliveries list. */
  keepMs: number;
}

export const DEFAULT_WEBHOOK_LOOP: Readonly<WebhookLoopOptions> = Object.freeze({
  pollIntervalMs: 1000,
  batchIntervalMs: 5000,
  concurrency: 16,
  leaseMs: 60_000,
  retryBaseMs: 10_000,
  retryMaxMs: 3_600_000,
  retryForMs: 24 * 3_600_000,
  disableAfterMs: 24 * 3_600_000,
  keepMs: 7 * 24 * 3_600_000,
});

export interface WebhookLoopDeps {
  pool: Pool;
  keys: VapidEncryptionKeys;
  send(post: WebhookPost): Promise<WebhookAttempt>;
  log: Logger;
  metrics?: WebhookMetrics;
  /** Default Math.random: tests fix the jitter. */
  random?: () => number;
}

/** Claims per pass and how long a pass keeps claiming, buffered rows per batch and batches per pass: a pass always ends. */
const MAX_ROUNDS_PER_PASS = 1000;
const PASS_MS = 10_000;
const TRACKING_ROWS_PER_EVENT = 1000;
const MAX_TRACKING_BATCHES_PER_PASS = 20;
const PURGE_EVERY_MS = 60_000;
const PURGE_ROWS = 1000;

/** The wait before retry number `attempt` + 1: base × 2^(attempt−1), capped, times a jitter in [0.5, 1). */
export function retryDelayMs(attempt: number, opts: Pick<WebhookLoopOptions, 'retryBaseMs' | 'retryMaxMs'>, random: () => number): number {
  const exponential = Math.min(opts.retryMaxMs, opts.retryBaseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(exponential * (0.5 + random() / 2));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createWebhookLoop(deps: WebhookLoopDeps, opts: WebhookLoopOptions) {
  const random = deps.random ?? Math.random;
  let lastBatchAt = -Infinity;
  let lastPurgeAt = Date.now();

  async function attempt(claimed: store.ClaimedDelivery): Promise<void> {
    let result: WebhookAttempt;
    try {
      const secrets = [openWebhookSecret(claimed.secretEnc, claimed.endpointId, deps.keys)];
      if (claimed.previousSecretEnc) secrets.push(openWebhookSecret(claimed.previousSecretEnc, claimed.endpointId, deps.keys));
      result = await deps.send({ url: claimed.url, body: claimed.body, eventId: claimed.eventId, eventType: claimed.eventType, secrets });
    } catch (err) {
      // Only the secret can throw here (send() answers every failure): an operator's matter.
      deps.log.error('webhook secret cannot be opened', { endpointId: claimed.endpointId, err });
      result = { ok: false, status: null, latencyMs: 0, error: 'the signing secret cannot be opened (see the service log)' };
    }
    deps.metrics?.attempt(result.ok ? 'delivered' : 'failed', result.latencyMs / 1000);
    await store.recordAttempt(deps.pool, claimed, { ...result, retryInMs: retryDelayMs(claimed.attempt, opts, random) }, opts);
  }

  /**
   * Sends what is due with up to `concurrency` requests in flight, a quarter of them at most to one
   * endpoint: a slot freed by one answer is filled by the next claim, and an endpoint at its share
   * is left out of the claims, so a slow receiver holds its own requests, not everyone's. Ends
   * when nothing is in flight or due, or after PASS_MS of claiming; answers how many were
   * attempted. A failure to record an outcome rejects once every request in flight has ended.
   */
  async function sendDue(): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    const perEndpointInFlight = new Map<string, number>();
    let failure: unknown;
    let total = 0;
    const started = Date.now();
    const share = Math.max(1, Math.floor(opts.concurrency / 4));
    for (let round = 0; round < MAX_ROUNDS_PER_PASS && !loop.stopping() && Date.now() - started < PASS_MS && failure === undefined; round++) {
      const free = opts.concurrency - inFlight.size;
      const busy = [...perEndpointInFlight].filter(([, n]) => n >= share).map(([id]) => id);
      const claimed = free > 0 ? await store.claimDue(deps.pool, free, opts.leaseMs, share, busy) : [];
      for (const c of claimed) {
        perEndpointInFlight.set(c.endpointId, (perEndpointInFlight.get(c.endpointId) ?? 0) + 1);
        const running: Promise<void> = attempt(c)
          .catch((err: unknown) => void (failure ??= err))
          .finally(() => {
            inFlight.delete(running);
            const left = (perEndpointInFlight.get(c.endpointId) ?? 1) - 1;
            if (left > 0) perEndpointInFlight.set(c.endpointId, left);
            else perEndpointInFlight.delete(c.endpointId);
          });
        inFlight.add(running);
      }
      total += claimed.length;
      if (inFlight.size === 0) break; // nothing due, nothing in flight: the pass is over
      // An answer frees a slot; with nothing more due now, look again after the poll interval.
      await Promise.race([...inFlight, ...(claimed.length < free ? [sleep(opts.pollIntervalMs)] : [])]);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    return total;
  }

  async function batchTracking(): Promise<void> {
    for (let i = 0; i < MAX_TRACKING_BATCHES_PER_PASS && !loop.stopping(); i++) {
      if ((await store.batchTracking(deps.pool, TRACKING_ROWS_PER_EVENT)) < TRACKING_ROWS_PER_EVENT) break;
    }
  }

  // Postgres away: the rows wait and the next pass retries.
  const pass = quietWhileFailing(
    async () => {
      const now = Date.now();
      if (now - lastBatchAt >= opts.batchIntervalMs) {
        lastBatchAt = now;
        await batchTracking();
      }
      await sendDue();
      if (now - lastPurgeAt >= PURGE_EVERY_MS) {
        lastPurgeAt = now;
        await store.purgeFinished(deps.pool, opts.keepMs, PURGE_ROWS);
      }
    },
    deps.log,
    { failed: 'webhook sender pass failed; events stay stored and are retried', recovered: 'webhook sender running again' },
  );

  const loop = createPeriodic(pass, {
    intervalMs: opts.pollIntervalMs,
    onError: (err) => deps.log.error('webhook sender pass failed', { err }),
  });

  return { start: loop.start, wake: loop.wake, stop: loop.stop, sendDue, batchTracking };
}

export type WebhookLoop = ReturnType<typeof createWebhookLoop>;
