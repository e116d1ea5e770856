// Dates the API takes (create's scheduleDate, the list's startDate/endDate): every RFC 3339
// spelling of a UTC instant, because generated clients send their platform's native form —
// Java's OffsetDateTime and Go's RFC3339Nano nine fraction digits, .NET seven, Python's
// isoformat() `+00:00`. Accepted (docs/api-decisions.md, "Dates"):
//   `T` or `t` between date and time (RFC 3339 §5.6 note), a fraction of 1 to 9 digits, and
//   `Z`, `z`, `+00:00` or `-00:00` (RFC 3339 §4.3: UTC, local offset unknown).
// The fraction is truncated to the second, never rounded: rounding up could carry into the next
// minute, day or year (`9999-12-31T23:59:59.9999999Z` would leave the valid range), and answers
// show seconds. Any other offset is refused rather than converted, so a customer who meant local
// time never gets a silently shifted schedule. Leap seconds (`:60`) are refused: a JavaScript
// Date (and Postgres) cannot hold them.
const UTC_DATE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-]00:00)$/;

export const EXAMPLE_DATE = '2025-01-01T12:00:00Z';

/** The instant, truncated to the second, or null when the value is not an RFC 3339 UTC date string. */
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

/** The answers' one form: `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatUtcDate(date: Date): string {
  return date.toISOString().slice(0, 19) + 'Z';
}
