// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface CreateCampaignResponse {
  'id'?: (string);
  'localTimeJson'?: (string);
}

export interface CreateCampaignResponse__Output {
  'id': (string);
  'localTimeJson': (string);
}
