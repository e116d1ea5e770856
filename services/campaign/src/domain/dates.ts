// The one accepted date form is `YYYY-MM-DDTHH:MM:SSZ` with an optional 1–6 digit fraction,
// truncated to the second (docs/api-decisions.md). Offsets, lowercase `z` and the like are
// refused rather than converted, so a customer never gets a silently shifted schedule.
const UTC_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/;

export const EXAMPLE_DATE = '2025-01-01T12:00:00Z';

/** The instant, truncated to the second, or null when the value is not a valid UTC date string. */
export function parseUtcDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = UTC_DATE.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to the 1900s.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return null;
  return date;
}

export function formatUtcDate(date: Date): string {
  return date.toISOString().slice(0, 19) + 'Z';
}
