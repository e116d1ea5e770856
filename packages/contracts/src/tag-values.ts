// The rules of data tags (docs/people.md, "Tags") that a segment's tag conditions share
// (segment.ts): a key's form, a string's length, and when a text is a date. A string in ISO 8601 form —
// `2026-12-07` (midnight UTC) or a date-time with its offset (`2026-12-07T10:00:00+01:00`) — names
// an instant and is a date; an impossible one (`2026-02-30`, 25:00) is refused rather than taken
// as a string. The one rule for a tag's value (delivery's people/tags.ts) and for a segment's tag
// condition's value (segment.ts), so a condition compares a date with the dates tags hold.

export const MAX_TAG_KEY_CHARS = 64;
export const MAX_TAG_STRING_CHARS = 256;

const KEY = new RegExp(`^[a-z0-9_]{1,${MAX_TAG_KEY_CHARS}}$`);

/** Whether `key` may be a tag's key: 1 to 64 of a-z, 0-9 and _. */
export function isTagKey(key: string): boolean {
  return KEY.test(key);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant an ISO 8601 text names; null when it is not one (2026-02-30, 25:00, …); undefined when the text is no date at all. */
export function isoDate(text: string): Date | null | undefined {
  const day = ISO_DATE.exec(text);
  const full = day ? null : ISO_DATE_TIME.exec(text);
  const m = day ?? full;
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const calendar = new Date(Date.UTC(y, mo - 1, d));
  if (calendar.getUTCFullYear() !== y || calendar.getUTCMonth() !== mo - 1 || calendar.getUTCDate() !== d) return null;
  if (day) return calendar;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}
