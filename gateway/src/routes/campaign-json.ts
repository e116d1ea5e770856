// Campaign and page answers: the campaign service sends typed Campaign messages, and their JSON is
// built by the one builder of the API's Campaign object (@webpush/contracts campaign-json.ts), a
// page's by the one page writer (@webpush/contracts page.ts).
import { campaignJson } from '@webpush/contracts/campaign-json.js';
import { pageJson } from '@webpush/contracts/page.js';
import type { GetCampaignResponse__Output } from '@webpush/contracts/generated/campaign/v1/GetCampaignResponse.js';
import type { ListCampaignsResponse__Output } from '@webpush/contracts/generated/campaign/v1/ListCampaignsResponse.js';
import { JsonBytes } from '../http/json.js';

/** A backend that answers without the campaign (another version of the contract) is a 500, never a broken body. */
export function campaignAnswer(res: GetCampaignResponse__Output): JsonBytes {
  if (res.campaign === null) throw new Error('campaign service answered without campaign');
  return new JsonBytes(Buffer.from(campaignJson(res.campaign)));
}

/** The spec's page of campaigns; without its page facts (another version of the contract) a 500. */
export function pageAnswer(res: ListCampaignsResponse__Output): JsonBytes {
  if (res.page === null) throw new Error('campaign service answered without page');
  return new JsonBytes(Buffer.from(pageJson(res.items.map((c) => campaignJson(c)), res.page)));
}
