// Audience questions about a site, answered from the precomputed counters (per-profile counts included); only
// a segment with a time or tag condition (subscribed after/before, engagement, data tags) reads the subscribers: on a
// site of at most EXACT_SCAN_LIMIT active subscribers, counted exactly within a budget (SCAN_BUDGET);
// on a larger one, estimated from the site's fixed 1-in-128 sample with a stated bound (estimate).
import { withTransaction, type Pool, type Queryable } from '@webpush/shared/db.js';
import type { Logger } from '@webpush/shared/log.js';
import { countByZone, countSegment, countUnion, listNames, sampleSegment, siteActiveSubscribers, type NameCount } from './count-store.js';
import { hasRowConditions, staticPart } from './segment-sql.js';
import { usersByEffectiveZone, type QuietHours } from '@webpush/contracts/local-time.js';
import { DEFAULT_SITE_ZONE, siteQuietHours, siteTimeZone } from '../sites/index.js';
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
 * count without the time and tag conditions, from the counters: an upper bound of the exact count
 * (docs/api-decisions.md, "Segments": totalUsers is the spec's estimate), never an error.
 * Only sites of at most EXACT_SCAN_LIMIT active subscribers are scanned, so the budget is a
 * safety net, not the rule.
 */
export const SCAN_BUDGET = { SCANS: 2, TIMEOUT_MS: 1000 } as const;

/**
 * Active subscribers of a site up to which a segment with a time or tag condition is counted exactly over
 * them; above, it is estimated from the sample. The exact count reads every active row of the
 * site (its cost is the site's size, whatever the audience): at 100,000 it took 81 ms, at
 * 1,000,000 421 ms, where the whole sample took 13 ms (p50, load average 5, 2026-12-05).
 */
export const EXACT_SCAN_LIMIT = 100_000;

/**
 * Sampled rows a count from the sample reads at most, whatever the site's size: the slices of the
 * site's 1-in-128 sample that hold about this many (all 1024 up to 1,048,576 subscribers). Each is
 * a heap row (and an engagement lookup): 13 ms of Postgres for ≈ 7,800. The bound follows from
 * the rows in the static audience: ≤ ±1.1 % of it when that is the whole site.
 */
export const SAMPLE_ROWS = 8_192;

/** A count from the sample: `users` ± `bound` (95 %), from `sampled` sampled subscribers of the static audience. */
export interface SampleEstimate {
  users: number;
  bound: number;
  sampled: number;
}

/**
 * The ratio estimate of a time-conditioned audience: M subscribers match the static conditions
 * (exact, from the counters), m of them are in the sample and k of those meet the time and tag conditions
 * too. users = M·k/m; bound = M × the farther end of the Wilson score 95 % interval of the
 * proportion k/m from f = k/m. Wilson rather than the normal approximation f ± 1.96·√(f(1−f)/m):
 * that one is too narrow when f is near 0 or 1 or m is a few hundred (it is 0 at k = 0), which a
 * narrow segment on a site just above the limit has; the two agree as m grows.
 */
export function estimateFromSample(M: number, m: number, k: number): SampleEstimate {
  const z = 1.96;
  const f = k / m;
  const center = (k + (z * z) / 2) / (m + z * z);
  const half = (z / (m + z * z)) * Math.sqrt((k * (m - k)) / m + (z * z) / 4);
  return { users: Math.round(M * f), bound: Math.ceil(M * Math.max(f - (center - half), center + half - f)), sampled: m };
}

type ZoneCount = { zone: string | null; users: number };

export function createAudience(
  pool: Pool,
  opts: { log?: Logger; scanBudget?: { SCANS: number; TIMEOUT_MS: number }; exactScanLimit?: number; sampleRows?: number } = {},
) {
  const budget = opts.scanBudget ?? SCAN_BUDGET;
  const exactScanLimit = opts.exactScanLimit ?? EXACT_SCAN_LIMIT;
  const sampleRows = opts.sampleRows ?? SAMPLE_ROWS;
  let scans = 0;

  /**
   * `count(db, segment)` within the scan budget, else `count(pool, static part)` (an upper bound).
   */
  async function bounded<T>(siteId: string, segment: Segment, count: (db: Queryable, segment: Segment) => Promise<T>): Promise<T> {
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
        opts.log?.warn('a segment count over the subscribers ran past its budget; answered without its time and tag conditions (an upper bound)', { siteId, timeoutMs: budget.TIMEOUT_MS });
      } finally {
        scans--;
      }
    } else {
      opts.log?.warn('segment counts over the subscribers all busy; answered without the time and tag conditions (an upper bound)', { siteId, scans: budget.SCANS });
    }
    return count(pool, staticPart(segment));
  }

  /**
   * A segment with a time or tag condition on a site larger than exactScanLimit, from the sample: the
   * static audience M by zone from the counters, the sample's m and k (estimateFromSample), and
   * each zone's share as its sampled k_z scaled by M/m (they sum to the estimate, up to rounding).
   * No sampled subscriber in the static audience (m = 0: M is then a small share of the site) answers
   * the static count, an upper bound, as past the scan budget.
   */
  async function estimate(siteId: string, siteActive: number, topics: string[], countries: string[], segment: Segment): Promise<SampleEstimate & { zones: ZoneCount[] }> {
    const whole = await countByZone(pool, siteId, topics, countries, staticPart(segment));
    const M = whole.reduce((n, z) => n + z.users, 0);
    if (M === 0) return { users: 0, bound: 0, sampled: 0, zones: [] };
    // The site's sample holds ≈ siteActive/128 rows in 1024 slices: read enough of them for ≈ sampleRows.
    const slices = Math.min(1024, Math.ceil((1024 * 128 * sampleRows) / Math.max(siteActive, 1)));
    const sample = await sampleSegment(pool, siteId, topics, countries, segment, slices);
    const m = sample.reduce((n, z) => n + z.matched, 0);
    if (m === 0) {
      opts.log?.warn('no sampled subscriber in a segment\'s static audience; answered without its time and tag conditions (an upper bound)', { siteId, staticUsers: M });
      return { users: M, bound: M, sampled: 0, zones: whole };
    }
    const k = sample.reduce((n, z) => n + z.kept, 0);
    const result = estimateFromSample(M, m, k);
    opts.log?.info('segment count estimated from the sample', { siteId, users: result.users, bound95: result.bound, staticUsers: M, sampled: m, kept: k, slices });
    const zones = sample.filter((z) => z.kept > 0).map((z) => ({ zone: z.zone, users: Math.round((z.kept * M) / m) }));
    return { ...result, zones };
  }

  /** Exact (counters, or a budgeted scan on a small site) or, for a time or tag condition on a large site, the sample's estimate. */
  async function counted<T>(
    siteId: string,
    topics: string[],
    countries: string[],
    segment: Segment | null,
    count: (db: Queryable, segment: Segment | null) => Promise<T>,
    fromEstimate: (e: SampleEstimate & { zones: ZoneCount[] }) => T,
  ): Promise<T> {
    if (!hasRowConditions(segment)) return count(pool, segment);
    const siteActive = await siteActiveSubscribers(pool, siteId);
    if (siteActive > exactScanLimit) return fromEstimate(await estimate(siteId, siteActive, topics, countries, segment!));
    return bounded(siteId, segment!, count);
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
    const site = siteId.toLowerCase();
    if (segment !== null) return counted(site, topicNames, countryNames, segment, (db, s) => countSegment(db, site, topicNames, countryNames, s!), (e) => e.users);
    return countUnion(pool, site, topicNames, countryNames);
  }

  /**
   * The same audience by effective zone (local-time.ts usersByEffectiveZone: the subscriber's own zone
   * when known, else the site's default), most subscribers first, with the site's default zone
   * and quiet hours.
   */
  async function countByEffectiveZone(
    siteId: string,
    topics: readonly string[],
    countries: readonly string[],
    segment: Segment | null = null,
  ): Promise<{ zones: NameCount[]; defaultTimeZone: string; quietHours: QuietHours | null }> {
    if (!isUuid(siteId)) return { zones: [], defaultTimeZone: DEFAULT_SITE_ZONE, quietHours: null };
    const [defaultTimeZone, quietHours] = await Promise.all([siteTimeZone(pool, siteId.toLowerCase()), siteQuietHours(pool, siteId.toLowerCase())]);
    const { topicNames, countryNames } = audienceNames(topics, countries);
    if (topicNames.length === 0 && countryNames.length === 0) return { zones: [], defaultTimeZone, quietHours };
    const site = siteId.toLowerCase();
    const reported = await counted(site, topicNames, countryNames, segment, (db, s) => countByZone(db, site, topicNames, countryNames, s), (e) => e.zones);
    const byZone = usersByEffectiveZone(reported, defaultTimeZone);
    const zones = [...byZone].map(([name, users]) => ({ name, users })).sort((a, b) => b.users - a.users || (a.name < b.name ? -1 : 1));
    return { zones, defaultTimeZone, quietHours };
  }

  /** Names with at least one active subscriber, most subscribers first, then by name. */
  async function listTopics(siteId: string): Promise<NameCount[]> {
    return isUuid(siteId) ? listNames(pool, siteId.toLowerCase(), 'topics') : [];
  }

  async function listCountries(siteId: string): Promise<NameCount[]> {
    return isUuid(siteId) ? listNames(pool, siteId.toLowerCase(), 'countries') : [];
  }

  /** The sample's estimate with its bound, as a count on a large site answers it (for the tests and the bench). */
  async function estimateAudience(siteId: string, topics: readonly string[], countries: readonly string[], segment: Segment): Promise<SampleEstimate> {
    const { topicNames, countryNames } = audienceNames(topics, countries);
    const site = siteId.toLowerCase();
    const { users, bound, sampled } = await estimate(site, await siteActiveSubscribers(pool, site), topicNames, countryNames, segment);
    return { users, bound, sampled };
  }

  return { countAudience, countByEffectiveZone, estimateAudience, listTopics, listCountries };
}

export type Audience = ReturnType<typeof createAudience>;
