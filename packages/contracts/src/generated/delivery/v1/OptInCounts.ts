// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { Long } from '@grpc/proto-loader';

export interface OptInCounts {
  'shown'?: (number | string | Long);
  'accepted'?: (number | string | Long);
  'dismissed'?: (number | string | Long);
  'denied'?: (number | string | Long);
  'subscribed'?: (number | string | Long);
  'unsubscribed'?: (number | string | Long);
}

export interface OptInCounts__Output {
  'shown': (number);
  'accepted': (number);
  'dismissed': (number);
  'denied': (number);
  'subscribed': (number);
  'unsubscribed': (number);
}
