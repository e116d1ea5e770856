// The versioned message types that travel over Kafka between the campaign and delivery
// services, with their JSON schemas. Each service's messaging module (the only kafkajs user)
// validates every message it consumes against these; an invalid one goes to the dead-letter
// topic with the reason instead of crashing or stalling the consumer.
import { Ajv, type ValidateFunction } from 'ajv';
import { campaignContent, MAX_BUTTONS, MAX_VIBRATE_ENTRIES, MAX_VIBRATE_MS, NOTIFICATION_DIRECTIONS, REQUIRED_CONTENT_FIELDS, type CampaignContent } from './campaign-content.js';
import { URGENCIES, type Urgency } from './urgency.js';
import { BROWSERS, DATE_OPERATORS, DURATION, MAX_TAG_CONDITIONS, MAX_TAG_IN_VALUES, NUMBER_OPERATORS, type Browser, type Segment } from './segment.js';
import { MAX_TAG_KEY_CHARS, MAX_TAG_STRING_CHARS } from './tag-values.js';
import { MAX_VARIANTS, MAX_WINDOW_MINUTES, MIN_VARIANTS, VARIANT_FIELDS, WINNER_METRICS, type AbTest, type AbWinner, type VariantResult } from './ab-test.js';
import type { LocalTime } from './local-time.js';
import { MAX_EXTERNAL_ID_CHARS } from './external-id.js';
import { HOLDOUT_SLOT, MAX_HOLDOUT_PERCENT, MAX_WITHIN_HOURS, MIN_WITHIN_HOURS, type BestTime, type SlotResult } from './best-time.js';

/**
 * The topics by the one name the code and the docs give each. The stats topic carries the stats
 * events (`campaign.stats`: a campaign's counters, absolute) from the delivery service to the
 * campaign service's `campaign-stats` group. Its wire name, `delivery.events.v1`, is older than
 * that name and stays: during a rolling upgrade both versions must meet on one topic, so a new
 * name would need a release that reads both (docs/operations.md, "Upgrading").
 */
export const TOPICS = Object.freeze({
  dispatch: 'campaign.dispatch.v1',
  chunks: 'delivery.chunks.v1',
  /**
   * A notification's lane (docs/architecture.md, "A notification"): its dispatch job and its
   * chunks on topics of their own, consumed by groups of their own, so a notification never waits
   * behind a campaign's expansion or its chunks.
   */
  notifications: 'notification.dispatch.v1',
  notificationChunks: 'delivery.notification-chunks.v1',
  stats: 'delivery.events.v1',
  /** People's signals (PeopleMessage; docs/people.md, "Signals"): the campaign service's automations. Key: the site's id. */
  people: 'delivery.people.v1',
  deadLetter: 'deadletter.v1',
});

/**
 * Partition counts, created explicitly at start-up. The chunk topic's is the default of its
 * setting (KAFKA_CHUNK_PARTITIONS, topicPartitions): delivery instances scale up to it.
 */
export const TOPIC_PARTITIONS: Readonly<Record<string, number>> = Object.freeze({
  [TOPICS.dispatch]: 6,
  [TOPICS.chunks]: 12,
  [TOPICS.notifications]: 6,
  [TOPICS.notificationChunks]: 12,
  [TOPICS.stats]: 6,
  [TOPICS.people]: 6,
  [TOPICS.deadLetter]: 1,
});

/**
 * The partition counts with the chunk topic's from its setting. Only that one is a setting: its
 * messages carry no order between them, so it may grow while running; the others are keyed by
 * campaign, and more partitions would move a campaign's messages to another partition.
 */
export function topicPartitions(chunkPartitions: number): Readonly<Record<string, number>> {
  return Object.freeze({ ...TOPIC_PARTITIONS, [TOPICS.chunks]: chunkPartitions });
}

/**
 * A campaign handed to delivery: everything needed to build its pushes. Key: campaignId.
 * Version 2 nests the campaign's content (campaign-content.ts) instead of copying its fields;
 * version 1 messages (the fields flat) are still read, and upgraded on decode (upgradeDispatch).
 */
