// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { Long } from '@grpc/proto-loader';

export interface DayCount {
  'day'?: (string);
  'created'?: (number | string | Long);
  'expired'?: (number | string | Long);
  'returned'?: (number | string | Long);
  'active'?: (number | string | Long);
}

export interface DayCount__Output {
  'day': (string);
  'created': (number);
  'expired': (number);
  'returned': (number);
  'active': (number);
}
