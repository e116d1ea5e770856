// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface ApiKeyRequest {
  'siteId'?: (string);
  'keyId'?: (string);
}

export interface ApiKeyRequest__Output {
  'siteId': (string);
  'keyId': (string);
}
