// Campaign and page answers: the campaign service sends typed Campaign messages, and their JSON is
// built by the one builder of the API's Campaign object (@webpush/contracts campaign-json.ts); the
// gateway adds only the page envelope.
import { campaignJson } from '@webpush/contracts/campaign-json.js';
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import { JsonBytes } from '../http/json.js';

/** A backend that answers without the campaign (another version of the contract) is a 500, never a broken body. */
export function campaignAnswer(res: GetCampaignResponse__Output): JsonBytes {
  if (res.campaign === null) throw new Error('campaign service answered without campaign');
  return new JsonBytes(Buffer.from(campaignJson(res.campaign)));
}

/** `{"items":[…],"limit":…,"hasMore":…,"nextCursor":…|null}`, the spec's page in its order. */
export function pageAnswer(page: ListCampaignsResponse__Output): JsonBytes {
  let items = '';
  for (const c of page.items) items += (items === '' ? '' : ',') + campaignJson(c);
  return new JsonBytes(Buffer.from(`{"items":[${items}],"limit":${JSON.stringify(page.limit)},"hasMore":${JSON.stringify(page.hasMore)},"nextCursor":${JSON.stringify(page.nextCursor || null)}}`));
}
