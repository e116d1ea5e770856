// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface InviteUserRequest {
  'site'?: (string);
  'email'?: (string);
  'role'?: (string);
  'baseUrl'?: (string);
}

export interface InviteUserRequest__Output {
  'site': (string);
  'email': (string);
  'role': (string);
  'baseUrl': (string);
}
