// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface SiteRequest {
  'siteId'?: (string);
}

export interface SiteRequest__Output {
  'siteId': (string);
}
