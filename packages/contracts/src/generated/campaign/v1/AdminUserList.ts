// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type { AdminUser as _campaign_v1_AdminUser, AdminUser__Output as _campaign_v1_AdminUser__Output } from '../../campaign/v1/AdminUser';

export interface AdminUserList {
  'siteId'?: (string);
  'users'?: (_campaign_v1_AdminUser)[];
}

export interface AdminUserList__Output {
  'siteId': (string);
  'users': (_campaign_v1_AdminUser__Output)[];
}
