// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface RevokeKeysAnswer {
  'siteId'?: (string);
  'revoked'?: (number);
}

export interface RevokeKeysAnswer__Output {
  'siteId': (string);
  'revoked': (number);
}
