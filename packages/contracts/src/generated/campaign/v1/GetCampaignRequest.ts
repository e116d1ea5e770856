// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface GetCampaignRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
}

export interface GetCampaignRequest__Output {
  'siteId': (string);
  'campaignId': (string);
}
