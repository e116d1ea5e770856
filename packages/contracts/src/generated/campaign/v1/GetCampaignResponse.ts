// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Campaign as _campaign_v1_Campaign, Campaign__Output as _campaign_v1_Campaign__Output } from '../../campaign/v1/Campaign';

export interface GetCampaignResponse {
  'campaignJson'?: (Buffer | Uint8Array | string);
  'campaign'?: (_campaign_v1_Campaign | null);
}

export interface GetCampaignResponse__Output {
  'campaignJson': (Buffer);
  'campaign': (_campaign_v1_Campaign__Output | null);
}
