// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminInvite {
  'siteId'?: (string);
  'siteName'?: (string);
  'email'?: (string);
  'role'?: (string);
  'existingUser'?: (boolean);
  'link'?: (string);
  'expiresAt'?: (string);
}

export interface AdminInvite__Output {
  'siteId': (string);
  'siteName': (string);
  'email': (string);
  'role': (string);
  'existingUser': (boolean);
  'link': (string);
  'expiresAt': (string);
}
