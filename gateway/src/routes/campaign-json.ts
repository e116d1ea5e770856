// Campaign and page answers: the campaign service sends typed Campaign messages, and their JSON is
// built by the one builder of the API's Campaign object (@webpush/contracts campaign-json.ts), a
// page's by the one page writer (@webpush/contracts page.ts). The previous release's campaign
// service sends the API's JSON bytes instead (the deprecated fields of ListCampaignsResponse and
// GetCampaignResponse): they are read when the typed field is absent, so the gateways can be
// rolled out before the campaign service (docs/operations.md, "Upgrading"). Remove that fallback
// in the release after this one, with the fields.
import { campaignJson } from '@webpush/contracts/campaign-json.js';
import { pageJson } from '@webpush/contracts/page.js';
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import { JsonBytes } from '../http/json.js';

/** A backend that answers with neither form (another version of the contract) is a 500, never a broken body. */
export function campaignAnswer(res: GetCampaignResponse__Output): JsonBytes {
  if (res.campaign !== null) return new JsonBytes(Buffer.from(campaignJson(res.campaign)));
  if (res.campaignJson.length > 0) return new JsonBytes(res.campaignJson);
  throw new Error('campaign service answered without campaign');
}

/** The spec's page of campaigns; with neither its page facts nor the previous release's page a 500. */
export function pageAnswer(res: ListCampaignsResponse__Output): JsonBytes {
  if (res.page !== null) return new JsonBytes(Buffer.from(pageJson(res.items.map((c) => campaignJson(c)), res.page)));
  if (res.itemsJson.length === 0) throw new Error('campaign service answered without page');
  // items_json is the whole `[…]` array: its inside is the items' JSON texts already joined by `,`
  // (empty for an empty page), so it goes to the page writer as one item.
  const joined = res.itemsJson.subarray(1, -1).toString('utf8');
  return new JsonBytes(Buffer.from(pageJson([joined], { limit: res.limit, hasMore: res.hasMore, nextCursor: res.nextCursor })));
}
