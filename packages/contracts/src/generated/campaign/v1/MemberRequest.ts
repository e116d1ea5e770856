// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface MemberRequest {
  'siteId'?: (string);
  'userId'?: (string);
}

export interface MemberRequest__Output {
  'siteId': (string);
  'userId': (string);
}
