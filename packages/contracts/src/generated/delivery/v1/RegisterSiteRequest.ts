// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface RegisterSiteRequest {
  'siteId'?: (string);
  'publicId'?: (string);
}

export interface RegisterSiteRequest__Output {
  'siteId': (string);
  'publicId': (string);
}
