// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface RevokeKeysRequest {
  'site'?: (string);
  'key'?: (string);
}

export interface RevokeKeysRequest__Output {
  'site': (string);
  'key': (string);
}
