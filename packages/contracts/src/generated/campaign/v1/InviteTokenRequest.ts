// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface InviteTokenRequest {
  'token'?: (string);
}

export interface InviteTokenRequest__Output {
  'token': (string);
}
