// ListCampaigns: validate → check the cursor against this site, filters and limit → fetch one
// row more than the page to learn whether another page exists. The items are Campaign messages
// (campaigns/campaign-rows.ts); the gateway writes their JSON.
import type { Pool } from '@webpush/shared/db.js';
import type { Campaign } from '@webpush/contracts/campaign-json.js';
import { listCampaigns } from './campaigns-store.js';
import type { FixedPartsCache } from './fixed-parts-cache.js';
import type { CursorCodec } from './cursor.js';
import { UnauthenticatedError, ValidationError } from '../base/errors.js';
import { MESSAGES } from '../base/texts.js';
import { isUuid } from '../base/ids.js';
import { validateListInput } from './list-input.js';
import { parseObjectBody } from '../base/request-body.js';

export interface CampaignPage {
  items: Campaign[];
  limit: number;
  hasMore: boolean;
  nextCursor: string | null;
}

export function listCampaignsUseCase(deps: { pool: Pool; cursors: CursorCodec; fixedParts: FixedPartsCache }) {
  return async function listCampaignPage(siteId: string, bodyJson: string): Promise<CampaignPage> {
    if (!isUuid(siteId)) throw new UnauthenticatedError();
    const input = validateListInput(parseObjectBody(bodyJson, true));
    const after = input.cursor === null ? null : deps.cursors.decode(input.cursor, siteId, input);
    if (input.cursor !== null && after === null) throw new ValidationError([MESSAGES.invalidCursor]);

    const rows = await listCampaigns(deps.pool, {
      siteId,
      dateField: input.dateField,
      startDate: input.startDate,
      endDate: input.endDate,
      statuses: input.statuses,
      after,
      fetch: input.limit + 1,
    }, deps.fixedParts);
    const hasMore = rows.length > input.limit;
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => r.campaign),
      limit: input.limit,
      hasMore,
      nextCursor: hasMore ? deps.cursors.encode(siteId, input, { sortKey: last.sortKey, id: last.id }) : null,
    };
  };
}
