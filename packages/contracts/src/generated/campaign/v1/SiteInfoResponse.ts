// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Permissions as _campaign_v1_Permissions, Permissions__Output as _campaign_v1_Permissions__Output } from '../../campaign/v1/Permissions';

export interface SiteInfoResponse {
  'id'?: (string);
  'name'?: (string);
  'publicId'?: (string);
  'planName'?: (string);
  'permissions'?: (_campaign_v1_Permissions | null);
}

export interface SiteInfoResponse__Output {
  'id': (string);
  'name': (string);
  'publicId': (string);
  'planName': (string);
  'permissions': (_campaign_v1_Permissions__Output | null);
}
