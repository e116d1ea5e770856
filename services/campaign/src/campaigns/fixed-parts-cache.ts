// The fixed fields of the campaigns read lately (campaigns/campaign-rows.ts, FixedFields), by id, so
// that a read of campaigns this process has seen selects only their live columns: Postgres no
// longer prints the content, topics and options of every row of every page, and the service no
// longer parses them. It needs no invalidation: drafts, which the console edits, are never
// remembered (campaigns-store.ts), and once a campaign is past draft its fixed columns are never
// updated (the one exception, total_users of a campaign whose audience is not counted yet, is
// written once and such a campaign is not remembered before); ids are never reused; a deleted campaign is no longer returned by a read,
// so its entry is only memory (dropped on delete here, or as the oldest). Each replica keeps its
// own. Bounded by the characters held, the oldest entry going first.
import type { FixedFields } from './campaign-rows.js';

/**
 * ≈ 16 M characters: 16–32 MB of strings (one or two bytes a character), ≈ 35,000 campaigns of
 * the bench's size (≈ 450 characters each with the overhead), the first pages of every busy site
 * many times over.
 */
export const FIXED_PARTS_MAX_CHARS = 16_000_000;

/** What an entry costs besides its strings (the key, the objects, the map slot), in characters. */
const ENTRY_OVERHEAD_CHARS = 200;

/** The characters an entry holds: its texts, and the rare options (segment, local time, A/B test, notification options) as their JSON's length. */
export function fixedFieldsChars(f: FixedFields): number {
  let chars = ENTRY_OVERHEAD_CHARS + f.title.length + f.body.length + f.link.length + (f.image?.length ?? 0) + (f.icon?.length ?? 0) +
    f.callToAction.length + f.utmSource.length + f.utmMedium.length + f.utmCampaign.length;
  for (const topic of f.topics) chars += topic.length + 8;
  for (const option of [f.segment, f.localTime, f.abTest, f.options]) if (option !== null) chars += JSON.stringify(option).length;
  return chars;
}

export interface FixedPartsCache {
  get(id: string): FixedFields | undefined;
  remember(id: string, fixed: FixedFields): void;
  forget(id: string): void;
}

export function createFixedPartsCache(maxChars = FIXED_PARTS_MAX_CHARS): FixedPartsCache {
  // Each entry's cost is kept beside it: counted once, and given back exactly when it goes.
  const entries = new Map<string, { fixed: FixedFields; cost: number }>();
  let chars = 0;
  const forget = (id: string) => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    chars -= entry.cost;
  };
  return {
    get: (id) => entries.get(id)?.fixed,
    remember(id, fixed) {
      if (entries.has(id)) return;
      const cost = fixedFieldsChars(fixed);
      if (cost > maxChars) return;
      // Map iteration is insertion order: the first key is the oldest entry. Bounded: each turn removes one.
      while (chars + cost > maxChars) forget(entries.keys().next().value as string);
      entries.set(id, { fixed, cost });
      chars += cost;
    },
    forget,
  };
}
