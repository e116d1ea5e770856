// Opaque page cursors: base64url(JSON payload) "." base64url(HMAC-SHA256(payload text)).
// The MAC covers the encoded text and is compared as text, so no alternative encoding of the
// same bytes (base64 padding bits) is ever accepted.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../base/canonical-json.js';
import { formatUtcDate } from '../base/dates.js';
import type { ListInput } from './list-input.js';
import { ValidationError } from '../base/errors.js';
import { isUuid, UUID } from '../base/ids.js';
import { MESSAGES } from '../base/texts.js';

const SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
// Cursors this codec makes are about 250 characters; anything much longer is not one of them.
const MAX_CURSOR_CHARS = 1024;

/** Where the previous page stopped: the sort value (microsecond text from Postgres) and id. */
export interface CursorPosition {
  sortKey: string;
  id: string;
}

interface CursorPayload {
  v: 1;
  site: string;
  filters: string;
  limit: number;
  key: string;
  id: string;
}

/** What a cursor pages through: the campaigns a list's filters select, or a site's templates (templates/), feeds (feeds/) or automations (automations/). */
export type CursorScope = ListInput | { listing: 'templates' | 'feeds' | 'automations'; limit: number };

/** Hash of the filters a cursor is bound to: period, date field and status set; or the templates. */
function filterHash(input: CursorScope): string {
  if ('listing' in input) return sha256Hex(canonicalJson({ listing: input.listing }));
  return sha256Hex(
    canonicalJson({
      startDate: input.startDate ? formatUtcDate(input.startDate) : null,
      endDate: input.endDate ? formatUtcDate(input.endDate) : null,
      dateField: input.dateField,
      status: input.statuses,
    }),
  );
}

export function createCursorCodec(secret: Buffer) {
  // A KeyObject made once: Node 24's createHmac costs ≈ 40 µs more per call with a Buffer key.
  const key = createSecretKey(secret);
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');

  return {
    encode(siteId: string, input: CursorScope, position: CursorPosition): string {
      const payload: CursorPayload = { v: 1, site: siteId, filters: filterHash(input), limit: input.limit, key: position.sortKey, id: position.id };
      const text = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${text}.${mac(text)}`;
    },

    /** The position, or null when the cursor is altered or made for another site, filters or limit. */
    decode(cursor: string, siteId: string, input: CursorScope): CursorPosition | null {
      if (cursor.length > MAX_CURSOR_CHARS) return null;
      const parts = cursor.split('.');
      if (parts.length !== 2) return null;
      const [text, given] = parts;
      const expected = Buffer.from(mac(text));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
      let payload: CursorPayload;
      try {
        payload = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorPayload;
      } catch {
        return null;
      }
      if (
        payload?.v !== 1 ||
        payload.site !== siteId ||
        payload.filters !== filterHash(input) ||
        payload.limit !== input.limit ||
        typeof payload.key !== 'string' ||
        !SORT_KEY.test(payload.key) ||
        typeof payload.id !== 'string' ||
        !UUID.test(payload.id)
      ) {
        return null;
      }
      return { sortKey: payload.key, id: payload.id };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;

/** A page of a site's listing, newest first, as the API answers it. */
export interface ListingPage<Item> {
  items: Item[];
  limit: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * One page of a site's templates, feeds or automations: the cursor checked against the site and
 * the limit (400 `invalidCursor` when it is not one this codec made for them), `read` asked for
 * `limit + 1` rows after it (the one more says whether a next page exists), and the next page's
 * cursor signed at the last row shown. A site id that is not a UUID has no rows.
 */
export async function listingPage<Row extends CursorPosition, Item>(
  codec: CursorCodec,
  siteId: string,
  listing: 'templates' | 'feeds' | 'automations',
  limit: number,
  cursor: string,
  read: (after: CursorPosition | null) => Promise<Row[]>,
  itemOf: (row: Row) => Item,
): Promise<ListingPage<Item>> {
  const scope = { listing, limit };
  const after = cursor === '' ? null : codec.decode(cursor, siteId, scope);
  if (cursor !== '' && after === null) throw new ValidationError([MESSAGES.invalidCursor]);
  const rows = isUuid(siteId) ? await read(after) : [];
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = items[items.length - 1];
  return { items: items.map(itemOf), limit, hasMore, nextCursor: hasMore ? codec.encode(siteId, scope, { sortKey: last.sortKey, id: last.id }) : null };
}
