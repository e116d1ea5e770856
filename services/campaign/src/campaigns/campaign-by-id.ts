// GetCampaign and DeleteCampaign. Another site's id, a random id and a malformed id all answer
// the same "not found", and a malformed one never reaches a SQL cast.
import type { Pool } from '@webpush/shared/db.js';
import type { Campaign } from '@webpush/contracts/campaign-json.js';
import { campaignExists, deleteUndispatched, findCampaign } from './campaigns-store.js';
import type { FixedPartsCache } from './fixed-parts-cache.js';
import { AlreadySentError, NotFoundError } from '../base/errors.js';
import { isUuid } from '../base/ids.js';

export function campaignByIdUseCases(deps: { pool: Pool; fixedParts: FixedPartsCache }) {
  return {
    async getCampaign(siteId: string, campaignId: string): Promise<Campaign> {
      if (!isUuid(campaignId) || !isUuid(siteId)) throw new NotFoundError();
      const campaign = await findCampaign(deps.pool, siteId, campaignId, deps.fixedParts);
      if (campaign === null) throw new NotFoundError();
      return campaign;
    },

    /** Exactly one of this and the scheduler's dispatch wins; see deleteUndispatched. */
    async deleteCampaign(siteId: string, campaignId: string): Promise<{ id: string; deleted: true }> {
      if (!isUuid(campaignId) || !isUuid(siteId)) throw new NotFoundError();
      if (await deleteUndispatched(deps.pool, siteId, campaignId)) {
        deps.fixedParts.forget(campaignId);
        return { id: campaignId, deleted: true };
      }
      if (await campaignExists(deps.pool, siteId, campaignId)) throw new AlreadySentError();
      throw new NotFoundError();
    },
  };
}
