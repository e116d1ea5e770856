// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface ResetPasswordLinkRequest {
  'email'?: (string);
  'baseUrl'?: (string);
}

export interface ResetPasswordLinkRequest__Output {
  'email': (string);
  'baseUrl': (string);
}
