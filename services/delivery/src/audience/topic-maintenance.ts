// Operator maintenance of a site's topic names: rename one, merge several into one, delete one.
// Each is one UPDATE of subscribers.topics; the statement-level triggers turn it into exact
// counter changes, so the audience counts stay right without any bookkeeping here. Inactive
// subscribers are rewritten too, so a subscriber who comes back does not bring an old name back.
// Campaigns keep the topic names they were created with (they belong to the campaign service).
import { withTransaction, type Pool, type Queryable } from '../../../shared/src/db.js';
import { findSiteById } from '../sites/site-store.js';
import { DeliveryOperatorError, isUuid } from '../errors.js';
import { normalizeTopic, sortedSet } from './names.js';

export interface TopicChange {
  /** subscribers (active or not) whose topics changed */
  subscribers: number;
}

function topicName(raw: string, role: string): string {
  const name = normalizeTopic(raw);
  if (name === null) throw new DeliveryOperatorError(`${role} "${raw}" is not a topic name (1 to 64 characters, not starting with "country__")`);
  return name;
}

async function ensureSite(db: Queryable, siteId: string): Promise<void> {
  if (!isUuid(siteId) || !(await findSiteById(db, siteId))) throw new DeliveryOperatorError(`site "${siteId}" is not registered with the delivery service`);
}

async function subscribersWith(db: Queryable, siteId: string, topics: string[]): Promise<number> {
  const { rows } = await db.query('SELECT count(*)::int AS n FROM delivery.subscribers WHERE site_id = $1 AND topics && $2::text[]', [siteId, topics]);
  return rows[0].n as number;
}

export function createTopicMaintenance(pool: Pool) {
  /** `from` becomes `to` for every subscriber; refused when `to` is already in use (merge instead). */
  async function renameTopic(input: { siteId: string; from: string; to: string }): Promise<TopicChange> {
    const from = topicName(input.from, 'topic');
    const to = topicName(input.to, 'new name');
    if (from === to) throw new DeliveryOperatorError(`topic "${from}" already has that name`);
    return withTransaction(pool, async (tx) => {
      await ensureSite(tx, input.siteId);
      if ((await subscribersWith(tx, input.siteId, [from])) === 0) throw new DeliveryOperatorError(`topic "${from}" has no subscribers on this site`);
      if ((await subscribersWith(tx, input.siteId, [to])) > 0) {
        throw new DeliveryOperatorError(`topic "${to}" already exists on this site; use "topics merge" to combine topics`);
      }
      const { rowCount } = await tx.query(
        `UPDATE delivery.subscribers SET topics = delivery.topic_set(array_replace(topics, $2, $3)), updated_at = now()
          WHERE site_id = $1 AND topics @> ARRAY[$2]::text[]`,
        [input.siteId, from, to],
      );
      return { subscribers: rowCount ?? 0 };
    });
  }

  /** Every subscriber with any of `from` gets `into` instead (once); `into` may be new or existing. */
  async function mergeTopics(input: { siteId: string; from: readonly string[]; into: string }): Promise<TopicChange> {
    const into = topicName(input.into, 'target topic');
    const from = sortedSet(input.from.map((t) => topicName(t, 'topic'))).filter((t) => t !== into);
    if (from.length === 0) throw new DeliveryOperatorError('name at least one topic to merge other than the target');
    return withTransaction(pool, async (tx) => {
      await ensureSite(tx, input.siteId);
      const { rowCount } = await tx.query(
        `UPDATE delivery.subscribers
            SET topics = delivery.topic_set(array_append(ARRAY(SELECT t FROM unnest(topics) AS t WHERE t <> ALL ($2::text[])), $3)),
                updated_at = now()
          WHERE site_id = $1 AND topics && $2::text[]`,
        [input.siteId, from, into],
      );
      return { subscribers: rowCount ?? 0 };
    });
  }

  /** The topic disappears from every subscriber of the site (they stay subscribed). */
  async function deleteTopic(input: { siteId: string; topic: string }): Promise<TopicChange> {
    const topic = topicName(input.topic, 'topic');
    return withTransaction(pool, async (tx) => {
      await ensureSite(tx, input.siteId);
      const { rowCount } = await tx.query(
        `UPDATE delivery.subscribers SET topics = array_remove(topics, $2), updated_at = now()
          WHERE site_id = $1 AND topics @> ARRAY[$2]::text[]`,
        [input.siteId, topic],
      );
      return { subscribers: rowCount ?? 0 };
    });
  }

  return { renameTopic, mergeTopics, deleteTopic };
}

export type TopicMaintenance = ReturnType<typeof createTopicMaintenance>;
