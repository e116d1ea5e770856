// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface ConsoleSiteRequest {
  'siteId'?: (string);
}

export interface ConsoleSiteRequest__Output {
  'siteId': (string);
}
