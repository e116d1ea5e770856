// Original file: protos/delivery/v1/audience.proto

import type { Long } from '@grpc/proto-loader';

export interface CountAudienceResponse {
  'users'?: (number | string | Long);
}

export interface CountAudienceResponse__Output {
  'users': (number);
}
