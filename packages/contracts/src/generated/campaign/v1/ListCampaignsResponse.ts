// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Campaign as _campaign_v1_Campaign, Campaign__Output as _campaign_v1_Campaign__Output } from '../../campaign/v1/Campaign';

export interface ListCampaignsResponse {
  'limit'?: (number);
  'hasMore'?: (boolean);
  'nextCursor'?: (string);
  'items'?: (_campaign_v1_Campaign)[];
}

export interface ListCampaignsResponse__Output {
  'limit': (number);
  'hasMore': (boolean);
  'nextCursor': (string);
  'items': (_campaign_v1_Campaign__Output)[];
}
