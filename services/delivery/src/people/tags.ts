// A person's data tags (docs/people.md, "Tags"): the rules of a PATCH's `tags` object. A value is
// a string, a number, a boolean, or a date — a string in ISO 8601 form (`2026-12-07` or a
// date-time with its offset, `2026-12-07T10:00:00Z`), which is stored as the instant it names —
// and null removes the tag. Keys are 1 to 64 of [a-z0-9_].
import { BAD_CHARACTERS, hasBadCharacters } from '@webpush/shared/text.js';
import { isoDate, isTagKey, MAX_TAG_KEY_CHARS, MAX_TAG_STRING_CHARS } from '@webpush/contracts/tag-values.js';

export { isTagKey, MAX_TAG_KEY_CHARS, MAX_TAG_STRING_CHARS };

export const MAX_TAGS_PER_PERSON = 50;

export const TAG_MESSAGES = Object.freeze({
  tags: 'tags must be an object of tag keys to values',
  key: `tag keys must be 1 to ${MAX_TAG_KEY_CHARS} characters of a-z, 0-9 and _`,
  value: `tag values must be a string of at most ${MAX_TAG_STRING_CHARS} characters, a finite number, true or false, an ISO 8601 date, or null (removes the tag)`,
  valueCharacters: `tag values ${BAD_CHARACTERS}`,
  tooMany: `a user has at most ${MAX_TAGS_PER_PERSON} tags`,
  date: 'a date tag must be a real date (ISO 8601: 2026-12-07, or a date-time with its offset such as 2026-12-07T10:00:00Z)',
});

export type TagValue = { kind: 'string'; value: string } | { kind: 'number'; value: number } | { kind: 'boolean'; value: boolean } | { kind: 'date'; value: Date };

/** What a PATCH asks: tags to set (typed) and keys to remove. */
export interface TagChange {
  set: Map<string, TagValue>;
  remove: string[];
}

/** The change's tags to set, as people-store's writeTags stores them (the value in the column of its kind). */
export function tagRows(change: TagChange) {
  return [...change.set].map(([key, t]) => ({
    key,
    kind: t.kind,
    string: t.kind === 'string' ? t.value : null,
    number: t.kind === 'number' ? t.value : null,
    date: t.kind === 'date' ? t.value : null,
    boolean: t.kind === 'boolean' ? t.value : null,
  }));
}

/** The tags of a PATCH body, or the messages saying why not (each once). */
export function parseTagChange(raw: unknown): { change: TagChange } | { messages: string[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { messages: [TAG_MESSAGES.tags] };
  const entries = Object.entries(raw as Record<string, unknown>);
  const messages = new Set<string>();
  const change: TagChange = { set: new Map(), remove: [] };
  if (entries.length > MAX_TAGS_PER_PERSON) messages.add(TAG_MESSAGES.tooMany);
  for (const [key, value] of entries.slice(0, MAX_TAGS_PER_PERSON + 1)) {
    if (!isTagKey(key)) messages.add(TAG_MESSAGES.key);
    if (value === null) change.remove.push(key);
    else if (typeof value === 'boolean') change.set.set(key, { kind: 'boolean', value });
    else if (typeof value === 'number') {
      if (Number.isFinite(value)) change.set.set(key, { kind: 'number', value });
      else messages.add(TAG_MESSAGES.value);
    } else if (typeof value === 'string') {
      if (hasBadCharacters(value)) messages.add(TAG_MESSAGES.valueCharacters);
      else if ([...value].length > MAX_TAG_STRING_CHARS) messages.add(TAG_MESSAGES.value);
      else {
        const date = isoDate(value);
        if (date === null) messages.add(TAG_MESSAGES.date);
        else change.set.set(key, date === undefined ? { kind: 'string', value } : { kind: 'date', value: date });
      }
    } else messages.add(TAG_MESSAGES.value);
  }
  return messages.size > 0 ? { messages: [...messages] } : { change };
}
