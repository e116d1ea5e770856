// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface FailedBy {
  'rejected'?: (number | string | Long);
  'unauthorized'?: (number | string | Long);
  'unreachable'?: (number | string | Long);
  'refused'?: (number | string | Long);
}

export interface FailedBy__Output {
  'rejected': (number);
  'unauthorized': (number);
  'unreachable': (number);
  'refused': (number);
}
