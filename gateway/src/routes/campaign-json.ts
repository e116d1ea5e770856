// Campaign and page answers. The campaign service sends each campaign as the exact JSON text of
// the spec's Campaign object (in the spec's field order; see the comment on ListCampaignsResponse
// in packages/contracts/protos/campaign/v1/campaign.proto): the gateway writes those bytes
// into its answer without parsing or re-serialising them, and adds only the page envelope.
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import { JsonBytes } from '../http/json.js';

const ITEMS_OPEN = Buffer.from('{"items":');

/** A backend that answers without the JSON (another version of the contract) is a 500, never a broken body. */
function nonEmpty(bytes: Buffer, field: string): Buffer {
  if (bytes.length === 0) throw new Error(`campaign service answered without ${field}`);
  return bytes;
}

export function campaignJson(res: GetCampaignResponse__Output): JsonBytes {
  return new JsonBytes(nonEmpty(res.campaignJson, 'campaign_json'));
}

/** `{"items":[…],"limit":…,"hasMore":…,"nextCursor":…|null}`, the spec's page in its order. */
export function pageJson(page: ListCampaignsResponse__Output): JsonBytes {
  const tail = `,"limit":${JSON.stringify(page.limit)},"hasMore":${JSON.stringify(page.hasMore)},"nextCursor":${JSON.stringify(page.nextCursor || null)}}`;
  return new JsonBytes(Buffer.concat([ITEMS_OPEN, nonEmpty(page.itemsJson, 'items_json'), Buffer.from(tail)]));
}
