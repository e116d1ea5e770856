// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface AcceptInviteRequest {
  'token'?: (string);
  'password'?: (string);
  'sessionHash'?: (string);
  'clientAddress'?: (string);
}

export interface AcceptInviteRequest__Output {
  'token': (string);
  'password': (string);
  'sessionHash': (string);
  'clientAddress': (string);
}
