// When an A/B test's winner is chosen and what waits for it: by its metric once the test window
// has ended (the pacer's pass), or by the customer's pick while it runs (the Runs gRPC service);
// the rest stages of a run are due only once it is chosen (the gate sending/stage-store.ts applies).
import type { Queryable } from '@webpush/shared/db.js';
import { bestVariant, type AbWinner } from '@webpush/contracts/ab-test.js';
import { lockEndedTests, lockTestRun, setWinner, variantResults } from './ab-test-store.js';

/**
 * Chooses the winner of every test whose window has ended without one (at most `limit`), by its
 * metric over the variants' results; an expanding run's rest stages become due at once. Answers
 * the campaigns decided.
 */
export async function decideEndedTests(db: Queryable, limit: number): Promise<string[]> {
  const decided: string[] = [];
  for (const { campaignId, ab } of await lockEndedTests(db, limit)) {
    if (!ab) continue;
    const results = await variantResults(db, campaignId, ab);
    await setWinner(db, campaignId, bestVariant(results, ab.winnerMetric), 'metric', results);
    decided.push(campaignId);
  }
  return decided;
}

/** The API's answers when a winner cannot be picked (docs/api-decisions.md "A/B tests"). */
export const PICK_REFUSED = {
  notStarted: 'The A/B test has not started',
  chosen: 'The winner has already been chosen',
} as const;

/**
 * The customer's pick of a test's winner, while the test runs and no winner is chosen: the rest
 * stages become due at once. Answers the winner, or why not (PICK_REFUSED).
 */
export async function pickWinner(tx: Queryable, siteId: string, campaignId: string, variant: number): Promise<AbWinner | { refused: string }> {
  const run = await lockTestRun(tx, siteId, campaignId);
  if (!run || run.windowEndsAt === null) return { refused: PICK_REFUSED.notStarted };
  if (run.winner !== null) return { refused: PICK_REFUSED.chosen };
  return (await setWinner(tx, campaignId, variant, 'customer')) as AbWinner;
}

/**
 * The moment a run's `rest` stages wait for, as a timestamptz literal: none once the winner is
 * chosen (-infinity), else the end of the test window, and never while the window has not
 * started (infinity).
 */
export function winnerGate(winner: AbWinner | null, windowEndsAt: Date | null): string {
  if (winner) return '-infinity';
  return windowEndsAt ? windowEndsAt.toISOString() : 'infinity';
}
