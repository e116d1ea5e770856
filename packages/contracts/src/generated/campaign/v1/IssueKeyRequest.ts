// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface IssueKeyRequest {
  'site'?: (string);
  'keepOthers'?: (boolean);
}

export interface IssueKeyRequest__Output {
  'site': (string);
  'keepOthers': (boolean);
}
