// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { Long } from '@grpc/proto-loader';

export interface NameCount {
  'name'?: (string);
  'users'?: (number | string | Long);
}

export interface NameCount__Output {
  'name': (string);
  'users': (number);
}
