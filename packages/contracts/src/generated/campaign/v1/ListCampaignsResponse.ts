// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Campaign as _campaign_v1_Campaign, Campaign__Output as _campaign_v1_Campaign__Output } from '../../campaign/v1/Campaign';
import type { Page as _common_v1_Page, Page__Output as _common_v1_Page__Output } from '../../common/v1/Page';

export interface ListCampaignsResponse {
  'limit'?: (number);
  'hasMore'?: (boolean);
  'nextCursor'?: (string);
  'itemsJson'?: (Buffer | Uint8Array | string);
  'items'?: (_campaign_v1_Campaign)[];
  'page'?: (_common_v1_Page | null);
}

export interface ListCampaignsResponse__Output {
  'limit': (number);
  'hasMore': (boolean);
  'nextCursor': (string);
  'itemsJson': (Buffer);
  'items': (_campaign_v1_Campaign__Output)[];
  'page': (_common_v1_Page__Output | null);
}
