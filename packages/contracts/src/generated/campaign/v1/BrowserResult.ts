// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface BrowserResult {
  'browser'?: (string);
  'sent'?: (number | string | Long);
  'failed'?: (number | string | Long);
  'expired'?: (number | string | Long);
  'capped'?: (number | string | Long);
}

export interface BrowserResult__Output {
  'browser': (string);
  'sent': (number);
  'failed': (number);
  'expired': (number);
  'capped': (number);
}
