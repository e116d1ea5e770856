// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Permissions as _campaign_v1_Permissions, Permissions__Output as _campaign_v1_Permissions__Output } from '../../campaign/v1/Permissions';

export interface AuthenticateResponse {
  'siteId'?: (string);
  'permissions'?: (_campaign_v1_Permissions | null);
  'keyId'?: (string);
  'keyPrefix'?: (string);
  'keyLabel'?: (string);
}

export interface AuthenticateResponse__Output {
  'siteId': (string);
  'permissions': (_campaign_v1_Permissions__Output | null);
  'keyId': (string);
  'keyPrefix': (string);
  'keyLabel': (string);
}
