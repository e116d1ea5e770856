// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface PersonRequest {
  'siteId'?: (string);
  'externalId'?: (string);
  'bodyJson'?: (string);
}

export interface PersonRequest__Output {
  'siteId': (string);
  'externalId': (string);
  'bodyJson': (string);
}
