// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { ApiKey as _campaign_v1_ApiKey, ApiKey__Output as _campaign_v1_ApiKey__Output } from '../../campaign/v1/ApiKey';

export interface ApiKeyList {
  'keys'?: (_campaign_v1_ApiKey)[];
}

export interface ApiKeyList__Output {
  'keys': (_campaign_v1_ApiKey__Output)[];
}
