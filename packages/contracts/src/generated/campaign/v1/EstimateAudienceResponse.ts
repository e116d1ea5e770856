// Original file: packages/contracts/protos/campaign/v1/console.proto

import type { Long } from '@grpc/proto-loader';

export interface EstimateAudienceResponse {
  'totalUsers'?: (number | string | Long);
}

export interface EstimateAudienceResponse__Output {
  'totalUsers': (number);
}
