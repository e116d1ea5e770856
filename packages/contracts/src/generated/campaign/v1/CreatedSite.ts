// Original file: packages/contracts/protos/campaign/v1/site_admin.proto

import type { AdminSite as _campaign_v1_AdminSite, AdminSite__Output as _campaign_v1_AdminSite__Output } from '../../campaign/v1/AdminSite';

export interface CreatedSite {
  'site'?: (_campaign_v1_AdminSite | null);
  'apiKey'?: (string);
  'keyId'?: (string);
  'vapidPublicKey'?: (string);
}

export interface CreatedSite__Output {
  'site': (_campaign_v1_AdminSite__Output | null);
  'apiKey': (string);
  'keyId': (string);
  'vapidPublicKey': (string);
}