export interface DispatchMessage {
  type: 'campaign.dispatch';
  version: 2;
  campaignId: string;
  siteId: string;
  dispatchedAt: string;
  content: CampaignContent;
  ttl: number;
  /** Topics and `country__…` names, merged as the campaign stores them. */
  audience: string[];
  /**
   * Added 2026-11-26, optional: the campaign's segment (segment.ts), narrowing the audience. A
   * message with one (or a throttle) is written as version 2 (dispatchForWire): the previous
   * release reads only version 1 and would send to the whole audience at full speed; it
   * dead-letters a version 2 instead.
   */
  segment?: Segment;
  /**
   * Added 2026-11-26, optional: pushes per minute at most. The delivery service gives each push a
   * slot at that pace (sending/send-pace.ts). Written as version 2, like a segment.
   */
  throttlePerMinute?: number;
  /** Added 2026-11-26, optional: true sends to subscribers who reached their site's frequency cap (and counts towards it). Written as version 2. */
  ignoreFrequencyCap?: boolean;
  /** Added 2026-12-07, optional: true sends inside the site's quiet hours too (stages.ts holds none of its zones). Written as version 2. */
  ignoreQuietHours?: boolean;
  /**
   * Added 2026-11-27, optional: sent at this wall-clock time in each subscriber's zone
   * (local-time.ts), the passed zones the next day, "passed" measured from `createdAt` (the
   * moment its plan was made: the campaign's creation, or the console's last edit of the draft it
   * was; the name stays for the messages already written). The campaign is dispatched at its first zone group's moment; the
   * delivery service sends each group when due (sending/stages.ts). Written as version 2.
   */
  localTime?: LocalTime & { createdAt: string };
  /** Added 2026-11-27, optional: the campaign's A/B test (ab-test.ts). Written as version 2. */
  abTest?: AbTest;
  /**
   * Added 2026-12-07, optional: each subscriber sent in their best hour of a window starting when
   * the job is taken, a holdout share at once (best-time.ts; sending/stages.ts). Written as version 2.
   */
  bestTime?: BestTime;
  /**
   * Added 2026-12-05, optional: the `Urgency` header of the campaign's pushes (urgency.ts);
   * absent: `normal`, and written only when it is not. Written in either version: a release
   * that does not know it sends `normal`, as it always did.
   */
  urgency?: Urgency;
  /**
   * Added 2026-12-05, optional: the job is a revision of a campaign already sent, not a campaign
   * (docs/api-decisions.md, "Update and recall"). `campaignId` is then the revision's own id (its
   * run, delivery-log rows and counters are its own, so each subscriber gets each revision once),
   * `revision.campaignId` the campaign revised: the pushes go to the subscribers its run sent to,
   * with its id as the notification's tag, its Topic and its tracking tokens. `content` is the
   * corrected content (an update) or the campaign's (a recall, whose push carries none of it).
   * Written as version 2: the previous release would send a version 1 to the whole audience.
   */
  revision?: Revision;
  /**
   * Added 2026-12-07, optional: the job is a notification to chosen subscriptions, not a campaign
   * (POST /v2/notifications; docs/api-decisions.md, "Notifications"). `campaignId` is the
   * notification's id (its run, delivery-log rows and counters are its own), `audience` is empty:
   * the pushes go to the site's active subscriptions among `notification.subscriptionIds` (public
   * ids), or to those of the people `notification.externalIds` names. Published on TOPICS.notifications, never on the campaigns' topic, and written as
   * version 2. A transactional notification carries `ignoreFrequencyCap`.
   */
  notification?: NotificationTargets;
}

/** Most subscriptions one notification names (POST /v2/notifications). */
export const MAX_NOTIFICATION_TARGETS = 10_000;

/**
 * Whom a notification job is for, in the order the request named them: exactly one of
 * `subscriptionIds` (public subscriber ids) or, added 2026-12-05, `externalIds` (people of the
 * site, each reached on their active subscriptions as the delivery service knows them when it
 * takes the job; contracts' external-id.ts is the rule of an id).
 */
