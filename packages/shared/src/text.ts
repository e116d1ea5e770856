// Client text at the boundaries. Two code points no field may carry: NUL (Postgres refuses it
// in text, so it would surface as a 500) and lone UTF-16 surrogates (not text at all: UTF-8
// encoders replace them with U+FFFD, so they would be stored changed, and `encodeURI` /
// `encodeURIComponent` throw URIError on them — grpc-js runs `encodeURI` on status details).
// And the helpers that make any text safe to echo: well-formed and bounded.

// ES2024 string methods, present since Node 20; the project's `lib` is ES2023.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** The tail of every message about such text: `<Field> must not contain NUL characters or unpaired surrogates`. */
export const BAD_CHARACTERS = 'must not contain NUL characters or unpaired surrogates';

/** True when `text` holds a NUL or an unpaired surrogate. Linear, no allocation. */
export function hasBadCharacters(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

/** True when `value` is an array with a string item that holds a NUL or an unpaired surrogate. */
export function someHasBadCharacters(value: unknown): boolean {
  return Array.isArray(value) && value.some((v) => typeof v === 'string' && hasBadCharacters(v));
}

/**
 * At most `maxChars` UTF-16 code units (so at most that many characters), cut at a code point
 * boundary, with "…" when something was cut. The input is taken as it is: make it well-formed
 * first when it may not be.
 */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--; // do not split a pair
  return text.slice(0, end) + '…';
}

/** Any string made safe for a header, a URL encoder or a log line: well-formed and bounded. */
export function safeText(text: string, maxChars: number): string {
  // Bound first so the well-forming never walks a huge string; a cut pair is re-formed below.
  return truncate(text.length > maxChars ? text.slice(0, maxChars + 1) : text, maxChars).toWellFormed();
}

// Control characters, and surrogates not part of a pair, are shown escaped.
const UNSHOWABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A client value as an error message may echo it: control characters and unpaired surrogates
 * written as `\uXXXX`, at most `maxChars` characters ("…" when cut).
 */
export function echoValue(text: string, maxChars: number): string {
  const head = text.length > maxChars ? text.slice(0, maxChars + 1) : text;
  const shown = head.replace(UNSHOWABLE, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  return truncate(shown, maxChars).toWellFormed();
}
