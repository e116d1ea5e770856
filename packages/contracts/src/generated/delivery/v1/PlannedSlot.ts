// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { Long } from '@grpc/proto-loader';

export interface PlannedSlot {
  'slot'?: (number);
  'sendAt'?: (string);
  'hour'?: (number);
  'users'?: (number | string | Long);
}

export interface PlannedSlot__Output {
  'slot': (number);
  'sendAt': (string);
  'hour': (number);
  'users': (number);
}
