// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface Analytics {
  'clicks'?: (number | string | Long);
  'impressions'?: (number | string | Long);
}

export interface Analytics__Output {
  'clicks': (number);
  'impressions': (number);
}
