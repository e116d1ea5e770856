// What each subscriber of a run is sent: the campaign's content, or its A/B variant's. Sending
// builds each push from it, and the click-tracking redirect (tracking/routes.ts) sends a click on
// to the link of the content that subscriber was sent.
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import { abBucket, variantContent, variantOfBucket } from '@webpush/contracts/ab-test.js';
import type { RunRow } from './run-store.js';

/**
 * The variant each subscriber of an A/B test is sent: the test share's by bucket, the rest's the
 * winner; undefined for a rest subscriber while no winner is chosen.
 */
export function variantFor(run: RunRow, subscriberId: string): number | undefined {
  const ab = run.job.abTest;
  return ab ? (variantOfBucket(abBucket(run.campaignId, subscriberId), ab) ?? run.abWinner?.variant) : undefined;
}

/** The content each subscriber of the run is sent: the campaign's, or its A/B variant's. */
export function contentFor(run: RunRow): (subscriberId: string) => CampaignContent {
  const { job } = run;
  if (!job.abTest) return () => job.content;
  const variants = job.abTest.variants.map((v) => variantContent(job.content, v));
  return (subscriberId) => variants[variantFor(run, subscriberId) ?? 0];
}
