// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ListCampaignsRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
}

export interface ListCampaignsRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
}
