// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface PlannedSend {
  'sendAt'?: (string);
  'zones'?: (string)[];
  'users'?: (number | string | Long);
  'nextDay'?: (boolean);
  'held'?: (boolean);
}

export interface PlannedSend__Output {
  'sendAt': (string);
  'zones': (string)[];
  'users': (number);
  'nextDay': (boolean);
  'held': (boolean);
}
