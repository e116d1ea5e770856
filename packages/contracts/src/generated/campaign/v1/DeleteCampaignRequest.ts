// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface DeleteCampaignRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
}

export interface DeleteCampaignRequest__Output {
  'siteId': (string);
  'campaignId': (string);
}
