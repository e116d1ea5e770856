// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface ApiKey {
  'id'?: (string);
  'label'?: (string);
  'prefix'?: (string);
  'createdAt'?: (string);
  'lastUsedAt'?: (string);
  'revokedAt'?: (string);
}

export interface ApiKey__Output {
  'id': (string);
  'label': (string);
  'prefix': (string);
  'createdAt': (string);
  'lastUsedAt': (string);
  'revokedAt': (string);
}
