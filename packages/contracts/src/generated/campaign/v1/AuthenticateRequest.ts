// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface AuthenticateRequest {
  'keyHash'?: (string);
}

export interface AuthenticateRequest__Output {
  'keyHash': (string);
}
