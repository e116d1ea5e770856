// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface PickWinnerRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
  'bodyJson'?: (string);
}

export interface PickWinnerRequest__Output {
  'siteId': (string);
  'campaignId': (string);
  'bodyJson': (string);
}
