// Maintenance of a site's topic names: rename one, merge several into one, delete one — by
// operators (the CLI) and by the site's editors (the console, through the delivery.v1.ConsoleData
// gRPC service). Each is one UPDATE of subscribers.topics (subscriber-store.ts); the
// statement-level triggers turn it into exact counter changes, so the audience counts stay right
// without any bookkeeping here.
// Inactive subscribers are rewritten too, so a subscriber who comes back does not bring an old
// name back. Campaigns keep the topic names they were created with (they belong to the campaign
// service).
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import { echoValue } from '@webpush/shared/text.js';
import { findSiteById } from '../sites/index.js';
import { DeliveryOperatorError, isUuid } from '../errors.js';
import { MAX_NAME_CHARS, normalizeTopic, sortedSet } from './names.js';
import { mergeSubscriberTopics, removeSubscriberTopic, renameSubscriberTopic, topicsInUse } from './subscriber-store.js';

export interface TopicChange {
  /** subscribers (active or not) whose topics changed */
  subscribers: number;
}

/** Names a merge may take at once. */
export const MAX_MERGE_TOPICS = 100;

/**
 * A refused change: `message` for an operator (the CLI shows it), `customerMessage` for a site's
 * editor (the console answers it). `kind` is 'site' when the site is not registered here.
 */
export class TopicRefusal extends DeliveryOperatorError {
  override name = 'TopicRefusal';
  constructor(
    message: string,
    readonly customerMessage: string,
    readonly kind: 'input' | 'site' = 'input',
  ) {
    super(message);
  }
}

/** A name as a message may show it (a refused one may be anything: bounded, control characters escaped). */
const shown = (raw: string): string => echoValue(raw, MAX_NAME_CHARS + 10);

const quoted = (names: readonly string[]): string => names.map((n) => `"${shown(n)}"`).join(', ');

function topicName(raw: string, role: string): string {
  const name = normalizeTopic(raw);
  if (name === null) {
    throw new TopicRefusal(
      `${role} "${raw}" is not a topic name (1 to ${MAX_NAME_CHARS} characters, not starting with "country__")`,
      `"${shown(raw)}" is not a valid topic name: 1 to ${MAX_NAME_CHARS} characters, not starting with "country__"`,
    );
  }
  return name;
}

async function ensureSite(db: Queryable, siteId: string): Promise<void> {
  if (!isUuid(siteId) || !(await findSiteById(db, siteId))) {
    throw new TopicRefusal(`site "${siteId}" is not registered with the delivery service`, 'Site not found', 'site');
  }
}

/** Refused when a name of `topics` is on no subscriber of the site. */
async function ensureKnown(db: Queryable, siteId: string, topics: readonly string[]): Promise<void> {
  const known = await topicsInUse(db, siteId, topics);
  const unknown = topics.filter((t) => !known.has(t));
  if (unknown.length === 0) return;
  throw new TopicRefusal(
    unknown.length === 1 ? `topic "${unknown[0]}" has no subscribers on this site` : `topics ${quoted(unknown)} have no subscribers on this site`,
    unknown.length === 1 ? `Topic "${shown(unknown[0])}" not found` : `Topics ${quoted(unknown)} not found`,
  );
}

/**
 * `unknown`: what a name nobody has does to a merge or a delete. 'ignore' (operators: a delete run
 * twice does nothing the second time) or 'refuse' (the console: a name it did not list is a
 * mistake). A rename of a name nobody has is always refused.
 */
export interface TopicOptions {
  unknown?: 'ignore' | 'refuse';
}

export function createTopicMaintenance(pool: Pool) {
  /** `from` becomes `to` for every subscriber; refused when `to` is already in use (merge instead). */
  async function renameTopic(input: { siteId: string; from: string; to: string }): Promise<TopicChange> {
    const from = topicName(input.from, 'topic');
    const to = topicName(input.to, 'new name');
    if (from === to) throw new TopicRefusal(`topic "${from}" already has that name`, `Topic "${shown(from)}" already has that name`);
    return withTransaction(pool, async (tx) => {
      await ensureSite(tx, input.siteId);
      const inUse = await topicsInUse(tx, input.siteId, [from, to]);
      if (!inUse.has(from)) throw new TopicRefusal(`topic "${from}" has no subscribers on this site`, `Topic "${shown(from)}" not found`);
      if (inUse.has(to)) {
        throw new TopicRefusal(
          `topic "${to}" already exists on this site; use "topics merge" to combine topics`,
          `Topic "${shown(to)}" already exists; merge the topics instead`,
        );
      }
      return { subscribers: await renameSubscriberTopic(tx, input.siteId, from, to) };
    });
  }

  /** Every subscriber with any of `from` gets `into` instead (once); `into` may be new or existing. */
  async function mergeTopics(input: { siteId: string; from: readonly string[]; into: string }, opts: TopicOptions = {}): Promise<TopicChange> {
    if (input.from.length > MAX_MERGE_TOPICS) {
      throw new TopicRefusal(`merge at most ${MAX_MERGE_TOPICS} topics at once`, `Merge at most ${MAX_MERGE_TOPICS} topics at once`);
    }
    const into = topicName(input.into, 'target topic');
    const from = sortedSet(input.from.map((t) => topicName(t, 'topic'))).filter((t) => t !== into);
    if (from.length === 0) throw new TopicRefusal('name at least one topic to merge other than the target', 'Name at least one topic to merge other than the target');
    return withTransaction(pool, async (tx) => {
      await ensureSite(tx, input.siteId);
      if (opts.unknown === 'refuse') await ensureKnown(tx, input.siteId, from);
      return { subscribers: await mergeSubscriberTopics(tx, input.siteId, from, into) };
    });
  }

  /** The topic disappears from every subscriber of the site (they stay subscribed). */
  async function deleteTopic(input: { siteId: string; topic: string }, opts: TopicOptions = {}): Promise<TopicChange> {
    const topic = topicName(input.topic, 'topic');
    return withTransaction(pool, async (tx) => {
      await ensureSite(tx, input.siteId);
      if (opts.unknown === 'refuse') await ensureKnown(tx, input.siteId, [topic]);
      return { subscribers: await removeSubscriberTopic(tx, input.siteId, topic) };
    });
  }

  return { renameTopic, mergeTopics, deleteTopic };
}

export type TopicMaintenance = ReturnType<typeof createTopicMaintenance>;
