// Audience questions about a site, answered from the precomputed counters (per-profile counts included); only
// a segment with a time condition (subscribed after/before, engagement) is counted over the
// site's subscribers, and that count is bounded (scanBudget below).
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { countByZone, countSegment, countUnion, listNames, type NameCount } from './count-store.js';
import { hasTimeConditions } from './segment-sql.js';
import { usersByEffectiveZone } from '@webpush/contracts/local-time.js';
import { DEFAULT_SITE_ZONE, siteTimeZone } from '../sites/index.js';
import type { Segment } from '@webpush/contracts/segment.js';
import { isUuid } from '../errors.js';
import { hasBadCharacters } from '@webpush/shared/text.js';
import { normalizeCountryName, sortedSet } from './names.js';

export type { NameCount };

/**
 * What a count over the subscribers may take, per delivery process: at most SCANS at once, each at
 * most TIMEOUT_MS of Postgres time (statement_timeout). A create waits for it (the campaign
 * service's AUDIENCE_DEADLINE_MS is 5 s), and at 10,000,000 subscribers ten such counts at once
 * took Postgres from sending and from the readiness check. Past the budget the answer is the
 * count without the time conditions, from the counters: an upper bound of the exact count
 * (docs/api-decisions.md, "Segments": totalUsers is the spec's estimate), never an error.
 */
export const SCAN_BUDGET = { SCANS: 2, TIMEOUT_MS: 1000 } as const;

/** The segment without its time conditions: what the counters can count. */
function staticPart(segment: Segment): Segment {
  const { subscribedAfter: _a, subscribedBefore: _b, engagedWithinDays: _e, notEngagedForDays: _n, ...rest } = segment;
  return rest;
}

export function createAudience(pool: Pool, opts: { log?: Logger; scanBudget?: { SCANS: number; TIMEOUT_MS: number } } = {}) {
  const budget = opts.scanBudget ?? SCAN_BUDGET;
  let scans = 0;

  /**
   * `count(db, segment)` exactly when the segment has no time condition; with one, within the
   * scan budget, else `count(pool, static part)` (an upper bound).
   */
  async function bounded<T>(siteId: string, segment: Segment | null, count: (db: Queryable, segment: Segment | null) => Promise<T>): Promise<T> {
    if (!hasTimeConditions(segment)) return count(pool, segment);
    if (scans < budget.SCANS) {
      scans++;
      try {
        return await withTransaction(pool, async (tx) => {
          await tx.query(`SET LOCAL statement_timeout = ${Math.floor(budget.TIMEOUT_MS)}`);
          return count(tx, segment);
        });
      } catch (err) {
        // 57014: query_canceled, here the statement timeout; anything else is a real failure.
        if ((err as { code?: string }).code !== '57014') throw err;
        opts.log?.warn('a segment count over the subscribers ran past its budget; answered without its time conditions (an upper bound)', { siteId, timeoutMs: budget.TIMEOUT_MS });
      } finally {
        scans--;
      }
    } else {
      opts.log?.warn('segment counts over the subscribers all busy; answered without the time conditions (an upper bound)', { siteId, scans: budget.SCANS });
    }
    return count(pool, staticPart(segment!));
  }

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
    if (segment !== null) return bounded(siteId, segment, (db, s) => countSegment(db, siteId.toLowerCase(), topicNames, countryNames, s!));
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
    const reported = await bounded(siteId, segment, (db, s) => countByZone(db, siteId.toLowerCase(), topicNames, countryNames, s));
    const byZone = usersByEffectiveZone(reported, defaultTimeZone);
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
