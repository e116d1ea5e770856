// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface CreateInviteRequest {
  'siteId'?: (string);
  'email'?: (string);
  'role'?: (string);
  'invitedByEmail'?: (string);
  'baseUrl'?: (string);
}

export interface CreateInviteRequest__Output {
  'siteId': (string);
  'email': (string);
  'role': (string);
  'invitedByEmail': (string);
  'baseUrl': (string);
}
