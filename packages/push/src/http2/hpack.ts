// HPACK (RFC 7541) for the push client's own HTTP/2 connections (connection.ts).
//
// Encoding (HpackEncoder, one per connection): the fields every push to an origin repeats — the
// VAPID Authorization (some 400 bytes), TTL, Content-Encoding, :authority, … — are inserted into
// the server's dynamic table by the first request that carries them (literal with incremental
// indexing, §6.2.1) and sent as a one-byte index afterwards (§6.1), as browsers and nghttp2 do:
// a push's header block falls from about 480 bytes to about 30. What differs per request (:path,
// content-length) goes out as a literal without indexing (§6.2.2) and never touches the table.
// Names come from the static table where it has them; nothing is Huffman-coded. The encoder keeps
// its own copy of the server's table (sizes, eviction in insertion order, §4) and never uses more
// than the server's SETTINGS_HEADER_TABLE_SIZE, at most 4 KB.
//
// Decoding is what a push service sends back, and a push service can be anyone's server (an
// endpoint is whatever the browser's subscription says), so every length and index is checked
// before it is used: integers stop at 2^28, strings at the block's end, the dynamic table at the
// size we advertised, the decoded list at `maxListSize`; Huffman padding must be at most 7 bits
// of ones, and EOS is refused (§5.2). Any violation is an HpackError, which the connection turns
// into a COMPRESSION_ERROR for the whole connection (§2.2: the table is then out of step).

export class HpackError extends Error {
  override readonly name = 'HpackError';
}

/** RFC 7541 Appendix A; index 1 is STATIC[0]. */
const STATIC: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''],
  ['etag', ''], ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''],
  ['if-modified-since', ''], ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''],
  ['last-modified', ''], ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''], ['retry-after', ''],
  ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''], ['transfer-encoding', ''],
  ['user-agent', ''], ['vary', ''], ['via', ''], ['www-authenticate', ''],
];

/** A name's first index in the static table. */
const STATIC_NAME_INDEX = new Map<string, number>();
STATIC.forEach(([name], i) => {
  if (!STATIC_NAME_INDEX.has(name)) STATIC_NAME_INDEX.set(name, i + 1);
});

// The Huffman code (Appendix B) is canonical: codes of one length are consecutive in symbol
// order, and each length's first code follows the previous length's last. So the code lengths
// of the 256 byte values (EOS, symbol 256, is 30 bits of ones) define it; the known answers of
// Appendix C in the tests check the result.
const CODE_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];
const EOS = 256;
const MAX_CODE_LENGTH = 30;

/**
 * Canonical decoding tables: for each length, the first code and where its symbols start in
 * `SYMBOLS` (symbols ordered by length, then value). A code of length L is `c` when
 * c - FIRST[L] < COUNT[L].
 */
const FIRST = new Int32Array(MAX_CODE_LENGTH + 1);
const COUNT = new Int32Array(MAX_CODE_LENGTH + 1);
const OFFSET = new Int32Array(MAX_CODE_LENGTH + 1);
const SYMBOLS = new Uint16Array(CODE_LENGTHS.length);
{
  let code = 0;
  let at = 0;
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    FIRST[length] = code;
    OFFSET[length] = at;
    for (let symbol = 0; symbol < CODE_LENGTHS.length; symbol++) {
      if (CODE_LENGTHS[symbol] !== length) continue;
      SYMBOLS[at++] = symbol;
      code += 1;
    }
    COUNT[length] = at - OFFSET[length];
    code <<= 1;
  }
}

/** Where decoded bytes go before they become a string: grown as needed, reused (one thread). */
let scratch = Buffer.allocUnsafe(1024);

/** Decodes a Huffman-coded string literal (§5.2), bytes as Latin-1 characters. */
export function huffmanDecode(buf: Uint8Array, start: number, end: number): string {
  // The shortest code is 5 bits: at most 8 symbols per 5 bytes.
  const most = Math.ceil(((end - start) * 8) / 5);
  if (scratch.length < most) scratch = Buffer.allocUnsafe(most);
  let n = 0;
  let code = 0;
  let length = 0;
  for (let i = start; i < end; i++) {
    const byte = buf[i];
    for (let bit = 7; bit >= 0; bit--) {
      code = (code << 1) | ((byte >> bit) & 1);
      length += 1;
      const k = code - FIRST[length];
      if (k < COUNT[length]) {
        const symbol = SYMBOLS[OFFSET[length] + k];
        if (symbol === EOS) throw new HpackError('Huffman string holds EOS');
        scratch[n++] = symbol;
        code = 0;
        length = 0;
      } else if (length === MAX_CODE_LENGTH) {
        throw new HpackError('invalid Huffman code');
      }
    }
  }
  // What is left is padding: the most significant bits of EOS (all ones), at most 7 of them.
  if (length > 7 || code !== (1 << length) - 1) throw new HpackError('invalid Huffman padding');
  return scratch.toString('latin1', 0, n);
}

