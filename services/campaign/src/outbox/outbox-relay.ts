// Publishes the outbox to Kafka: claim unpublished rows under lock, publish them (acks=all),
// mark them published, commit. A relay killed between publish and commit leaves the rows
// unpublished, so they are published again (at-least-once); the delivery service ignores a
// campaign it has already taken. Any number of relays may run: SKIP LOCKED shares the rows.
import type { Pool } from '@webpush/shared/db.js';
import { withTransaction } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { dispatchForWire, TOPICS, type DispatchMessage } from '@webpush/contracts/messages.js';
import { DEFAULT_URGENCY } from '@webpush/contracts/urgency.js';
import { REQUEST_ID_KEY } from '@webpush/shared/observability/request-context.js';
import { createPeriodic } from '@webpush/shared/periodic.js';
import { claimNotifications, claimUnpublished, markPublished, type ClaimedDispatch } from './relay-store.js';

export interface RelayDeps {
  pool: Pool;
  log: Logger;
  publish(topic: string, messages: { key: string; value: Buffer; headers?: Record<string, string> }[]): Promise<void>;
}

export interface RelayOptions {
  intervalMs: number;
  batchSize: number;
}

function toDispatchMessage(row: ClaimedDispatch): DispatchMessage {
  return {
    type: 'campaign.dispatch',
    version: 2,
    campaignId: row.campaignId,
    siteId: row.siteId,
    dispatchedAt: row.dispatchedAt.toISOString(),
    content: row.content,
    ttl: row.ttl,
    audience: row.audience,
    ...(row.segment ? { segment: row.segment } : {}),
    ...(row.throttlePerMinute ? { throttlePerMinute: row.throttlePerMinute } : {}),
    ...(row.ignoreFrequencyCap ? { ignoreFrequencyCap: true } : {}),
    ...(row.ignoreQuietHours ? { ignoreQuietHours: true } : {}),
    ...(row.localTime ? { localTime: row.localTime } : {}),
    ...(row.abTest ? { abTest: row.abTest } : {}),
    ...(row.bestTime ? { bestTime: row.bestTime } : {}),
    ...(row.urgency && row.urgency !== DEFAULT_URGENCY ? { urgency: row.urgency } : {}),
    ...(row.revision ? { revision: row.revision } : {}),
    ...(row.notification ? { notification: row.notification } : {}),
  };
}

/** Batches published at once in a pass (each holds a connection of the pool while it waits for Kafka). */
const RELAY_DRAINS = 3;

export function createOutboxRelay(deps: RelayDeps, opts: RelayOptions) {
  /** Publishes one batch; resolves to the number of rows published. */
  const publishBatch = () =>
    withTransaction(deps.pool, async (tx) => {
      // Notifications first, on their own topic: a person waits for one (docs/architecture.md, "A notification").
      const notifications = await claimNotifications(tx, opts.batchSize);
      const campaigns = await claimUnpublished(tx, opts.batchSize - notifications.length);
      const rows = [...notifications, ...campaigns];
      if (rows.length === 0) return 0;
      const messages = (claimed: ClaimedDispatch[]) =>
        claimed.map((r) => ({
          key: r.campaignId,
          // Written as the previous release reads it (dispatchForWire).
          value: Buffer.from(JSON.stringify(dispatchForWire(toDispatchMessage(r)))),
          headers: r.requestId ? { [REQUEST_ID_KEY]: r.requestId } : undefined,
        }));
      if (notifications.length > 0) await deps.publish(TOPICS.notifications, messages(notifications));
      if (campaigns.length > 0) await deps.publish(TOPICS.dispatch, messages(campaigns));
      for (const r of rows) deps.log.info('dispatch job published', { campaignId: r.campaignId, requestId: r.requestId ?? undefined });
      await markPublished(
        tx,
        rows.map((r) => r.outboxId),
      );
      return rows.length;
    });

  /** Publishes batches while they come back full, bounded so one pass cannot run forever. */
  const drain = async () => {
    for (let i = 0; i < 100 && !loop.stopping(); i++) {
      const n = await publishBatch();
      if (n > 0) deps.log.debug('outbox published', { rows: n });
      if (n < opts.batchSize) break;
    }
  };
  // A crowd of campaigns due in one second (the scheduler's batches) is published by
  // RELAY_DRAINS batches at once: each waits mostly for Kafka's acks and its commit, and SKIP
  // LOCKED gives each its own rows. One at a time published about 650 a second (10,000 due jobs
  // reached Kafka 15 s late, docs/history/performance-log.md).
  const pass = async () => {
    await Promise.all(Array.from({ length: RELAY_DRAINS }, drain));
  };

  // The first pass at once: rows left by a previous instance go out on start.
  const loop = createPeriodic(pass, {
    intervalMs: opts.intervalMs,
    firstPassDelayMs: 0,
    onError: (err) => deps.log.warn('outbox relay failed; will retry', { err }),
  });

  return {
    start: loop.start,
    /** A pass now: an outbox row was just committed (lower create → dispatch latency than the interval). */
    wake: loop.wake,
    stop: loop.stop,
    publishBatch,
  };
}
