// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Automation as _campaign_v1_Automation, Automation__Output as _campaign_v1_Automation__Output } from '../../campaign/v1/Automation';
import type { Page as _common_v1_Page, Page__Output as _common_v1_Page__Output } from '../../common/v1/Page';

export interface ListAutomationsResponse {
  'items'?: (_campaign_v1_Automation)[];
  'page'?: (_common_v1_Page | null);
}

export interface ListAutomationsResponse__Output {
  'items': (_campaign_v1_Automation__Output)[];
  'page': (_common_v1_Page__Output | null);
}
