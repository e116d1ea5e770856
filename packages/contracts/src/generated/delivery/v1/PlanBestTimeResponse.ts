// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { PlannedSlot as _delivery_v1_PlannedSlot, PlannedSlot__Output as _delivery_v1_PlannedSlot__Output } from '../../delivery/v1/PlannedSlot';
import type { Long } from '@grpc/proto-loader';

export interface PlanBestTimeResponse {
  'users'?: (number | string | Long);
  'holdoutUsers'?: (number | string | Long);
  'slots'?: (_delivery_v1_PlannedSlot)[];
  'sampled'?: (boolean);
  'sampleSize'?: (number | string | Long);
}

export interface PlanBestTimeResponse__Output {
  'users': (number);
  'holdoutUsers': (number);
  'slots': (_delivery_v1_PlannedSlot__Output)[];
  'sampled': (boolean);
  'sampleSize': (number);
}
