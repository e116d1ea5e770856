// Hostile values: arbitrary Unicode (with the code points that broke the platform before: NUL,
// lone surrogates, RTL override, ZWJ), huge values, wrong types, deep nesting; raw bodies,
// content types and encodings; odd path segments. Bodies are serialised with JSON escapes, so
// a lone surrogate travels as `\ud800` (a JS string body would be turned into U+FFFD on the way).
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import fc from 'fast-check';

/** Text of a JSON value placed as is inside a generated body (deep nesting). */
export class RawJson {
  constructor(
    readonly text: string,
    readonly label: string,
  ) {}
  toJSON() {
    return `<raw ${this.label}>`;
  }
}

export const DEEP_ARRAYS = new RawJson('['.repeat(10_000) + ']'.repeat(10_000), '10,000 nested arrays');
export const DEEPER_ARRAYS = new RawJson('['.repeat(45_000) + ']'.repeat(45_000), '45,000 nested arrays');
export const DEEP_OBJECTS = new RawJson('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), '10,000 nested objects');

/** The code points (and short sequences) that broke or confused the platform, or might. */
export const SPECIAL_UNITS: readonly string[] = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u202e',
  '\u200d',
  '\ufeff',
  '\uffff',
  '\ufffe',
  '\u2028',
  '\u0085',
  '\r\n',
  '\u001b[31m',
  '"',
  '\\',
  '%',
  '%00',
  '%ud800',
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  '\u0130',
  '\u0301',
  '\u{e0001}',
];

const unit = fc.oneof({ arbitrary: fc.constantFrom(...SPECIAL_UNITS), weight: 1 }, { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 2 });

export const NOTABLE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  'a\u0000b',
  'news\u0000',
  'abc\ud800',
  '\u202egnp.exe',
  'a\u200db',
  'javascript:alert(1)',
  'https://shop.example/\u0000',
  'https://shop.example/\ud800',
  '${jndi:ldap://x}',
  "'; DROP TABLE campaigns; --",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'country__br',
  'x'.repeat(101),
  'x'.repeat(4097),
  '\ud83d', // a high surrogate whose pair is missing
  '\ude00\ud83d', // a reversed pair
];

const huge = fc
  .tuple(fc.constantFrom('x', '\u0000', '\ud800', '\u00e9', '\u{1f600}', '\u202e', '%'), fc.integer({ min: 2_000, max: 48_000 }))
  .map(([c, n]) => c.repeat(Math.ceil(n / c.length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit, maxLength: 40 }), weight: 4 },
  { arbitrary: fc.constantFrom(...NOTABLE_STRINGS), weight: 3 },
  { arbitrary: huge, weight: 1 },
);

/** Any JSON-able value a field should not hold, and a few it should. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 8 },
  { arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)), weight: 2 },
  { arbitrary: fc.constantFrom(1e308, -1, 0, 2_419_201, 2 ** 53 + 1, -0, 0.5), weight: 1 },
  { arbitrary: fc.array(hostileString, { maxLength: 6 }), weight: 4 },
  { arbitrary: fc.constantFrom<unknown>({}, [], [[]], { a: 1 }, [null], [1, 2], [{}], DEEP_ARRAYS, DEEP_OBJECTS, DEEPER_ARRAYS), weight: 2 },
  { arbitrary: fc.integer({ min: 1_000, max: 12_000 }).map((n) => Array.from({ length: n }, (_, i) => `t${i}`)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);

/** JSON text of `value`, with RawJson pieces inserted verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds (anywhere) a string with a NUL or an unpaired surrogate. */
export function hasBadText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasBadText);
  if (value instanceof RawJson) return false;
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasBadText);
  return false;
}

/** A path segment carrying `s`: percent-encoded as UTF-8; lone surrogates as the bytes a careless encoder would make. */
export function pathSegment(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) out += `%${(0xe0 | (cp >> 12)).toString(16).toUpperCase()}%${(0x80 | ((cp >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (cp & 0x3f)).toString(16).toUpperCase()}`;
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/** Odd path segments, written as they go on the wire. */
export const ODD_SEGMENTS: readonly string[] = [
  '%00',
  'abc%00def',
  '%ud800',
  '%uD800%uDFFF',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%E0%A4%A',
  '%',
  '%%',
  '%2e%2e',
  '..%2f..%2fhealthz',
  '..%2F..%2Fmetrics',
  '%2fmetrics',
  '%5c..%5cmetrics',
  '%E2%80%AE',
  '%E2%80%8D',
  '00000000-0000-0000-0000-000000000000',
  '00000000-0000-0000-0000-00000000000G',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '-1',
  '1e309',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%20',
  '+',
  '%0d%0aX-Injected:%201',
  'a'.repeat(1_000),
  'a'.repeat(7_000),
  '%41'.repeat(2_000),
];

