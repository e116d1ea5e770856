// UpdateDraft (the console's "Drafts", docs/console.md): a draft edited in place with a whole
// create body, and kept a draft, published now or scheduled. Validated exactly as a create (the
// same function, the same messages) → the audience counted again (by zone for a local-time
// campaign) → one transaction: the row rewritten only while it is still a draft of the site, a
// local time's plan made at the transaction's moment (the edit's: edited_at), and for "send now"
// the dispatch job, after whose commit the relay is woken. Another site's id, a random id and a
// malformed id are "not found"; a campaign that is not (or no longer) a draft is refused.
import { withTransaction } from '@webpush/shared/db.js';
import { insertOutbox, dispatchJob } from '../outbox/index.js';
import { campaignExists, transactionNow, updateDraft } from './campaigns-store.js';
import { campaignRow, countAudience, type CreateCampaignDeps, type CreatedCampaign } from './create-campaign.js';
import { validateCreateInput } from './create-input.js';
import { planLocalTime } from './local-time-plan.js';
import { NotFoundError, RefusedError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { parseObjectBody } from '../base/request-body.js';
import { MESSAGES } from '../base/texts.js';

export function updateDraftUseCase(deps: CreateCampaignDeps) {
  return async function updateDraftCampaign(siteId: string, campaignId: string, bodyJson: string): Promise<CreatedCampaign> {
    if (!isUuid(campaignId) || !isUuid(siteId)) throw new NotFoundError();
    const input = validateCreateInput(parseObjectBody(bodyJson, false));
    const audience = await countAudience(deps.audience, siteId, input);
    const outcome = await withTransaction(deps.pool, async (tx) => {
      const plan = input.localTime && audience ? planLocalTime(input.localTime, audience, await transactionNow(tx), input.ignoreQuietHours) : null;
      const row = campaignRow(campaignId, siteId, input, audience, plan);
      if (!(await updateDraft(tx, row))) return null;
      if (row.dispatchNow) await insertOutbox(tx, [dispatchJob(campaignId)]);
      return row;
    });
    if (outcome === null) {
      // Checked after the conditional write, never before: a check first would race a publish.
      if (await campaignExists(deps.pool, siteId, campaignId)) throw new RefusedError(MESSAGES.onlyDrafts);
      throw new NotFoundError();
    }
    if (outcome.dispatchNow) deps.onDispatched?.();
    if (outcome.totalUsers === null) deps.onUncounted?.();
    return { id: campaignId, localTimeJson: outcome.localTimeJson ?? '' };
  };
}
