// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminUser {
  'email'?: (string);
  'role'?: (string);
  'since'?: (string);
}

export interface AdminUser__Output {
  'email': (string);
  'role': (string);
  'since': (string);
}
