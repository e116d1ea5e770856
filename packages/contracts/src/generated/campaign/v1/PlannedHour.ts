// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface PlannedHour {
  'sendAt'?: (string);
  'hour'?: (number);
  'users'?: (number | string | Long);
}

export interface PlannedHour__Output {
  'sendAt': (string);
  'hour': (number);
  'users': (number);
}
