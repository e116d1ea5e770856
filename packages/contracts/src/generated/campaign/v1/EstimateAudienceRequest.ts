// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface EstimateAudienceRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
}

export interface EstimateAudienceRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
}
