// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface DeleteFeedResponse {
  'id'?: (string);
}

export interface DeleteFeedResponse__Output {
  'id': (string);
}