export type NotificationTargets = ({ subscriptionIds: string[]; externalIds?: undefined } | { externalIds: string[]; subscriptionIds?: undefined }) & {
  /**
   * Added 2026-12-08, optional: the notification was made from a template (docs/api-decisions.md,
   * "Notifications", "From a template"), frozen at create: each target is sent the template's
   * `content` (a create body's content fields, texts with tags: template.ts) rendered with its
   * person's tags under `variables` (renderTemplateContent), the job's `content` being only the
   * rendering at create. A previous release dead-letters such a job rather than send that rendering.
   */
  template?: NotificationTemplateJob;
  /**
   * Added 2026-12-09, optional: whether the notification respects the site's quiet hours (the
   * API's `respectQuietHours`: docs/api-decisions.md, "Notifications", "Send time"); absent or
   * false: never held, as before. Written when true and whenever the job has `bestTime` (with a
   * holdout of 0: each target at its best hour), so that a previous release, which would plan a
   * best-time notification from an empty audience and send no one, or send it inside the quiet
   * hours, dead-letters the job instead.
   */
  quietHours?: boolean;
};

/** A notification's template as the job carries it: its texts and the call's values. */
export interface NotificationTemplateJob {
  content: Record<string, unknown>;
  variables: Record<string, string | number>;
}

/** What a revision does to the notification a campaign showed. */
export const REVISION_ACTIONS = ['update', 'recall'] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];

/** The campaign a revision job revises, its revision number (1, 2, … per campaign) and what it does. */
export interface Revision {
  campaignId: string;
  number: number;
  action: RevisionAction;
}

/** Version 1 of the dispatch message, as producers before 2026-11-23 wrote it (and delivery stored it in its runs). */
export type DispatchMessageV1 = Omit<DispatchMessage, 'version' | 'content'> & { version: 1 } & CampaignContent;

/**
 * A dispatch message as this release WRITES it, to Kafka and into delivery's runs: still version 1.
 * During a rolling upgrade the previous release's delivery runs beside this one and reads only
 * version 1 (test/upgrade/rolling-upgrade.test.ts): a version 2 message would go to its
 * dead-letter topic and a version 2 run would have no title. The release after this one, whose
 * predecessor reads both, writes version 2 (docs/operations.md, "Upgrading").
 */
export function dispatchForWire(message: DispatchMessage): DispatchMessageV1 | DispatchMessage {
  const additions = [message.segment, message.throttlePerMinute, message.ignoreFrequencyCap, message.ignoreQuietHours, message.localTime, message.abTest, message.revision, message.notification, message.bestTime];
  if (additions.some((a) => a !== undefined)) return message;
  const { type, campaignId, siteId, dispatchedAt, content, ttl, audience, urgency } = message;
  return { type, version: 1, campaignId, siteId, dispatchedAt, ...content, ttl, audience, ...(urgency ? { urgency } : {}) };
}

/** A dispatch message of either version as version 2. */
export function upgradeDispatch(message: DispatchMessage | DispatchMessageV1): DispatchMessage {
  if (message.version === 2) return message;
  const { campaignId, siteId, dispatchedAt, ttl, audience, urgency } = message;
  return { type: 'campaign.dispatch', version: 2, campaignId, siteId, dispatchedAt, content: campaignContent(message), ttl, audience, ...(urgency ? { urgency } : {}) };
}

/** A slice of one campaign's audience (subscriber ids, ascending). Key: chunkKey(). */
export interface ChunkMessage {
  type: 'delivery.chunk';
  version: 1;
  campaignId: string;
  siteId: string;
  chunkNo: number;
  subscriberIds: string[];
}

/** A chunk's Kafka key: its campaign and number. Chunks carry no ordering between them. */
export function chunkKey(campaignId: string, chunkNo: number): string {
  return `${campaignId}:${chunkNo}`;
}

const CHUNK_KEY = /^(.+):(0|[1-9]\d{0,8})$/;

/**
 * The partition of the chunk topic (of `partitions`) a chunk goes to: a campaign's chunks go
 * round-robin from a partition its id picks, so every partition — and the delivery instance
 * consuming it — gets the same share of a campaign, give or take one chunk, and two campaigns
 * start on different partitions. Hashing every key instead (kafkajs's default) gave some
 * partitions half as many chunks again as others, and a campaign ended with those few sending
 * alone: seconds at a fraction of the throughput when pushes take 150 ms (docs/history/performance-log.md).
 * null for a key of another shape, which the default partitioner then places.
 */
