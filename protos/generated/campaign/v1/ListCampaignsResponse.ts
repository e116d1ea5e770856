// Original file: protos/campaign/v1/campaign.proto

import type { Campaign as _campaign_v1_Campaign, Campaign__Output as _campaign_v1_Campaign__Output } from '../../campaign/v1/Campaign';

export interface ListCampaignsResponse {
  'items'?: (_campaign_v1_Campaign)[];
  'limit'?: (number);
  'hasMore'?: (boolean);
  'nextCursor'?: (string);
}

export interface ListCampaignsResponse__Output {
  'items': (_campaign_v1_Campaign__Output)[];
  'limit': (number);
  'hasMore': (boolean);
  'nextCursor': (string);
}
