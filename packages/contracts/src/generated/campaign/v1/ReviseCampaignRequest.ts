// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ReviseCampaignRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
  'action'?: (string);
  'bodyJson'?: (string);
}

export interface ReviseCampaignRequest__Output {
  'siteId': (string);
  'campaignId': (string);
  'action': (string);
  'bodyJson': (string);
}
