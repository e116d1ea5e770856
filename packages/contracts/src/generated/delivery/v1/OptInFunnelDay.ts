// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { OptInCounts as _delivery_v1_OptInCounts, OptInCounts__Output as _delivery_v1_OptInCounts__Output } from '../../delivery/v1/OptInCounts';

export interface OptInFunnelDay {
  'day'?: (string);
  'promptId'?: (string);
  'counts'?: (_delivery_v1_OptInCounts | null);
}

export interface OptInFunnelDay__Output {
  'day': (string);
  'promptId': (string);
  'counts': (_delivery_v1_OptInCounts__Output | null);
}
