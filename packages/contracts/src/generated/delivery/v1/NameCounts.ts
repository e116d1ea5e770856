// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { NameCount as _delivery_v1_NameCount, NameCount__Output as _delivery_v1_NameCount__Output } from '../../delivery/v1/NameCount';

export interface NameCounts {
  'entries'?: (_delivery_v1_NameCount)[];
}

export interface NameCounts__Output {
  'entries': (_delivery_v1_NameCount__Output)[];
}