export function chunkPartition(key: string, partitions: number): number | null {
  const m = CHUNK_KEY.exec(key);
  if (!m || !(partitions >= 1)) return null;
  // FNV-1a over the campaign id: any stable spread will do, this one needs no dependency.
  let h = 0x811c9dc5;
  for (let i = 0; i < m[1].length; i++) h = Math.imul(h ^ m[1].charCodeAt(i), 0x01000193);
  return ((h >>> 0) + Number(m[2])) % partitions;
}

/**
 * An active subscription of the site belongs to this person (docs/people.md): written by the
 * delivery service in the transaction that links it (or moves it to this person) and published
 * from there (its people signals' outbox). Published at least once, so the consumer must be
 * idempotent — the campaign service enrols a person in a welcome automation once ever, and only
 * for a subscription made since the automation was created (`subscribedAt`).
 */
export interface PersonSubscribedMessage {
  type: 'person.subscribed';
  version: 1;
  siteId: string;
  externalId: string;
  /** When the subscription was made (ISO 8601). */
  subscribedAt: string;
}

/**
 * Added 2026-12-09: the person was deleted (DELETE /v2/users/{externalId}, docs/people.md,
 * "Privacy"): the campaign service ends their automation runs and blanks their id in what it
 * stored (docs/api-decisions.md, "Automations", "People's signals").
 */
export interface PersonDeletedMessage {
  type: 'person.deleted';
  version: 1;
  siteId: string;
  externalId: string;
}

/** Added 2026-12-09: the person's last active subscription ended (unsubscribed, expired, replaced by none): their runs exit. */
export interface PersonUnsubscribedMessage {
  type: 'person.unsubscribed';
  version: 1;
  siteId: string;
  externalId: string;
}

/** Added 2026-12-09: a subscription of the person clicked a notification made for them (its first click per subscription): the run that sent it exits. */
export interface NotificationClickedMessage {
  type: 'notification.clicked';
  version: 1;
  siteId: string;
  notificationId: string;
  externalId: string;
}

/**
 * Added 2026-12-09: the person's tags that changed (set to a new value; removals are not signals),
 * a date as its ISO 8601 text: tag automations start.
 */
export interface PersonTaggedMessage {
  type: 'person.tagged';
  version: 1;
  siteId: string;
  externalId: string;
  tags: Record<string, string | number | boolean>;
}

/** Every message of TOPICS.people, told apart by `type`. Key: the site's id (a site's signals stay in order). */
export type PeopleMessage = PersonSubscribedMessage | PersonDeletedMessage | PersonUnsubscribedMessage | NotificationClickedMessage | PersonTaggedMessage;

/**
 * Absolute counters of one campaign as the delivery service knows them. Counters only grow, so
 * the consumer keeps the greatest value seen: replays and reordering are harmless.
 */
export interface StatsMessage {
  type: 'campaign.stats';
  version: 1;
  campaignId: string;
  sent: number;
  failed: number;
  expired: number;
  impressions: number;
  clicks: number;
  /** `failed` when the campaign could not be sent (see docs/api-decisions.md). */
  state: 'sending' | 'completed' | 'failed';
  reason?: string;
  /**
   * Added 2026-11-23, optional (older producers omit it; a consumer keeps what it has):
   * subscribers of the audience taken into the run so far. Grows while the audience is expanded.
   */
  audience?: number;
  /** Added 2026-11-23, optional: `failed` split by why (the classes sum to `failed` for pushes recorded since). */
  failedBy?: FailedBy;
  /** Added 2026-11-26, optional: subscribers not pushed because they had reached their site's frequency cap. */
  capped?: number;
  /** Added 2026-11-26, optional, only once the run is finished: its outcomes by browser family (segment.ts BROWSERS). */
  byBrowser?: ResultsByBrowser;
  /**
   * Added 2026-11-27, optional, for a campaign with an A/B test: each variant's results within
   * the test share (recomputed every few seconds while it sends), and the winner once chosen.
   * windowEndsAt, added 2026-12-04, optional (older producers omit it): when the test window
   * ends (ISO 8601), null before the test's first send.
   */
  abTest?: { results: VariantResult[]; winner: AbWinner | null; windowEndsAt?: string | null };
  /**
   * Added 2026-12-07, optional, for a best-time campaign: each slot's results (the holdout's is
   * slot -1), recomputed every few seconds while it sends (best-time.ts).
   */
  bestTime?: { slots: SlotResult[] };
}

