// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface CreateKeyRequest {
  'siteId'?: (string);
  'label'?: (string);
}

export interface CreateKeyRequest__Output {
  'siteId': (string);
  'label': (string);
}
