// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface RegisteredSite {
  'siteId'?: (string);
  'publicId'?: (string);
  'vapidPublicKey'?: (string);
}

export interface RegisteredSite__Output {
  'siteId': (string);
  'publicId': (string);
  'vapidPublicKey': (string);
}
