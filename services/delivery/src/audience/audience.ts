// Audience questions about a site, answered from the precomputed counters (a count narrowed by a
// segment excepted: count-store.ts countSegment).
import type { Pool } from '../../../shared/src/db.js';
import { countByZone, countSegment, countUnion, listNames, type NameCount } from './count-store.js';
import { usersByEffectiveZone } from '../../../shared/src/local-time.js';
import { DEFAULT_SITE_ZONE, siteTimeZone } from '../sites/site-store.js';
import type { Segment } from '../../../shared/src/segment.js';
import { isUuid } from '../errors.js';
import { hasBadCharacters } from '../../../shared/src/text.js';
import { normalizeCountryName, sortedSet } from './names.js';

export type { NameCount };

export function createAudience(pool: Pool) {
  /** The names as stored: a name Postgres would refuse (NUL) or that no subscriber can carry counts nobody. */
  function audienceNames(topics: readonly string[], countries: readonly string[]) {
    return {
      topicNames: sortedSet(topics.map((t) => t.trim().toLowerCase()).filter((t) => t !== '' && !hasBadCharacters(t))),
      countryNames: sortedSet(countries.map(normalizeCountryName).filter((c): c is string => c !== null)),
    };
  }

  /** Active subscribers in topics ∪ countries (∩ the segment's conditions); an unknown or malformed site has nobody. */
  async function countAudience(siteId: string, topics: readonly string[], countries: readonly string[], segment: Segment | null = null): Promise<number> {
    const { topicNames, countryNames } = audienceNames(topics, countries);
    if (!isUuid(siteId) || (topicNames.length === 0 && countryNames.length === 0)) return 0;
    if (segment !== null) return countSegment(pool, siteId.toLowerCase(), topicNames, countryNames, segment);
    return countUnion(pool, siteId.toLowerCase(), topicNames, countryNames);
  }

  /**
   * The same audience by effective zone (local-time.ts usersByEffectiveZone: the subscriber's own zone
   * when known, else the site's default), most subscribers first, with the site's default zone.
   */
  async function countByEffectiveZone(
    siteId: string,
    topics: readonly string[],
    countries: readonly string[],
    segment: Segment | null = null,
  ): Promise<{ zones: NameCount[]; defaultTimeZone: string }> {
    if (!isUuid(siteId)) return { zones: [], defaultTimeZone: DEFAULT_SITE_ZONE };
    const defaultTimeZone = await siteTimeZone(pool, siteId.toLowerCase());
    const { topicNames, countryNames } = audienceNames(topics, countries);
    if (topicNames.length === 0 && countryNames.length === 0) return { zones: [], defaultTimeZone };
    const byZone = usersByEffectiveZone(await countByZone(pool, siteId.toLowerCase(), topicNames, countryNames, segment), defaultTimeZone);
    const zones = [...byZone].map(([name, users]) => ({ name, users })).sort((a, b) => b.users - a.users || (a.name < b.name ? -1 : 1));
    return { zones, defaultTimeZone };
  }

  /** Names with at least one active subscriber, most subscribers first, then by name. */
  async function listTopics(siteId: string): Promise<NameCount[]> {
    return isUuid(siteId) ? listNames(pool, siteId.toLowerCase(), 'topics') : [];
  }

  async function listCountries(siteId: string): Promise<NameCount[]> {
    return isUuid(siteId) ? listNames(pool, siteId.toLowerCase(), 'countries') : [];
  }

  return { countAudience, countByEffectiveZone, listTopics, listCountries };
}

export type Audience = ReturnType<typeof createAudience>;
