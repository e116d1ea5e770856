// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Feed as _campaign_v1_Feed, Feed__Output as _campaign_v1_Feed__Output } from '../../campaign/v1/Feed';
import type { Page as _common_v1_Page, Page__Output as _common_v1_Page__Output } from '../../common/v1/Page';

export interface ListFeedsResponse {
  'items'?: (_campaign_v1_Feed)[];
  'page'?: (_common_v1_Page | null);
}

export interface ListFeedsResponse__Output {
  'items': (_campaign_v1_Feed__Output)[];
  'page': (_common_v1_Page__Output | null);
}
