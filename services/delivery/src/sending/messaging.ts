// The delivery service's Kafka wiring: consumes dispatch jobs and audience chunks — a
// notification's on topics and in groups of their own, so it never waits behind a campaign's
// (docs/architecture.md, "A notification") — publishes chunks, per-campaign stats and people's signals. Topic names and message types live in shared/messages.ts.
import { createMessaging } from '@webpush/shared/kafka.js';
import type { Logger } from '@webpush/shared/log.js';
import { createCodecs, TOPIC_PARTITIONS, TOPICS, type ChunkMessage, type DispatchMessage, type FailedBy, type PeopleMessage, type ResultsByBrowser, type StatsMessage } from '@webpush/contracts/messages.js';
import { currentRequestId, REQUEST_ID_KEY, runWithRequestId, saneRequestId } from '@webpush/shared/observability/request-context.js';
import type { RunRow } from './run-store.js';
import { BROWSERS } from '@webpush/contracts/segment.js';

export const DISPATCH_GROUP = 'delivery-dispatch';
export const CHUNKS_GROUP = 'delivery-chunks';
export const NOTIFICATIONS_GROUP = 'delivery-notifications';
export const NOTIFICATION_CHUNKS_GROUP = 'delivery-notification-chunks';

/**
 * A chunk fetch's share of one partition: about 25 chunks of 500 ids (≈ 12,500 pushes, over
 * ten seconds of that partition's work). With Kafka's default of 1 MB a fetch brought a
 * million-subscriber campaign's whole audience at once and held it until its slowest partition
 * was done: the delivery's peak RSS over that campaign was 248–249 MB, 236 MB with this
 * (docs/history/performance-log.md).
 */
export const CHUNK_FETCH_BYTES = 128 * 1024;

/**
 * Messages of one partition the notification lane handles at once. A campaign's partition goes a
 * message at a time (its chunks are large); a notification's job and chunk are a few queries
 * and pushes each, independent of the others: one at a time, the dispatch of the 50 a second
 * of the bench fell behind by a minute on a loaded machine, each waiting for the ones before it
 * in its partition (docs/performance.md, "Notifications beside a campaign").
 */
export const LANE_BATCH = 10;

/**
 * Handles a batch's messages at once, but those of one key one after another; settles only when
 * every one has, then rejects with the first failure (the batch's offsets are committed only
 * after all succeed, and a redelivery never overlaps an attempt still running). One key, one
 * job: a message published twice (the campaign service's relay republishes a row whose commit
 * failed after Kafka took it, as in a Postgres outage) is handled again once the first copy is
 * done, which finds the work done; at once, the two expansions of a notification each counted
 * its one chunk, and its run waited for a second chunk that never existed.
 */
