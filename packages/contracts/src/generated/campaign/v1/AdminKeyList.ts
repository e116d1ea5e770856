// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type { AdminKey as _campaign_v1_AdminKey, AdminKey__Output as _campaign_v1_AdminKey__Output } from '../../campaign/v1/AdminKey';

export interface AdminKeyList {
  'siteId'?: (string);
  'keys'?: (_campaign_v1_AdminKey)[];
}

export interface AdminKeyList__Output {
  'siteId': (string);
  'keys': (_campaign_v1_AdminKey__Output)[];
}
