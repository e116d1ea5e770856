// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { Long } from '@grpc/proto-loader';

export interface TopicChange {
  'subscribers'?: (number | string | Long);
}

export interface TopicChange__Output {
  'subscribers': (number);
}
