// Topic and country names as stored and as the /v2 API shows them: lowercase, countries
// prefixed with `country__`, an unknown country grouped under `country__desconhecido`.

export const COUNTRY_PREFIX = 'country__';
export const UNKNOWN_COUNTRY = 'country__desconhecido';
export const MAX_NAME_CHARS = 64;

// Control characters are refused so a name can never carry a separator used in bulk SQL;
// unpaired surrogates because UTF-8 cannot carry them (they would be stored as U+FFFD).
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A topic name ready to store, or null when it is not one (empty, too long, a country). */
export function normalizeTopic(raw: string): string | null {
  const name = raw.trim().toLowerCase();
  const chars = [...name].length;
  if (chars < 1 || chars > MAX_NAME_CHARS || CONTROL.test(name) || !name.isWellFormed() || name.startsWith(COUNTRY_PREFIX)) return null;
  return name;
}

/** The country of a subscriber from the trusted edge header's ISO 3166-1 alpha-2 code. */
export function countryFromCode(code: string | undefined): string {
  const value = code?.trim() ?? '';
  return /^[a-zA-Z]{2}$/.test(value) ? COUNTRY_PREFIX + value.toLowerCase() : UNKNOWN_COUNTRY;
}

/** A country name as an operator or another service writes it: `BR`, `br` or `country__br`. */
export function normalizeCountryName(raw: string): string | null {
  const name = raw.trim().toLowerCase();
  if (name === '' || name === COUNTRY_PREFIX || CONTROL.test(name) || !name.isWellFormed()) return null;
  const full = name.startsWith(COUNTRY_PREFIX) ? name : COUNTRY_PREFIX + name;
  return [...full].length <= MAX_NAME_CHARS + COUNTRY_PREFIX.length ? full : null;
}

/** Distinct names in code-unit order, the order the counters use for a topic set. */
export function sortedSet(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A stored country as the exports and webhooks show it: the two-letter code in capitals ('BR'), null when unknown. */
export function countryCode(stored: string): string | null {
  return stored === UNKNOWN_COUNTRY ? null : stored.slice(COUNTRY_PREFIX.length).toUpperCase();
}
