// Every use case of the service, built from its dependencies.
import type { Pool } from '../../../shared/src/db.js';
import { authenticateUseCase } from './authenticate.js';
import { campaignByIdUseCases } from './campaign-by-id.js';
import { createCampaignUseCase, type CreateCampaignDeps } from './create-campaign.js';
import type { CursorCodec } from './cursor.js';
import { exportCampaignsUseCase } from './export-campaigns.js';
import { listCampaignsUseCase } from './list-campaigns.js';
import { pickWinnerUseCase, type WinnerPicker } from './pick-winner.js';

/** `bulkPool`: the export's, so that a long export never holds the requests' connections (shared/db.ts). */
export function createUseCases(deps: CreateCampaignDeps & { pool: Pool; bulkPool: Pool; cursors: CursorCodec; runs: WinnerPicker }) {
  return {
    authenticate: authenticateUseCase(deps),
    createCampaign: createCampaignUseCase(deps),
    listCampaigns: listCampaignsUseCase(deps),
    exportCampaigns: exportCampaignsUseCase({ pool: deps.bulkPool }),
    pickWinner: pickWinnerUseCase(deps),
    ...campaignByIdUseCases(deps),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
