// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminPasswordReset {
  'email'?: (string);
  'link'?: (string);
  'expiresAt'?: (string);
}

export interface AdminPasswordReset__Output {
  'email': (string);
  'link': (string);
  'expiresAt': (string);
}
