// What each subscriber of a run is sent: the campaign's content, or its A/B variant's, or a
// notification made from a template's rendering for that subscriber (notification-render.ts). Sending
// builds each push from it, and the click-tracking redirect (tracking/routes.ts) sends a click on
// to the link of the content that subscriber was sent.
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import { abBucket, variantContent, variantOfBucket } from '@webpush/contracts/ab-test.js';
import type { Queryable } from '@webpush/shared/db.js';
import type { RunRow } from './run-store.js';
import { renderedContents } from './notification-store.js';

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

/**
 * contentFor the subscribers `subscriberIds` of the run, read where it must be: a notification
 * made from a template sends each subscriber the content rendered for them (undefined: none was,
 * and nothing is to be sent).
 */
export async function contentsFor(db: Queryable, run: RunRow, subscriberIds: readonly string[]): Promise<(subscriberId: string) => CampaignContent | undefined> {
  if (!run.job.notification?.template) return contentFor(run);
  const rendered = await renderedContents(db, run.campaignId, subscriberIds);
  return (subscriberId) => rendered.get(subscriberId);
}
