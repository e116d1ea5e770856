// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { Long } from '@grpc/proto-loader';

export interface BrowserCount {
  'browser'?: (string);
  'users'?: (number | string | Long);
}

export interface BrowserCount__Output {
  'browser': (string);
  'users': (number);
}
