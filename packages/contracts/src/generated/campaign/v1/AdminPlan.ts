// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type { Permissions as _campaign_v1_Permissions, Permissions__Output as _campaign_v1_Permissions__Output } from '../../campaign/v1/Permissions';

export interface AdminPlan {
  'id'?: (string);
  'name'?: (string);
  'permissions'?: (_campaign_v1_Permissions | null);
}

export interface AdminPlan__Output {
  'id': (string);
  'name': (string);
  'permissions': (_campaign_v1_Permissions__Output | null);
}
