// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { ApiKey as _campaign_v1_ApiKey, ApiKey__Output as _campaign_v1_ApiKey__Output } from '../../campaign/v1/ApiKey';

export interface IssuedApiKey {
  'key'?: (_campaign_v1_ApiKey | null);
  'apiKey'?: (string);
  'revoked'?: (_campaign_v1_ApiKey | null);
}

export interface IssuedApiKey__Output {
  'key': (_campaign_v1_ApiKey__Output | null);
  'apiKey': (string);
  'revoked': (_campaign_v1_ApiKey__Output | null);
}
