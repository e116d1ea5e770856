// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface InviteRequest {
  'siteId'?: (string);
  'inviteId'?: (string);
}

export interface InviteRequest__Output {
  'siteId': (string);
  'inviteId': (string);
}