export async function allOf<T extends { key: string | null }>(messages: T[], handle: (m: T) => Promise<void>): Promise<void> {
  const byKey = new Map<string | null, T[]>();
  for (const m of messages) {
    const same = byKey.get(m.key);
    if (same) same.push(m);
    else byKey.set(m.key, [m]);
  }
  const settled = await Promise.allSettled(
    [...byKey.values()].map(async (same) => {
      for (const m of same) await handle(m);
    }),
  );
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Runs `fn` in the request id a message carries (x-request-id header), if any. */
function inRequestOf<T>(headers: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const id = saneRequestId(headers[REQUEST_ID_KEY]);
  return id ? runWithRequestId(id, fn) : fn();
}

/** What a stats event is built from: a run as read after a change, or the counter publisher's read (which adds audience and failedBy). */
export type StatsSource = Pick<RunRow, 'campaignId' | 'state' | 'reason' | 'sent' | 'failed' | 'expired' | 'impressions' | 'clicks'> & {
  audience?: number;
  failedBy?: FailedBy;
  capped?: number;
  byBrowser?: ResultsByBrowser | null;
  abTest?: StatsMessage['abTest'] | null;
  bestTime?: StatsMessage['bestTime'] | null;
};

export function statsMessage(run: StatsSource): StatsMessage {
  const m: StatsMessage = {
    type: 'campaign.stats',
    version: 1,
    campaignId: run.campaignId,
    sent: run.sent,
    failed: run.failed,
    expired: run.expired,
    impressions: run.impressions,
    clicks: run.clicks,
    state: run.state === 'failed' ? 'failed' : run.state === 'completed' ? 'completed' : 'sending',
  };
  if (run.reason) m.reason = run.reason.slice(0, 500);
  if (run.audience !== undefined) m.audience = run.audience;
  if (run.failedBy) m.failedBy = { ...run.failedBy };
  if (run.capped) m.capped = run.capped;
  // Rebuilt in a fixed order (Postgres's jsonb orders keys by length): the API shows it as sent.
  if (run.byBrowser) {
    m.byBrowser = Object.fromEntries(
      BROWSERS.filter((b) => run.byBrowser![b]).map((b) => {
        const r = run.byBrowser![b]!;
        return [b, { sent: r.sent, failed: r.failed, expired: r.expired, capped: r.capped }];
      }),
    );
  }
  if (run.abTest) {
    const { results, winner, windowEndsAt } = run.abTest;
    m.abTest = {
      results: results.map((r) => ({ variant: r.variant, sent: r.sent, impressions: r.impressions, clicks: r.clicks })),
      winner: winner ? { variant: winner.variant, decidedAt: winner.decidedAt, by: winner.by } : null,
    };
    if (windowEndsAt !== undefined) m.abTest.windowEndsAt = windowEndsAt;
  }
  if (run.bestTime) {
    m.bestTime = {
      slots: run.bestTime.slots.map((s) => ({ slot: s.slot, sendAt: s.sendAt, planned: s.planned, sent: s.sent, impressions: s.impressions, clicks: s.clicks })),
    };
  }
  return m;
}

export interface DeliveryHandlers {
  dispatch(job: DispatchMessage, heartbeat: () => Promise<void>): Promise<void>;
  chunk(chunk: ChunkMessage, heartbeat: () => Promise<void>): Promise<void>;
  /** The notification lane's: the same handlers on the lane's own pool and encryption priority (app.ts). */
  notifications: Omit<DeliveryHandlers, 'notifications'>;
}

export function createDeliveryMessaging(opts: { brokers: string[]; prefix: string; chunkPartitions: number; log: Logger; chunkConcurrency: number; sessionTimeoutMs: number; requestQueueFix?: boolean }) {
  const messaging = createMessaging({ brokers: opts.brokers, prefix: opts.prefix, chunkPartitions: opts.chunkPartitions, clientId: 'delivery', log: opts.log, requestQueueFix: opts.requestQueueFix });
  const codecs = createCodecs();
  const stops: (() => Promise<void>)[] = [];

  // Messages published while handling a request's work carry its id on (dispatch → chunks).
  const publish: typeof messaging.publish = (topic, messages) => {
    const requestId = currentRequestId();
    return messaging.publish(topic, requestId ? messages.map((m) => ({ ...m, headers: { [REQUEST_ID_KEY]: requestId, ...m.headers } })) : messages);
  };

  return {
    publish,
    /** Readiness: a broker answers. */
    ping: messaging.ping,
    consumerLag: messaging.consumerLag,
    /** People's signals from their outbox (people/signal-publisher.ts), keyed by site: a site's stay in order. */
    async publishPeople(messages: PeopleMessage[]) {
      await publish(TOPICS.people, messages.map((m) => ({ key: m.siteId, value: codecs.people.encode(m) })));
    },
    async publishStats(runs: StatsSource[]) {
      await publish(
        TOPICS.stats,
        runs.map((r) => ({ key: r.campaignId, value: codecs.stats.encode(statsMessage(r)) })),
      );
    },
    async start(handlers: DeliveryHandlers) {
      await messaging.ensureTopics();
      await messaging.producer();
      const dispatch = await messaging.consume({
        groupId: DISPATCH_GROUP,
        topic: TOPICS.dispatch,
        codec: codecs.dispatch,
        maxBatch: 1,
        // Expanding a million-subscriber audience takes a while; heartbeats keep the session.
        sessionTimeoutMs: opts.sessionTimeoutMs,
        handle: async (messages, ctx) => {
          for (const m of messages) await inRequestOf(m.headers, () => handlers.dispatch(m.value, ctx.heartbeat));
        },
      });
      stops.push(dispatch.stop);
      const chunks = await messaging.consume({
        groupId: CHUNKS_GROUP,
        topic: TOPICS.chunks,
        codec: codecs.chunk,
        maxBatch: 1,
        partitionsConsumedConcurrently: opts.chunkConcurrency,
        maxBytesPerPartition: CHUNK_FETCH_BYTES,
        sessionTimeoutMs: opts.sessionTimeoutMs,
        handle: async (messages, ctx) => {
          for (const m of messages) await inRequestOf(m.headers, () => handlers.chunk(m.value, ctx.heartbeat));
        },
      });
      stops.push(chunks.stop);
      // The notifications' lane: the same handlers (on the lane's own pool), their own consumers. A notification's job is
      // quick (its targets resolved, and when they fit one chunk sent at once: dispatch.ts), so
      // its partitions go at once, and LANE_BATCH of a partition's messages at once.
      const notifications = await messaging.consume({
        groupId: NOTIFICATIONS_GROUP,
        topic: TOPICS.notifications,
        codec: codecs.dispatch,
        maxBatch: LANE_BATCH,
        partitionsConsumedConcurrently: TOPIC_PARTITIONS[TOPICS.notifications],
        sessionTimeoutMs: opts.sessionTimeoutMs,
        handle: (messages, ctx) => allOf(messages, (m) => inRequestOf(m.headers, () => handlers.notifications.dispatch(m.value, ctx.heartbeat))),
      });
      stops.push(notifications.stop);
      const notificationChunks = await messaging.consume({
        groupId: NOTIFICATION_CHUNKS_GROUP,
        topic: TOPICS.notificationChunks,
        codec: codecs.chunk,
        maxBatch: LANE_BATCH,
        partitionsConsumedConcurrently: opts.chunkConcurrency,
        maxBytesPerPartition: CHUNK_FETCH_BYTES,
        sessionTimeoutMs: opts.sessionTimeoutMs,
        handle: (messages, ctx) => allOf(messages, (m) => inRequestOf(m.headers, () => handlers.notifications.chunk(m.value, ctx.heartbeat))),
      });
      stops.push(notificationChunks.stop);
    },
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => {});
      await messaging.disconnect();
    },
  };
}
