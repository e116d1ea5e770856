// The fixed parts of the campaigns read lately (campaigns/campaign-rows.ts, FixedParts), by id, so that
// a read of campaigns this process has seen selects only their live columns: Postgres no longer
// prints the content and topics of every row of every page, and the service no longer escapes
// them. It needs no invalidation: the fixed columns are never updated after the insert (campaigns
// are never edited; the one exception, total_users of a campaign whose audience is not counted
// yet, is written once and such a campaign is not remembered before) and ids are never reused; a deleted campaign is no longer returned by a read,
// so its entry is only memory (dropped on delete here, or as the oldest). Each replica keeps its
// own. Bounded by the characters held, the oldest entry going first.
import type { FixedParts } from './campaign-rows.js';

/**
 * ≈ 16 M characters: 16–32 MB of strings (one or two bytes a character), ≈ 35,000 campaigns of
 * the bench's size (≈ 450 characters each), the first pages of every busy site many times over.
 */
export const FIXED_PARTS_MAX_CHARS = 16_000_000;

/** What an entry costs besides its strings (the key, the object, the map slot), in characters. */
const ENTRY_OVERHEAD_CHARS = 120;

export interface FixedPartsCache {
  get(id: string): FixedParts | undefined;
  remember(id: string, parts: FixedParts): void;
  forget(id: string): void;
}

export function createFixedPartsCache(maxChars = FIXED_PARTS_MAX_CHARS): FixedPartsCache {
  const entries = new Map<string, FixedParts>();
  let chars = 0;
  const size = (p: FixedParts) => p.head.length + p.middle.length + p.totalUsers.length + ENTRY_OVERHEAD_CHARS;
  const forget = (id: string) => {
    const parts = entries.get(id);
    if (parts === undefined) return;
    entries.delete(id);
    chars -= size(parts);
  };
  return {
    get: (id) => entries.get(id),
    remember(id, parts) {
      if (entries.has(id)) return;
      const cost = size(parts);
      if (cost > maxChars) return;
      // Map iteration is insertion order: the first key is the oldest entry. Bounded: each turn removes one.
      while (chars + cost > maxChars) forget(entries.keys().next().value as string);
      entries.set(id, parts);
      chars += cost;
    },
    forget,
  };
}