/** A finished campaign's pushes by outcome, per browser family that had any. */
export type ResultsByBrowser = Partial<Record<Browser, { sent: number; failed: number; expired: number; capped: number }>>;

/**
 * Why pushes failed. `rejected`: the push service refused the message (400, 413, other 4xx);
 * `unauthorized`: it refused our VAPID credentials (401, 403); `unreachable`: 5xx, 429, timeouts
 * or resets until the retry budget ran out; `refused`: the platform did not send (a destination
 * the policy refuses, or a stored subscription that cannot be used).
 */
export const FAILURE_CLASSES = ['rejected', 'unauthorized', 'unreachable', 'refused'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];
export type FailedBy = Record<FailureClass, number>;

export interface DeadLetterMessage {
  reason: string;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  at: string;
}

const uuid = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' };
const count = { type: 'integer', minimum: 0 };
const nullableString = { type: ['string', 'null'] };
const UTC_SECONDS = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$';
const UTC_MILLISECONDS = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$';
/** A notification job's template (NotificationTemplateJob): texts are checked where rendered, values as a create checks them. */
const notificationTemplateSchema = {
  type: 'object',
  required: ['content', 'variables'],
  additionalProperties: false,
  properties: { content: { type: 'object' }, variables: { type: 'object', additionalProperties: { type: ['string', 'number'] } } },
};

const contentProperties = {
  title: { type: 'string' },
  body: { type: 'string' },
  link: { type: 'string' },
  utmSource: { type: 'string' },
  utmMedium: { type: 'string' },
  utmCampaign: { type: 'string' },
  icon: nullableString,
  image: nullableString,
  callToAction: { type: 'string' },
  options: {
    type: ['object', 'null'],
    required: ['actions', 'badge', 'requireInteraction', 'renotify', 'silent', 'vibrate', 'timestamp', 'dir', 'lang'],
    properties: {
      actions: {
        type: 'array',
        maxItems: MAX_BUTTONS,
        items: { type: 'object', required: ['title', 'link'], properties: { title: { type: 'string' }, link: { type: 'string' } } },
      },
      badge: nullableString,
      requireInteraction: { type: 'boolean' },
      renotify: { type: 'boolean' },
      silent: { type: 'boolean' },
      vibrate: { type: 'array', maxItems: MAX_VIBRATE_ENTRIES, items: { type: 'integer', minimum: 0, maximum: MAX_VIBRATE_MS } },
      timestamp: { type: ['string', 'null'], pattern: UTC_SECONDS },
      dir: { enum: [...NOTIFICATION_DIRECTIONS] },
      lang: { type: 'string', maxLength: 35 },
    },
  },
} satisfies Record<keyof CampaignContent, unknown>;
const dispatchCommon = {
  type: { const: 'campaign.dispatch' },
  campaignId: uuid,
  siteId: uuid,
  dispatchedAt: { type: 'string' },
  ttl: { type: 'integer', minimum: 0, maximum: 2419200 },
  audience: { type: 'array', items: { type: 'string' }, maxItems: 1000 },
  urgency: { enum: [...URGENCIES] },
};

const strings = (maxItems: number) => ({ type: 'array', items: { type: 'string', maxLength: 100 }, minItems: 1, maxItems });
const segmentSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    languages: strings(50),
    timeZones: strings(100),
    utcOffset: {
      type: 'object',
      required: ['min', 'max'],
      additionalProperties: false,
      properties: { min: { type: 'integer', minimum: -720, maximum: 840 }, max: { type: 'integer', minimum: -720, maximum: 840 } },
    },
    browsers: { type: 'array', items: { enum: [...BROWSERS] }, minItems: 1, maxItems: BROWSERS.length },
    subscribedAfter: { type: 'string', pattern: UTC_SECONDS },
    subscribedBefore: { type: 'string', pattern: UTC_SECONDS },
    engagedWithinDays: { type: 'integer', minimum: 1, maximum: 3650 },
    notEngagedForDays: { type: 'integer', minimum: 1, maximum: 3650 },
    tags: { type: 'array', minItems: 1, maxItems: MAX_TAG_CONDITIONS, items: { oneOf: tagConditionSchemas() } },
  },
};

