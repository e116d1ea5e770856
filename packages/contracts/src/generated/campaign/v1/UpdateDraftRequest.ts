// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface UpdateDraftRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
  'bodyJson'?: (string);
}

export interface UpdateDraftRequest__Output {
  'siteId': (string);
  'campaignId': (string);
  'bodyJson': (string);
}
