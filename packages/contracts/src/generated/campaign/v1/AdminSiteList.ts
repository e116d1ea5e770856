// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type { AdminSite as _campaign_v1_AdminSite, AdminSite__Output as _campaign_v1_AdminSite__Output } from '../../campaign/v1/AdminSite';

export interface AdminSiteList {
  'sites'?: (_campaign_v1_AdminSite)[];
}

export interface AdminSiteList__Output {
  'sites': (_campaign_v1_AdminSite__Output)[];
}
