// PickWinner (POST /v2/campaign/{campaignId}/winner, docs/api-decisions.md "A/B tests"): the
// customer picks an A/B test's winner before its window ends. Checked here, in this order: the
// campaign is the site's (else not found, as GetCampaign), it has an A/B test, the variant is one
// of its; then the delivery service, which sends the campaign, takes the pick (or refuses it:
// the test has not started, its winner is already chosen). The winner is recorded with the
// campaign's stats at once, so the campaign shows it before the next stats event.
import type { AbWinner } from '@webpush/contracts/ab-test.js';
import type { Pool } from '@webpush/shared/db.js';
import { abTestVariantCount } from '../campaigns/index.js';
import { recordWinner } from '../stats/index.js';
import { formatUtcDate } from '../base/dates.js';
import { NotFoundError, RefusedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { fill, MESSAGES } from '../base/texts.js';
import { parseObjectBody } from '../base/request-body.js';

export interface WinnerPicker {
  pickWinner(siteId: string, campaignId: string, variant: number): Promise<AbWinner>;
}

export interface PickedWinner {
  id: string;
  variant: number;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  decidedAt: string;
  by: AbWinner['by'];
}

export function pickWinnerUseCase(deps: { pool: Pool; runs: WinnerPicker }) {
  return async function pickWinner(siteId: string, campaignId: string, bodyJson: string): Promise<PickedWinner> {
    const body = parseObjectBody(bodyJson, false);
    if (!isUuid(campaignId) || !isUuid(siteId)) throw new NotFoundError();
    const variants = await abTestVariantCount(deps.pool, siteId, campaignId);
    if (variants === undefined) throw new NotFoundError();
    if (variants === null) throw new RefusedError(MESSAGES.noAbTest);
    const variant = body.variant;
    if (typeof variant !== 'number' || !Number.isInteger(variant) || variant < 0 || variant >= variants) {
      throw new ValidationError([fill(MESSAGES.winnerVariant, { last: String(variants - 1) })]);
    }
    const answered = await deps.runs.pickWinner(siteId, campaignId, variant);
    const at = new Date(answered.decidedAt);
    const winner: AbWinner = { variant: answered.variant, decidedAt: (Number.isNaN(at.getTime()) ? new Date() : at).toISOString(), by: answered.by };
    await recordWinner(deps.pool, campaignId, winner);
    return { id: campaignId, variant: winner.variant, decidedAt: formatUtcDate(new Date(winner.decidedAt)), by: winner.by };
  };
}
