// /v2/users/{externalId} (docs/people.md, "The API"): a person of the site — their
// subscriptions and tags read, their tags changed, everything stored about them exported or
// deleted (privacy). Refusals are ValidationError (400) or NotFoundError (404); a refused call
// writes nothing. The export and the delete are recorded as webhook events (person.exported,
// person.deleted) in the same transaction as what they record.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { countryCode } from '../audience/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { externalIdProblem } from './identity.js';
import {
  deletePersonEverywhere,
  emitPersonEvent,
  exportedSubscriptionsOf,
  findPerson,
  historyOfPerson,
  lockOrCreatePerson,
  recentSendsOfPerson,
  subscriptionsOfPerson,
  tagsOfPerson,
  writeTags,
  type PersonRow,
  type PersonSendRow,
  type PersonSubscriptionRow,
  type TagRow,
} from './people-store.js';
import { signalPersonDeleted } from './signal-store.js';
import { MAX_TAGS_PER_PERSON, parseTagChange, TAG_MESSAGES, tagRows } from './tags.js';

export const PEOPLE_MESSAGES = Object.freeze({
  notFound: 'User not found',
  body: 'the body must be a JSON object with tags: {"tags": {"key": value}}',
  invalidJson: 'Invalid JSON body',
});

/**
 * Most sends the console's People page is answered (newest first): a person's page, not their
 * record — the export (owners) has every one.
 */
export const MAX_PERSON_SENDS = 100;

export interface PersonView {
  person: PersonRow;
  subscriptions: PersonSubscriptionRow[];
  /** In key order, as the API shows them (dates as ISO text). */
  tags: Record<string, string | number | boolean>;
}

/** Tags as the API shows them: a date as its ISO 8601 instant in UTC. */
function tagsObject(rows: readonly TagRow[]): Record<string, string | number | boolean> {
  return Object.fromEntries(rows.map((t) => [t.key, t.value instanceof Date ? t.value.toISOString() : t.value]));
}

function checkedId(externalId: string): string {
  const problem = externalIdProblem(externalId);
  if (problem) throw new ValidationError([problem]);
  return externalId;
}

export function createPeople(pool: Pool) {
  async function view(person: PersonRow): Promise<PersonView> {
    const [subscriptions, tags] = await Promise.all([subscriptionsOfPerson(pool, person.id), tagsOfPerson(pool, person.id)]);
    return { person, subscriptions, tags: tagsObject(tags) };
  }

  async function existing(siteId: string, externalId: string): Promise<PersonRow> {
    const person = await findPerson(pool, siteId, checkedId(externalId));
    if (!person) throw new NotFoundError(PEOPLE_MESSAGES.notFound);
    return person;
  }

  return {
    async get(siteId: string, externalId: string): Promise<PersonView> {
      return view(await existing(siteId, externalId));
    },

    /** What was sent to the person's subscriptions, newest first, at most MAX_PERSON_SENDS; `more` when older ones were left out. */
    async sends(siteId: string, externalId: string): Promise<{ sends: PersonSendRow[]; more: boolean }> {
      const person = await existing(siteId, externalId);
      const rows = await recentSendsOfPerson(pool, siteId, person.id, MAX_PERSON_SENDS + 1);
      return { sends: rows.slice(0, MAX_PERSON_SENDS), more: rows.length > MAX_PERSON_SENDS };
    },

    /**
     * PATCH: sets the tags given (null removes one). A person not yet known is made, so a site can
     * tag its users before they subscribe; identify links their subscriptions later.
     */
    async update(siteId: string, externalId: string, bodyJson: string): Promise<PersonView> {
      const id = checkedId(externalId);
      let body: unknown;
      try {
        body = JSON.parse(bodyJson);
      } catch {
        throw new ValidationError([PEOPLE_MESSAGES.invalidJson]);
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).some((k) => k !== 'tags') || !('tags' in body)) {
        throw new ValidationError([PEOPLE_MESSAGES.body]);
      }
      const parsed = parseTagChange((body as { tags: unknown }).tags);
      if ('messages' in parsed) throw new ValidationError(parsed.messages);
      const { change } = parsed;
      const person = await withTransaction(pool, async (tx) => {
        const row = await lockOrCreatePerson(tx, siteId, id);
        // Counted after the change, in its transaction: over the bound, nothing is kept.
        if ((await writeTags(tx, row.id, tagRows(change), change.remove)) > MAX_TAGS_PER_PERSON) throw new ValidationError([TAG_MESSAGES.tooMany]);
        return row;
      });
      return view(person);
    },

    /** The privacy delete (deletePersonEverywhere says what goes), recorded as person.deleted (a webhook event, and a signal to the campaign service). */
    async remove(siteId: string, externalId: string): Promise<{ externalId: string; deleted: true; subscriptions: number }> {
      const id = checkedId(externalId);
      const subscriptions = await withTransaction(pool, async (tx) => {
        const person = await findPerson(tx, siteId, id, true);
        if (!person) throw new NotFoundError(PEOPLE_MESSAGES.notFound);
        const count = await deletePersonEverywhere(tx, siteId, person.id);
        await emitPersonEvent(tx, siteId, 'person.deleted', { externalId: id, subscriptions: count });
        await signalPersonDeleted(tx, siteId, id);
        return count;
      });
      return { externalId: id, deleted: true, subscriptions };
    },

    /** Everything stored about the person, as the JSON the API answers, recorded as person.exported. */
    async export(siteId: string, externalId: string): Promise<string> {
      const person = await existing(siteId, externalId);
      const [subscriptions, tags, history] = await Promise.all([exportedSubscriptionsOf(pool, person.id), tagsOfPerson(pool, person.id), historyOfPerson(pool, siteId, person.id)]);
      const iso = (d: Date | null) => d?.toISOString() ?? null;
      const exported = {
        externalId: person.externalId,
        createdAt: person.createdAt.toISOString(),
        exportedAt: new Date().toISOString(),
        tags: tagsObject(tags),
        subscriptions: subscriptions.map((s) => ({
          id: s.publicId,
          browser: s.browser,
          createdAt: s.createdAt.toISOString(),
          active: s.active,
          deactivatedAt: iso(s.deactivatedAt),
          linkedAt: s.linkedAt.toISOString(),
          lastEngagedAt: iso(s.lastEngagedAt),
          country: countryCode(s.country),
          topics: s.topics,
          language: s.language,
          timeZone: s.timeZone,
        })),
        deliveries: history.deliveries.map((d) => ({ subscriptionId: d.subscriptionId, campaignId: d.campaignId, state: d.state, at: d.claimedAt.toISOString(), finishedAt: iso(d.finishedAt) })),
        events: history.events.map((e) => ({ subscriptionId: e.subscriptionId, campaignId: e.campaignId, type: e.kind, at: e.at.toISOString() })),
      };
      await emitPersonEvent(pool, siteId, 'person.exported', { externalId: person.externalId });
      return JSON.stringify(exported);
    },
  };
}

export type People = ReturnType<typeof createPeople>;
