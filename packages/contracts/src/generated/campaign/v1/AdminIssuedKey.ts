// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminIssuedKey {
  'siteId'?: (string);
  'apiKey'?: (string);
  'keyId'?: (string);
  'prefix'?: (string);
}

export interface AdminIssuedKey__Output {
  'siteId': (string);
  'apiKey': (string);
  'keyId': (string);
  'prefix': (string);
}