/** segment.ts TagCondition, as the campaign service normalised it: a date as its UTC instant with milliseconds. */
function tagConditionSchemas() {
  const condition = (operators: readonly string[], operand: Record<string, unknown>) => ({
    type: 'object',
    required: ['key', 'operator', ...Object.keys(operand)],
    additionalProperties: false,
    properties: { key: { type: 'string', pattern: `^[a-z0-9_]{1,${MAX_TAG_KEY_CHARS}}$` }, operator: { enum: [...operators] }, ...operand },
  });
  const scalar = { anyOf: [{ type: 'string', maxLength: MAX_TAG_STRING_CHARS }, { type: 'number' }, { type: 'boolean' }] };
  return [
    condition(['exists', 'notExists'], {}),
    condition(['equals'], { value: scalar }),
    condition(['in'], { values: { type: 'array', minItems: 1, maxItems: MAX_TAG_IN_VALUES, items: scalar } }),
    condition(NUMBER_OPERATORS, { value: { type: 'number' } }),
    condition(DATE_OPERATORS, { value: { type: 'string', anyOf: [{ pattern: UTC_MILLISECONDS }, { pattern: DURATION.source }] } }),
  ];
}

const variantSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(VARIANT_FIELDS.map((f) => [f, f === 'icon' || f === 'image' ? nullableString : { type: 'string' }])),
};
const abTestSchema = {
  type: 'object',
  required: ['variants', 'testPercent', 'winnerMetric', 'windowMinutes'],
  additionalProperties: false,
  properties: {
    variants: { type: 'array', items: variantSchema, minItems: MIN_VARIANTS, maxItems: MAX_VARIANTS },
    testPercent: { type: 'integer', minimum: 1, maximum: 100 },
    winnerMetric: { enum: [...WINNER_METRICS] },
    windowMinutes: { type: 'integer', minimum: 1, maximum: MAX_WINDOW_MINUTES },
  },
};
const localTimeSchema = {
  type: 'object',
  required: ['date', 'time', 'createdAt'],
  additionalProperties: false,
  properties: {
    date: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
    time: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
    createdAt: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$' },
  },
};
const abResultsSchema = {
  type: 'object',
  required: ['results', 'winner'],
  properties: {
    results: {
      type: 'array',
      maxItems: MAX_VARIANTS,
      items: {
        type: 'object',
        required: ['variant', 'sent', 'impressions', 'clicks'],
        properties: { variant: { type: 'integer', minimum: 0, maximum: MAX_VARIANTS - 1 }, sent: count, impressions: count, clicks: count },
      },
    },
    winner: {
      type: ['object', 'null'],
      required: ['variant', 'decidedAt', 'by'],
      properties: { variant: { type: 'integer', minimum: 0, maximum: MAX_VARIANTS - 1 }, decidedAt: { type: 'string' }, by: { enum: ['metric', 'customer'] } },
    },
    windowEndsAt: { type: ['string', 'null'], maxLength: 40 },
  },
};

