// Every use case of the service, built from its dependencies.
import type { Pool } from '@webpush/shared/db.js';
import { authenticateUseCase } from '../sites/index.js';
import { campaignByIdUseCases, checkCreateBodyUseCase, createCampaignUseCase, type CreateCampaignDeps, type CursorCodec, createFixedPartsCache, exportCampaignsUseCase, listCampaignsUseCase, planPreviewUseCase, type BestTimePlanner, updateDraftUseCase } from '../campaigns/index.js';
import { pickWinnerUseCase, type WinnerPicker } from '../ab-tests/index.js';
import { reviseCampaignUseCase } from '../revisions/index.js';
import { templateUseCases } from '../templates/index.js';
import { feedUseCases } from '../feeds/index.js';
import type { Resolver } from '@webpush/push/outbound.js';
import { createNotificationUseCase, notificationByIdUseCases, type NotificationResultsReader } from '../notifications/index.js';
import { automationUseCases } from '../automations/index.js';

/** `bulkPool`: the export's, so that a long export never holds the requests' connections (shared/db.ts). */
/**
 * `feeds`: FEED_TEST_HOSTS, the DNS a feed's URL is checked with (tests stand one in), and what wakes the poller.
 * `onStepsDue`: an event started a run whose first step is due at once (wakes the automations' runner).
 */
export function createUseCases(
  deps: CreateCampaignDeps & { pool: Pool; bulkPool: Pool; cursors: CursorCodec; runs: WinnerPicker & NotificationResultsReader; planner: BestTimePlanner; feeds: { testHosts: readonly string[]; resolve?: Resolver; onDue?: () => void }; onStepsDue?: () => void },
) {
  // One per process: what the list and get have read (campaigns/fixed-parts-cache.ts). Not the export's:
  // a long history read once would push the pages people look at out of it.
  const fixedParts = createFixedPartsCache();
  const templates = templateUseCases(deps);
  const checkCreateBody = checkCreateBodyUseCase({ renderTemplate: templates.renderForCampaign });
  return {
    authenticate: authenticateUseCase(deps),
    createCampaign: createCampaignUseCase({ ...deps, renderTemplate: templates.renderForCampaign }),
    updateDraft: updateDraftUseCase(deps),
    listCampaigns: listCampaignsUseCase({ ...deps, fixedParts }),
    exportCampaigns: exportCampaignsUseCase({ pool: deps.bulkPool }),
    pickWinner: pickWinnerUseCase(deps),
    planPreview: planPreviewUseCase(deps),
    reviseCampaign: reviseCampaignUseCase(deps),
    createNotification: createNotificationUseCase({ ...deps, renderTemplate: templates.renderForNotification }),
    ...notificationByIdUseCases(deps),
    ...campaignByIdUseCases({ ...deps, fixedParts }),
    ...templates,
    ...automationUseCases(deps),
    ...feedUseCases({ ...deps, ...deps.feeds, checkCreateBody }),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