/** Whole bodies that are not JSON objects, or are odd ones. */
export const RAW_BODIES: readonly { label: string; body: Buffer }[] = [
  { label: 'empty', body: Buffer.alloc(0) },
  { label: 'spaces', body: Buffer.from('   \r\n ') },
  { label: 'null', body: Buffer.from('null') },
  { label: 'array', body: Buffer.from('[]') },
  { label: 'string', body: Buffer.from('"x"') },
  { label: 'number', body: Buffer.from('1') },
  { label: 'truncated', body: Buffer.from('{"title":') },
  { label: 'open brace', body: Buffer.from('{') },
  { label: 'BOM + {}', body: Buffer.from('\ufeff{}') },
  { label: 'invalid UTF-8 0xff 0xfe', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { label: 'CESU-8 surrogate bytes', body: Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","status":["'), Buffer.from([0xed, 0xbf, 0xbf]), Buffer.from('"]}')]) },
  { label: 'overlong UTF-8', body: Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]), Buffer.from('"}')]) },
  { label: 'raw NUL byte', body: Buffer.from('{"title":"a\u0000b"}', 'utf8') },
  { label: 'escaped NUL and surrogate', body: Buffer.from('{"title":"a\\u0000b","body":"\\ud800\\udfff\\ud800","status":["\\udfff"],"topics":["\\u0000"]}') },
  { label: 'duplicate keys', body: Buffer.from('{"status":"draft","status":"published","status":["\\ud800"]}') },
  { label: '__proto__ key', body: Buffer.from('{"__proto__":{"status":"draft","isAdmin":true},"constructor":{"prototype":{"x":1}}}') },
  { label: 'top-level deep arrays', body: Buffer.from(DEEP_ARRAYS.text) },
  { label: 'deep arrays in status', body: Buffer.from(`{"status":${DEEP_ARRAYS.text},"topics":${DEEP_ARRAYS.text}}`) },
  { label: 'deep objects in title', body: Buffer.from(`{"title":${DEEP_OBJECTS.text}}`) },
  { label: '45,000 nested arrays', body: Buffer.from(`{"status":${DEEPER_ARRAYS.text}}`) },
  { label: 'huge number', body: Buffer.from(`{"limit":${'9'.repeat(5000)},"ttl":1e999}`) },
  { label: '99 kB string', body: Buffer.from(`{"title":"${'x'.repeat(99_000)}"}`) },
  { label: 'just over 100 kB', body: Buffer.from(`{"title":"${'x'.repeat(102_500)}"}`) },
  { label: '1 MB', body: Buffer.alloc(1_000_000, 0x20) },
  { label: '10,000 status items', body: Buffer.from(JSON.stringify({ status: Array.from({ length: 10_000 }, () => 'sent') })) },
  { label: '75,000-char status', body: Buffer.from(JSON.stringify({ status: ['x'.repeat(75_000)] })) },
  { label: 'binary garbage', body: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256)) },
];

export const CONTENT_TYPES: readonly (string | null)[] = [
  null,
  'application/json',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus-9',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  ';;;',
];

/** A valid JSON body of the endpoint, sent with odd framing of its bytes. */
export function encodedVariants(validJson: string): { label: string; headers: [string, string][]; body: Buffer }[] {
  const bytes = Buffer.from(validJson, 'utf8');
  const utf16 = Buffer.from('\ufeff' + validJson, 'utf16le');
  return [
    { label: 'gzip', headers: [['Content-Encoding', 'gzip']], body: gzipSync(bytes) },
    { label: 'deflate', headers: [['Content-Encoding', 'deflate']], body: deflateSync(bytes) },
    { label: 'br', headers: [['Content-Encoding', 'br']], body: brotliCompressSync(bytes) },
    { label: 'gzip, gzip (once)', headers: [['Content-Encoding', 'gzip, gzip']], body: gzipSync(bytes) },
    { label: 'gzip header, plain body', headers: [['Content-Encoding', 'gzip']], body: bytes },
    { label: 'gzip, truncated', headers: [['Content-Encoding', 'gzip']], body: gzipSync(bytes).subarray(0, 12) },
    { label: 'gzip bomb (20 MB of spaces)', headers: [['Content-Encoding', 'gzip']], body: gzipSync(Buffer.alloc(20_000_000, 0x20)) },
    { label: 'unknown encoding', headers: [['Content-Encoding', 'x-zip']], body: bytes },
    { label: 'identity', headers: [['Content-Encoding', 'identity']], body: bytes },
    { label: 'utf-16le with charset', headers: [['Content-Type', 'application/json; charset=utf-16']], body: utf16 },
    { label: 'utf-16le, no charset', headers: [['Content-Type', 'application/json']], body: utf16 },
    { label: 'utf-32 charset', headers: [['Content-Type', 'application/json; charset=utf-32']], body: bytes },
  ];
}

/**
 * RFC 3339 date-times at the edges of what Postgres stores (it has no year 0; RFC 3339 has),
 * with offsets that cross them, and calendar dates that do not exist.
 */
export const edgeDateTime: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('0000', '0001', '1969', '9999'), fc.constantFrom('-01-01T00:00:00', '-01-01T00:30:00', '-12-31T23:59:59', '-02-29T12:00:00', '-02-30T00:00:00'), fc.constantFrom('Z', '+01:00', '-01:00', '.5Z', '+14:00'))
  .map(([year, rest, zone]) => `${year}${rest}${zone}`);

/**
 * Texts a spreadsheet would run as a formula once it splits a cell at `;` or a tab (the
 * separators it may be set to): formula starts after a separator, not only first.
 */
export const spreadsheetFormula: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('0', 'news', ''), fc.constantFrom(';', '\t', ';;', ','), fc.constantFrom('=HYPERLINK("https://evil.example","x")', '+1+1', '-2+3', '@SUM(1)', '=1;=2'))
  .map(([before, sep, formula]) => `${before}${sep}${formula}`);
