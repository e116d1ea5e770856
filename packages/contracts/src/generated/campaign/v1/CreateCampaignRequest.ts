// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface CreateCampaignRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
  'idempotencyKey'?: (string);
}

export interface CreateCampaignRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
  'idempotencyKey': (string);
}
