// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { Long } from '@grpc/proto-loader';

export interface SeriesPoint {
  'at'?: (string);
  'impressions'?: (number | string | Long);
  'clicks'?: (number | string | Long);
}

export interface SeriesPoint__Output {
  'at': (string);
  'impressions': (number);
  'clicks': (number);
}
