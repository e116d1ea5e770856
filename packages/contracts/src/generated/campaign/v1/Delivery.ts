// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { FailedBy as _campaign_v1_FailedBy, FailedBy__Output as _campaign_v1_FailedBy__Output } from '../../campaign/v1/FailedBy';
import type { BrowserResult as _campaign_v1_BrowserResult, BrowserResult__Output as _campaign_v1_BrowserResult__Output } from '../../campaign/v1/BrowserResult';
import type { Long } from '@grpc/proto-loader';

export interface Delivery {
  'sent'?: (number | string | Long);
  'failed'?: (number | string | Long);
  'expired'?: (number | string | Long);
  'pending'?: (number | string | Long);
  'failedBy'?: (_campaign_v1_FailedBy | null);
  'capped'?: (number | string | Long);
  'byBrowser'?: (_campaign_v1_BrowserResult)[];
}

export interface Delivery__Output {
  'sent': (number);
  'failed': (number);
  'expired': (number);
  'pending': (number);
  'failedBy': (_campaign_v1_FailedBy__Output | null);
  'capped': (number);
  'byBrowser': (_campaign_v1_BrowserResult__Output)[];
}