const schemas = {
  dispatchV1: {
    type: 'object',
    required: ['type', 'version', 'campaignId', 'siteId', 'dispatchedAt', ...REQUIRED_CONTENT_FIELDS, 'ttl', 'audience'],
    properties: { ...dispatchCommon, version: { const: 1 }, ...contentProperties },
  },
  dispatch: {
    type: 'object',
    required: ['type', 'version', 'campaignId', 'siteId', 'dispatchedAt', 'content', 'ttl', 'audience'],
    properties: {
      ...dispatchCommon,
      version: { const: 2 },
      content: { type: 'object', required: [...REQUIRED_CONTENT_FIELDS], properties: contentProperties },
      segment: segmentSchema,
      throttlePerMinute: { type: 'integer', minimum: 1, maximum: 1000000 },
      ignoreFrequencyCap: { type: 'boolean' },
      ignoreQuietHours: { type: 'boolean' },
      localTime: localTimeSchema,
      abTest: abTestSchema,
      bestTime: {
        type: 'object',
        required: ['withinHours', 'holdoutPercent'],
        additionalProperties: false,
        properties: {
          withinHours: { type: 'integer', minimum: MIN_WITHIN_HOURS, maximum: MAX_WITHIN_HOURS },
          holdoutPercent: { type: 'integer', minimum: 0, maximum: MAX_HOLDOUT_PERCENT },
        },
      },
      revision: {
        type: 'object',
        required: ['campaignId', 'number', 'action'],
        additionalProperties: false,
        properties: { campaignId: uuid, number: { type: 'integer', minimum: 1, maximum: 1000000 }, action: { enum: [...REVISION_ACTIONS] } },
      },
      notification: {
        oneOf: [
          {
            type: 'object',
            required: ['subscriptionIds'],
            additionalProperties: false,
            properties: { subscriptionIds: { type: 'array', items: uuid, minItems: 1, maxItems: MAX_NOTIFICATION_TARGETS }, template: notificationTemplateSchema, quietHours: { type: 'boolean' } },
          },
          {
            type: 'object',
            required: ['externalIds'],
            additionalProperties: false,
            properties: {
              externalIds: { type: 'array', items: { type: 'string', minLength: 1, maxLength: MAX_EXTERNAL_ID_CHARS }, minItems: 1, maxItems: MAX_NOTIFICATION_TARGETS },
              template: notificationTemplateSchema,
              quietHours: { type: 'boolean' },
            },
          },
        ],
      },
    },
  },
  chunk: {
    type: 'object',
    required: ['type', 'version', 'campaignId', 'siteId', 'chunkNo', 'subscriberIds'],
    properties: {
      type: { const: 'delivery.chunk' },
      version: { const: 1 },
      campaignId: uuid,
      siteId: uuid,
      chunkNo: count,
      subscriberIds: { type: 'array', items: { type: 'string', pattern: '^[0-9]{1,19}$' }, minItems: 1, maxItems: 5000 },
    },
  },
  // The people topic's messages, one schema per `type` (a release that knows only
  // person.subscribed dead-letters the others: docs/api-decisions.md, "Automations", "Not yet").
  people: {
    oneOf: [
      {
        type: 'object',
        required: ['type', 'version', 'siteId', 'externalId', 'subscribedAt'],
        properties: {
          type: { const: 'person.subscribed' },
          version: { const: 1 },
          siteId: uuid,
          externalId: { type: 'string', minLength: 1, maxLength: 512 },
          subscribedAt: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$', maxLength: 40 },
        },
      },
      {
        type: 'object',
        required: ['type', 'version', 'siteId', 'externalId'],
        properties: {
          type: { enum: ['person.deleted', 'person.unsubscribed'] },
          version: { const: 1 },
          siteId: uuid,
          externalId: { type: 'string', minLength: 1, maxLength: 512 },
        },
      },
      {
        type: 'object',
        required: ['type', 'version', 'siteId', 'notificationId', 'externalId'],
        properties: {
          type: { const: 'notification.clicked' },
          version: { const: 1 },
          siteId: uuid,
          notificationId: uuid,
          externalId: { type: 'string', minLength: 1, maxLength: 512 },
        },
      },
      {
        type: 'object',
        required: ['type', 'version', 'siteId', 'externalId', 'tags'],
        properties: {
          type: { const: 'person.tagged' },
          version: { const: 1 },
          siteId: uuid,
          externalId: { type: 'string', minLength: 1, maxLength: 512 },
          tags: {
            type: 'object',
            minProperties: 1,
            propertyNames: { pattern: `^[a-z0-9_]{1,${MAX_TAG_KEY_CHARS}}$` },
            additionalProperties: { anyOf: [{ type: 'string', maxLength: MAX_TAG_STRING_CHARS }, { type: 'number' }, { type: 'boolean' }] },
          },
        },
      },
    ],
  },
  stats: {
    type: 'object',
    required: ['type', 'version', 'campaignId', 'sent', 'failed', 'expired', 'impressions', 'clicks', 'state'],
    properties: {
      type: { const: 'campaign.stats' },
      version: { const: 1 },
      campaignId: uuid,
      sent: count,
      failed: count,
      expired: count,
      impressions: count,
      clicks: count,
      state: { enum: ['sending', 'completed', 'failed'] },
      reason: { type: 'string', maxLength: 500 },
      audience: count,
      failedBy: {
        type: 'object',
        required: [...FAILURE_CLASSES],
        properties: Object.fromEntries(FAILURE_CLASSES.map((c) => [c, count])),
      },
      capped: count,
      byBrowser: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          BROWSERS.map((b) => [b, { type: 'object', required: ['sent', 'failed', 'expired', 'capped'], properties: { sent: count, failed: count, expired: count, capped: count } }]),
        ),
      },
      abTest: abResultsSchema,
      bestTime: {
        type: 'object',
        required: ['slots'],
        properties: {
          slots: {
            type: 'array',
            // The holdout, the window's hourly slots, and slot `withinHours`: those whose zone's quiet hours cover the whole window.
            maxItems: MAX_WITHIN_HOURS + 2,
            items: {
              type: 'object',
              required: ['slot', 'sendAt', 'planned', 'sent', 'impressions', 'clicks'],
              properties: {
                slot: { type: 'integer', minimum: HOLDOUT_SLOT, maximum: MAX_WITHIN_HOURS },
                sendAt: { type: 'string', maxLength: 40 },
                planned: count,
                sent: count,
                impressions: count,
                clicks: count,
              },
            },
          },
        },
      },
    },
  },
} as const;

