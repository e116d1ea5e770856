// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { TagValue as _campaign_v1_TagValue, TagValue__Output as _campaign_v1_TagValue__Output } from '../../campaign/v1/TagValue';

export interface TagCondition {
  'key'?: (string);
  'operator'?: (string);
  'values'?: (_campaign_v1_TagValue)[];
}

export interface TagCondition__Output {
  'key': (string);
  'operator': (string);
  'values': (_campaign_v1_TagValue__Output)[];
}
