// ReviseCampaign (POST /v2/campaign/{campaignId}/update and /recall; docs/api-decisions.md,
// "Update and recall"): the notification of a campaign that finished sending is corrected or
// withdrawn on the devices it was sent to. Checked in this order: the body is a JSON object, the
// campaign is the site's (else not found, as GetCampaign), it was sent and has finished sending,
// it was not recalled (an update), the update's fields (the create's rules). Then one
// transaction, the campaign locked: the revision numbered after the last one and its outbox row,
// after whose commit the relay is woken. A recall of a recalled campaign answers that recall.
import { withTransaction, type Pool } from '@webpush/shared/db.js';
import { REVISION_ACTIONS, type Revision, type RevisionAction } from '@webpush/contracts/messages.js';
import { revisionFitsOnePush } from '@webpush/contracts/revision-payload.js';
import type { CampaignContent } from '@webpush/contracts/campaign-content.js';
import { insertOutbox, revisionJob } from '../outbox/index.js';
import { CONTENT_FIELD_RULES } from '../campaigns/index.js';
import { formatUtcDate } from '../base/dates.js';
import { NotFoundError, RefusedError, ValidationError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';
import { parseObjectBody } from '../base/request-body.js';
import { MESSAGES } from '../base/texts.js';
import { insertRevision, lockRevisedCampaign } from './revision-store.js';

/** The fields an update may correct: what the notification shows and where it leads. */
export const UPDATE_FIELDS = ['title', 'body', 'link', 'icon', 'image'] as const;

export interface CampaignRevision {
  id: string;
  revision: number;
  action: RevisionAction;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  revisedAt: string;
}

/** The content as the update corrects it; its messages, in the create's order, when a field is wrong. */
function updatedContent(body: Record<string, unknown>, current: CampaignContent, revision: Revision): CampaignContent {
  const errors: string[] = [];
  if (Object.keys(body).some((k) => !(UPDATE_FIELDS as readonly string[]).includes(k))) errors.push(MESSAGES.updateFields);
  const given = UPDATE_FIELDS.filter((f) => Object.hasOwn(body, f));
  if (given.length === 0 && errors.length === 0) errors.push(MESSAGES.updateNothing);
  const next: CampaignContent = { ...current };
  for (const field of given) (next as unknown as Record<string, unknown>)[field] = CONTENT_FIELD_RULES[field](body[field], errors);
  if (errors.length > 0) throw new ValidationError(errors);
  if (!revisionFitsOnePush(revision, next)) throw new ValidationError([MESSAGES.notificationTooLarge]);
  return next;
}

export function reviseCampaignUseCase(deps: { pool: Pool; onDispatched?: () => void }) {
  return async function reviseCampaign(siteId: string, campaignId: string, action: string, bodyJson: string): Promise<CampaignRevision> {
    if (!(REVISION_ACTIONS as readonly string[]).includes(action)) throw new Error(`unknown revision action ${JSON.stringify(action.slice(0, 20))}`);
    const body = parseObjectBody(bodyJson, true);
    if (!isUuid(campaignId) || !isUuid(siteId)) throw new NotFoundError();
    const outcome = await withTransaction(deps.pool, async (tx) => {
      const campaign = await lockRevisedCampaign(tx, siteId, campaignId);
      if (!campaign) throw new NotFoundError();
      if (!campaign.dispatched) throw new RefusedError(MESSAGES.revisionNotSent);
      if (!campaign.finished) throw new RefusedError(MESSAGES.revisionStillSending);
      const { last } = campaign;
      if (last?.action === 'recall') {
        if (action === 'recall') return { created: false, id: campaignId, revision: last.revision, action: last.action, at: last.at };
        throw new RefusedError(MESSAGES.revisionRecalled);
      }
      const revision: Revision = { campaignId, number: (last?.revision ?? 0) + 1, action: action as RevisionAction };
      const content = revision.action === 'update' ? updatedContent(body, campaign.content, revision) : null;
      const stored = await insertRevision(tx, campaignId, revision.number, revision.action, content);
      await insertOutbox(tx, [revisionJob(campaignId, stored.id)]);
      return { created: true, id: campaignId, revision: revision.number, action: revision.action, at: stored.at };
    });
    if (outcome.created) deps.onDispatched?.();
    return { id: outcome.id, revision: outcome.revision, action: outcome.action, revisedAt: formatUtcDate(outcome.at) };
  };
}
