// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Template as _campaign_v1_Template, Template__Output as _campaign_v1_Template__Output } from '../../campaign/v1/Template';
import type { Page as _common_v1_Page, Page__Output as _common_v1_Page__Output } from '../../common/v1/Page';

export interface ListTemplatesResponse {
  'items'?: (_campaign_v1_Template)[];
  'page'?: (_common_v1_Page | null);
}

export interface ListTemplatesResponse__Output {
  'items': (_campaign_v1_Template__Output)[];
  'page': (_common_v1_Page__Output | null);
}
