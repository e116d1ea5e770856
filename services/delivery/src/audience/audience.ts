// Audience questions about a site, answered from the precomputed counters (a count narrowed by a
// segment excepted: count-store.ts countSegment).
import type { Pool } from '../../../shared/src/db.js';
import { countSegment, countUnion, listNames, type NameCount } from './count-store.js';
import type { Segment } from '../../../shared/src/segment.js';
import { isUuid } from '../errors.js';
import { hasBadCharacters } from '../../../shared/src/text.js';
import { normalizeCountryName, sortedSet } from './names.js';

export type { NameCount };

export function createAudience(pool: Pool) {
  /** Active subscribers in topics ∪ countries (∩ the segment's conditions); an unknown or malformed site has nobody. */
  async function countAudience(siteId: string, topics: readonly string[], countries: readonly string[], segment: Segment | null = null): Promise<number> {
    // A name Postgres would refuse (NUL) or that no subscriber can carry counts nobody.
    const topicNames = sortedSet(topics.map((t) => t.trim().toLowerCase()).filter((t) => t !== '' && !hasBadCharacters(t)));
    const countryNames = sortedSet(countries.map(normalizeCountryName).filter((c): c is string => c !== null));
    if (!isUuid(siteId) || (topicNames.length === 0 && countryNames.length === 0)) return 0;
    if (segment !== null) return countSegment(pool, siteId.toLowerCase(), topicNames, countryNames, segment);
    return countUnion(pool, siteId.toLowerCase(), topicNames, countryNames);
  }

  /** Names with at least one active subscriber, most subscribers first, then by name. */
  async function listTopics(siteId: string): Promise<NameCount[]> {
    return isUuid(siteId) ? listNames(pool, siteId.toLowerCase(), 'topics') : [];
  }

  async function listCountries(siteId: string): Promise<NameCount[]> {
    return isUuid(siteId) ? listNames(pool, siteId.toLowerCase(), 'countries') : [];
  }

  return { countAudience, listTopics, listCountries };
}

export type Audience = ReturnType<typeof createAudience>;
