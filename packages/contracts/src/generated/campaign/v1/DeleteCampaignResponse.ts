// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface DeleteCampaignResponse {
  'id'?: (string);
  'deleted'?: (boolean);
}

export interface DeleteCampaignResponse__Output {
  'id': (string);
  'deleted': (boolean);
}
