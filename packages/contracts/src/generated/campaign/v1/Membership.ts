// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Permissions as _campaign_v1_Permissions, Permissions__Output as _campaign_v1_Permissions__Output } from '../../campaign/v1/Permissions';

export interface Membership {
  'siteId'?: (string);
  'name'?: (string);
  'role'?: (string);
  'permissions'?: (_campaign_v1_Permissions | null);
}

export interface Membership__Output {
  'siteId': (string);
  'name': (string);
  'role': (string);
  'permissions': (_campaign_v1_Permissions__Output | null);
}
