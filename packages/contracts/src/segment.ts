// A campaign's segment (an addition to POST /v2/campaign/create, docs/api-decisions.md
// "Segments"): conditions that narrow the audience beyond topics and countries. The audience is
// (topics ∪ countries) ∩ every condition given; within a list, any entry matches. The campaign
// service validates it (services/campaign/src/campaigns/segment-input.ts) and stores it, the dispatch
// message and the audience count carry it, the delivery service turns it into SQL
// (services/delivery/src/audience/segment-sql.ts).

/** Browser families, told from the push service a subscription points at (delivery.browser_of). */
export const BROWSERS = ['chrome', 'edge', 'firefox', 'safari', 'other'] as const;
export type Browser = (typeof BROWSERS)[number];

export interface Segment {
  /** Lowercase tags: `pt` matches `pt` and every `pt-…`; `pt-br` matches `pt-BR` only. */
  languages?: string[];
  /** IANA names (`America/Sao_Paulo`), each zone by its one name (local-time.ts canonicalZone). */
  timeZones?: string[];
  /** The subscriber's zone's UTC offset at the moment the audience is read, in minutes, inclusive. */
  utcOffset?: { min: number; max: number };
  browsers?: Browser[];
  /** UTC date-times (seconds): subscribed at or after / before. */
  subscribedAfter?: string;
  subscribedBefore?: string;
  /** An impression or click within the last N days. */
  engagedWithinDays?: number;
  /** No impression or click within the last N days (never engaged included). */
  notEngagedForDays?: number;
}

export const SEGMENT_FIELDS = [
  'languages',
  'timeZones',
  'utcOffset',
  'browsers',
  'subscribedAfter',
  'subscribedBefore',
  'engagedWithinDays',
  'notEngagedForDays',
] as const satisfies readonly (keyof Segment)[];