export interface MessageCodec<T> {
  /** Parses and validates one Kafka value; throws an Error whose message is the reason. */
  decode(value: Buffer | null): T;
  encode(message: T): Buffer;
}

function parseJson(value: Buffer | null): unknown {
  if (!value) throw new Error('empty message');
  try {
    return JSON.parse(value.toString('utf8'));
  } catch {
    throw new Error('message is not valid JSON');
  }
}

function checked<T>(validate: ValidateFunction, parsed: unknown): T {
  if (!validate(parsed)) {
    const e = validate.errors?.[0];
    throw new Error(`message does not match its schema: ${e?.instancePath || '/'} ${e?.message ?? ''}`.trim());
  }
  return parsed as T;
}

function codec<T>(validate: ValidateFunction): MessageCodec<T> {
  return {
    decode: (value) => checked<T>(validate, parseJson(value)),
    encode: (message) => Buffer.from(JSON.stringify(message)),
  };
}

/** Reads both versions of the dispatch message (each against its own schema) as version 2; writes the wire version. */
function dispatchCodec(v2: ValidateFunction, v1: ValidateFunction): MessageCodec<DispatchMessage> {
  return {
    decode(value) {
      const parsed = parseJson(value);
      const version = (parsed as { version?: unknown } | null)?.version;
      return version === 1 ? upgradeDispatch(checked<DispatchMessageV1>(v1, parsed)) : checked<DispatchMessage>(v2, parsed);
    },
    encode: (message) => Buffer.from(JSON.stringify(dispatchForWire(message))),
  };
}

/** A segment as JSON text (the CountAudience request's), checked against the message schema; throws an Error saying why. */
export function segmentFromJson(text: string): Segment {
  return checked<Segment>(segmentValidator, parseJson(Buffer.from(text)));
}
const segmentValidator = new Ajv({ allErrors: false, strict: false }).compile(segmentSchema);

export function createCodecs() {
  const ajv = new Ajv({ allErrors: false, strict: false });
  return {
    dispatch: dispatchCodec(ajv.compile(schemas.dispatch), ajv.compile(schemas.dispatchV1)),
    chunk: codec<ChunkMessage>(ajv.compile(schemas.chunk)),
    stats: codec<StatsMessage>(ajv.compile(schemas.stats)),
    people: codec<PeopleMessage>(ajv.compile(schemas.people)),
  };
}
