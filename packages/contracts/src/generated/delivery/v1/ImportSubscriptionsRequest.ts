// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface ImportSubscriptionsRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
}

export interface ImportSubscriptionsRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
}