/** Writes an HPACK integer (§5.1) with an n-bit prefix whose high bits are `flags`; returns where it ends. */
function writeInteger(buf: Buffer, at: number, value: number, prefixBits: number, flags: number): number {
  const max = (1 << prefixBits) - 1;
  if (value < max) {
    buf[at] = flags | value;
    return at + 1;
  }
  buf[at++] = flags | max;
  value -= max;
  while (value >= 128) {
    buf[at++] = (value % 128) + 128;
    value = Math.floor(value / 128);
  }
  buf[at] = value;
  return at + 1;
}

/** A string literal, never Huffman-coded; the text is Latin-1 (checked by the callers). */
function writeString(buf: Buffer, at: number, text: string): number {
  at = writeInteger(buf, at, text.length, 7, 0);
  return at + buf.write(text, at, 'latin1');
}

/** The bytes an integer and a string of this length may take at most. */
const STRING_OVERHEAD = 6;
/** What the decoder holds between blocks (nothing). */
const EMPTY = Buffer.alloc(0);

/** A header name an HTTP/2 request may carry: lowercase token characters (RFC 9113 §8.2.1). */
const FIELD_NAME = /^:?[a-z0-9!#$%&'*+.^_`|~-]+$/;
/** A field value without CR, LF, NUL or characters beyond Latin-1 (RFC 9113 §8.2.1). */
const FIELD_VALUE = /^[^\r\n\0\u0100-\uffff]*$/;

/** Whole fields the static table has, by name and value (":method: POST" is one byte). */
const STATIC_FIELD_INDEX = new Map<string, number>();
STATIC.forEach(([name, value], i) => {
  if (value !== '') STATIC_FIELD_INDEX.set(`${name}\n${value}`, i + 1);
});

/** One header field, checked and encoded once, as an encoder may send it. */
export interface Field {
  readonly name: string;
  readonly value: string;
  /** Its size in a dynamic table (§4.1): name + value + 32. */
  readonly size: number;
  /** The static table's index when it holds the whole field (sent as that index, never inserted). */
  readonly staticIndex: number | undefined;
  /** Literal with incremental indexing (§6.2.1): sends it and inserts it into the table. */
  readonly indexing: Buffer;
  /** Literal without indexing (§6.2.2): for a field larger than the table. */
  readonly plain: Buffer;
}

/** A literal (name from the static table where it has one): `flags` 0x40 with a 6-bit index, or 0x00 with 4. */
function literal(name: string, value: string, flags: number, prefix: number): Buffer {
  const buf = Buffer.allocUnsafe(2 * STRING_OVERHEAD + name.length + value.length);
  const index = STATIC_NAME_INDEX.get(name);
  let at: number;
  if (index !== undefined) at = writeInteger(buf, 0, index, prefix, flags);
  else {
    buf[0] = flags;
    at = writeString(buf, 1, name);
  }
  return buf.subarray(0, writeString(buf, at, value));
}

/**
 * Fields by name and value: the same field from different batches is one object, so an encoder
 * finds it in its table by identity. Bounded: emptied when full (fields already handed out stay
 * valid; a new object for the same field is only inserted once more).
 */
const FIELDS = new Map<string, Field>();
const MAX_FIELDS = 4096;

function field(name: string, value: string): Field {
  const key = `${name}\n${value}`;
  let f = FIELDS.get(key);
  if (f === undefined) {
    if (!FIELD_NAME.test(name)) throw new TypeError(`invalid header name: ${JSON.stringify(name)}`);
    if (!FIELD_VALUE.test(value)) throw new TypeError(`invalid value for header ${name}`);
    if (FIELDS.size >= MAX_FIELDS) FIELDS.clear();
    f = {
      name,
      value,
      size: name.length + value.length + 32,
      staticIndex: STATIC_FIELD_INDEX.get(key),
      indexing: literal(name, value, 0x40, 6),
      plain: literal(name, value, 0x00, 4),
    };
    FIELDS.set(key, f);
  }
  return f;
}

/**
 * The fields many requests share ([name, value, name, value, …]; pseudo-header fields first),
 * checked once. Throws a TypeError on a name or value HTTP/2 does not allow: what would be a
 * malformed request is never sent.
 */
export class FieldSet {
  readonly fields: readonly Field[];
  /** How many of `fields` are pseudo-header fields (they come first; :path follows them). */
  readonly pseudo: number;
  /** The most bytes the fields may take in a block, however the table stands (a literal is never shorter than an index). */
  readonly bound: number;

  constructor(flat: readonly string[]) {
    const fields: Field[] = [];
    for (let i = 0; i < flat.length; i += 2) fields.push(field(flat[i], flat[i + 1]));
    let pseudo = 0;
    while (pseudo < fields.length && fields[pseudo].name.startsWith(':')) pseudo += 1;
    if (fields.slice(pseudo).some((f) => f.name.startsWith(':'))) throw new TypeError('pseudo-header fields must come first');
    this.fields = fields;
    this.pseudo = pseudo;
    this.bound = fields.reduce((sum, f) => sum + Math.max(f.indexing.length, f.plain.length), 0);
  }
}

const PATH_INDEX = STATIC_NAME_INDEX.get(':path')!;
const CONTENT_LENGTH_INDEX = STATIC_NAME_INDEX.get('content-length')!;
/** HPACK's dynamic table indexes start after the static table's 61 entries. */
const FIRST_DYNAMIC = STATIC.length + 1;

/**
 * One connection's encoding context: a copy of the server's dynamic table as our blocks fill it.
 * Blocks must reach the server in the order they were made (the connection writes each at once).
 */
export class HpackEncoder {
  /** The table size we use: the server's SETTINGS_HEADER_TABLE_SIZE, at most `limit`. */
  private capacity: number;
  /** A size to announce at the start of the next block (§6.3), after the server's setting changed. */
  private announce: number | undefined;
  /** Entries, oldest first, from `head` on; each field's insertion number in `numbers`. */
  private entries: Field[] = [];
  private head = 0;
  private size = 0;
  private readonly numbers = new Map<Field, number>();
  /** Insertions so far: the newest entry's number is inserted - 1, its index FIRST_DYNAMIC. */
  private inserted = 0;

  /** `limit`: the most table we ever use, whatever the server allows. */
  constructor(private readonly limit = 4096) {
    this.capacity = Math.min(limit, 4096);
  }

  /**
   * The server's SETTINGS_HEADER_TABLE_SIZE (RFC 9113 §6.5.2). Any change is announced in the
   * next block, and a smaller table evicts at once.
   */
  setMaxTableSize(serverMax: number): void {
    const capacity = Math.min(serverMax, this.limit);
    if (capacity === this.capacity && this.announce === undefined) return;
    this.capacity = capacity;
    this.announce = capacity;
    this.evict(0);
  }

  /**
   * One request's header block: the set's pseudo-header fields, its :path, the set's other fields
   * and its content-length. The path is a WHATWG URL's serialisation, ASCII without spaces or
   * controls, so it is not checked again per request.
   */
  requestBlock(set: FieldSet, path: string, contentLength: number): Buffer {
    const length = String(contentLength);
    // A size update, :path and content-length with their static name indexes, and the fields:
    // at most two bytes each when all are in the table already (the usual case: then this block
    // inserts nothing, so evicts nothing), else their literals.
    const { fields, pseudo } = set;
    let fieldBytes = 2 * fields.length;
    for (const f of fields) {
      if (f.staticIndex === undefined && !this.numbers.has(f)) {
        fieldBytes = set.bound;
        break;
      }
    }
    const buf = Buffer.allocUnsafe(6 + 2 * (2 + STRING_OVERHEAD) + path.length + length.length + fieldBytes);
    let at = 0;
    if (this.announce !== undefined) {
      at = writeInteger(buf, at, this.announce, 5, 0x20);
      this.announce = undefined;
    }
    for (let i = 0; i < pseudo; i++) at = this.field(buf, at, fields[i]);
    at = writeInteger(buf, at, PATH_INDEX, 4, 0x00);
    at = writeString(buf, at, path);
    for (let i = pseudo; i < fields.length; i++) at = this.field(buf, at, fields[i]);
    at = writeInteger(buf, at, CONTENT_LENGTH_INDEX, 4, 0x00);
    at = writeString(buf, at, length);
    return buf.subarray(0, at);
  }

  private field(buf: Buffer, at: number, f: Field): number {
    if (f.staticIndex !== undefined) return writeInteger(buf, at, f.staticIndex, 7, 0x80);
    const number = this.numbers.get(f);
    if (number !== undefined) return writeInteger(buf, at, FIRST_DYNAMIC + this.inserted - 1 - number, 7, 0x80);
    // An entry larger than the table would empty it (§4.4): such a field is not indexed.
    const source = f.size <= this.capacity ? f.indexing : f.plain;
    source.copy(buf, at);
    if (source === f.indexing) this.insert(f);
    return at + source.length;
  }

  private insert(f: Field): void {
    this.evict(f.size);
    this.entries.push(f);
    this.size += f.size;
    this.numbers.set(f, this.inserted++);
  }

  /** Evicts the oldest entries until `room` more fits. */
  private evict(room: number): void {
    while (this.size + room > this.capacity && this.head < this.entries.length) {
      const oldest = this.entries[this.head++];
      this.size -= oldest.size;
      this.numbers.delete(oldest);
    }
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

export interface HpackDecoderOptions {
  /** SETTINGS_HEADER_TABLE_SIZE we advertised: the most a size update may set. Default 4096. */
  tableLimit?: number;
  /** The most a decoded field list may weigh (names + values + 32 per field, §4.1). Default 65536. */
  maxListSize?: number;
}

/** One connection's decoding context (the dynamic table lives as long as the connection). */
export class HpackDecoder {
  private readonly tableLimit: number;
  private readonly maxListSize: number;
  /** Newest first. */
  private readonly table: Array<[string, string]> = [];
  private tableSize = 0;
  private maxTableSize: number;

  constructor(opts: HpackDecoderOptions = {}) {
    this.tableLimit = opts.tableLimit ?? 4096;
    this.maxListSize = opts.maxListSize ?? 65536;
    this.maxTableSize = this.tableLimit;
  }

  // The block being decoded and the position in it: fields, not closures over locals, so a
  // response's decoding allocates only its fields (one block at a time: decode is synchronous).
  private block: Buffer = EMPTY;
  private at = 0;

  /** Decodes one complete header block into [name, value, name, value, …]. */
  decode(block: Buffer): string[] {
    const out: string[] = [];
    let listSize = 0;
    let fieldsSeen = false;
    this.block = block;
    this.at = 0;
    try {
      while (this.at < block.length) {
        const byte = block[this.at];
        let name: string;
        let value: string;
        let indexing = false;
        if (byte & 0x80) {
          // Indexed field (§6.1).
          [name, value] = this.entry(this.integer(7));
        } else if ((byte & 0xe0) === 0x20) {
          // Dynamic table size update (§6.3): only before the block's first field.
          if (fieldsSeen) throw new HpackError('table size update after a header field');
          const size = this.integer(5);
          if (size > this.tableLimit) throw new HpackError(`table size update to ${size}, above ${this.tableLimit}`);
          this.maxTableSize = size;
          this.evict(0);
          continue;
        } else {
          // Literal with incremental indexing (§6.2.1, 01xxxxxx), without (0000xxxx) or never indexed (0001xxxx).
          indexing = (byte & 0xc0) === 0x40;
          const index = this.integer(indexing ? 6 : 4);
          name = index === 0 ? this.string() : this.entry(index)[0];
          value = this.string();
        }
        listSize += name.length + value.length + 32;
        if (listSize > this.maxListSize) throw new HpackError('header list too large');
        out.push(name, value);
        if (indexing) this.insert(name, value);
        fieldsSeen = true;
      }
    } finally {
      this.block = EMPTY;
    }
    return out;
  }

  /** An integer with an N-bit prefix (§5.1). */
  private integer(prefixBits: number): number {
    const { block } = this;
    if (this.at >= block.length) throw new HpackError('header block truncated');
    const max = (1 << prefixBits) - 1;
    let value = block[this.at++] & max;
    if (value < max) return value;
    for (let shift = 0; ; shift += 7) {
      if (this.at >= block.length) throw new HpackError('header block truncated');
      if (shift > 21) throw new HpackError('integer too large');
      const byte = block[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  }

  /** A string literal (§5.2), Huffman-coded or not. */
  private string(): string {
    const { block } = this;
    if (this.at >= block.length) throw new HpackError('header block truncated');
    const huffman = (block[this.at] & 0x80) !== 0;
    const length = this.integer(7);
    if (length > block.length - this.at) throw new HpackError('string literal past the end of the block');
    const start = this.at;
    this.at += length;
    return huffman ? huffmanDecode(block, start, this.at) : block.toString('latin1', start, this.at);
  }

  /** The field at a static or dynamic table index (§2.3.3). */
  private entry(index: number): readonly [string, string] {
    if (index >= 1 && index <= STATIC.length) return STATIC[index - 1];
    const dynamic = this.table[index - STATIC.length - 1];
    if (index === 0 || !dynamic) throw new HpackError(`header index ${index} out of range`);
    return dynamic;
  }

  private insert(name: string, value: string): void {
    const size = name.length + value.length + 32;
    // An entry larger than the table empties it and is not added (§4.4).
    if (size > this.maxTableSize) {
      this.table.length = 0;
      this.tableSize = 0;
      return;
    }
    this.evict(size);
    this.table.unshift([name, value]);
    this.tableSize += size;
  }

  /** Evicts the oldest entries until `room` more fits. */
  private evict(room: number): void {
    while (this.tableSize + room > this.maxTableSize && this.table.length > 0) {
      const [name, value] = this.table.pop()!;
      this.tableSize -= name.length + value.length + 32;
    }
  }
}
