// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface UpdateMemberRequest {
  'siteId'?: (string);
  'userId'?: (string);
  'role'?: (string);
}

export interface UpdateMemberRequest__Output {
  'siteId': (string);
  'userId': (string);
  'role': (string);
}
