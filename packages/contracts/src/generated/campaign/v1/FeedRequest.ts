// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface FeedRequest {
  'siteId'?: (string);
  'feedId'?: (string);
  'bodyJson'?: (string);
  'limit'?: (string);
  'cursor'?: (string);
}

export interface FeedRequest__Output {
  'siteId': (string);
  'feedId': (string);
  'bodyJson': (string);
  'limit': (string);
  'cursor': (string);
}
