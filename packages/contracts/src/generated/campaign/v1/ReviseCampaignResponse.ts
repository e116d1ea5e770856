// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface ReviseCampaignResponse {
  'id'?: (string);
  'revision'?: (number);
  'action'?: (string);
  'revisedAt'?: (string);
}

export interface ReviseCampaignResponse__Output {
  'id': (string);
  'revision': (number);
  'action': (string);
  'revisedAt': (string);
}
