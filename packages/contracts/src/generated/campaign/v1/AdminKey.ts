// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface AdminKey {
  'keyId'?: (string);
  'label'?: (string);
  'prefix'?: (string);
  'createdAt'?: (string);
  'lastUsedAt'?: (string);
  'revokedAt'?: (string);
}

export interface AdminKey__Output {
  'keyId': (string);
  'label': (string);
  'prefix': (string);
  'createdAt': (string);
  'lastUsedAt': (string);
  'revokedAt': (string);
}
