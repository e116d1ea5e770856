// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface VariantResult {
  'variant'?: (number);
  'sent'?: (number | string | Long);
  'impressions'?: (number | string | Long);
  'clicks'?: (number | string | Long);
}

export interface VariantResult__Output {
  'variant': (number);
  'sent': (number);
  'impressions': (number);
  'clicks': (number);
}
