// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface Permissions {
  'create'?: (boolean);
  'reports'?: (boolean);
  'delete'?: (boolean);
  'audience'?: (boolean);
}

export interface Permissions__Output {
  'create': (boolean);
  'reports': (boolean);
  'delete': (boolean);
  'audience': (boolean);
}
