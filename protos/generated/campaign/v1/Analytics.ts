// Original file: protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface Analytics {
  'clicks'?: (number | string | Long);
  'impressions'?: (number | string | Long);
  'ctr'?: (number | string);
  'its'?: (number | string);
  'totalUsers'?: (number | string | Long);
}

export interface Analytics__Output {
  'clicks': (number);
  'impressions': (number);
  'ctr': (number);
  'its': (number);
  'totalUsers': (number);
}
