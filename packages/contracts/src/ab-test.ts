// A/B tests (an addition to POST /v2/campaign/create, docs/api-decisions.md "A/B tests"): a
// campaign carries 2–5 content variants; a share of its audience (the test) is split evenly
// between them, and when the test window ends the best variant by the winner metric (or the one
// the customer picked before) is sent to the rest. A subscriber's place is a pure function of
// the campaign and subscriber ids (md5, as Postgres computes it too: delivery.ab_bucket), so
// it is the same in every instance, on every retry, and independent between campaigns.
import { createHash } from 'node:crypto';
import type { CampaignContent } from './campaign-content.js';

/** The content fields a variant may change; the others are the campaign's. */
export const VARIANT_FIELDS = ['title', 'body', 'link', 'icon', 'image', 'callToAction'] as const satisfies readonly (keyof CampaignContent)[];
export type VariantContent = Partial<Pick<CampaignContent, (typeof VARIANT_FIELDS)[number]>>;

export const WINNER_METRICS = ['ctr', 'impressions'] as const;
export type WinnerMetric = (typeof WINNER_METRICS)[number];

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 5;
export const MAX_WINDOW_MINUTES = 7 * 24 * 60;

export interface AbTest {
  /** Each variant's changes to the campaign's content (variant 0 may change nothing). */
  variants: VariantContent[];
  /** Percent of the audience in the test, 1–100 (100: everyone is in the test, there is no rest). */
  testPercent: number;
  /** `ctr`: clicks ÷ impressions; `impressions`: impressions ÷ pushes sent. */
  winnerMetric: WinnerMetric;
  /** Minutes from the test's first send to the automatic choice of the winner. */
  windowMinutes: number;
}

/** How the winner was chosen. */
export type WinnerChoice = 'metric' | 'customer';

export interface AbWinner {
  variant: number;
  decidedAt: string;
  by: WinnerChoice;
}

/** A variant's results within the test share. */
export interface VariantResult {
  variant: number;
  sent: number;
  impressions: number;
  clicks: number;
}

/** Buckets per campaign: 28 bits of md5 (7 hex digits), a positive int in Postgres too. */
export const AB_BUCKETS = 2 ** 28;

/** The subscriber's bucket for this campaign, uniform over [0, AB_BUCKETS). */
export function abBucket(campaignId: string, subscriberId: string): number {
  return parseInt(createHash('md5').update(`${campaignId}:${subscriberId}`).digest('hex').slice(0, 7), 16);
}

/** Buckets below this are in the test. */
export function testThreshold(testPercent: number): number {
  return Math.floor((testPercent * AB_BUCKETS) / 100);
}

/** The variant a bucket is tested with, or null: the bucket is in the rest (which gets the winner). */
export function variantOfBucket(bucket: number, ab: Pick<AbTest, 'testPercent' | 'variants'>): number | null {
  const threshold = testThreshold(ab.testPercent);
  return bucket < threshold ? Math.floor((bucket * ab.variants.length) / threshold) : null;
}

/** A variant's content: the campaign's, with the variant's changes. */
export function variantContent(content: CampaignContent, variant: VariantContent): CampaignContent {
  const merged = { ...content };
  for (const field of VARIANT_FIELDS) if (variant[field] !== undefined) (merged as Record<string, unknown>)[field] = variant[field];
  return merged;
}

/** The metric's value for a variant (0 when its base is 0). */
export function metricOf(r: VariantResult, metric: WinnerMetric): number {
  const base = metric === 'ctr' ? r.impressions : r.sent;
  const hits = metric === 'ctr' ? r.clicks : r.impressions;
  return base === 0 ? 0 : hits / base;
}

/** The best variant by `metric`; a tie goes to the lower variant (variant 0 when nothing was measured). */
export function bestVariant(results: VariantResult[], metric: WinnerMetric): number {
  let best = 0;
  let bestValue = -1;
  for (const r of [...results].sort((a, b) => a.variant - b.variant)) {
    const value = metricOf(r, metric);
    if (value > bestValue) {
      best = r.variant;
      bestValue = value;
    }
  }
  return best;
}
