// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { NameCount as _delivery_v1_NameCount, NameCount__Output as _delivery_v1_NameCount__Output } from '../../delivery/v1/NameCount';
import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from '../../delivery/v1/QuietHoursWindow';
import type { Long } from '@grpc/proto-loader';

export interface CountAudienceResponse {
  'users'?: (number | string | Long);
  'zones'?: (_delivery_v1_NameCount)[];
  'defaultTimeZone'?: (string);
  'quietHours'?: (_delivery_v1_QuietHoursWindow | null);
}

export interface CountAudienceResponse__Output {
  'users': (number);
  'zones': (_delivery_v1_NameCount__Output)[];
  'defaultTimeZone': (string);
  'quietHours': (_delivery_v1_QuietHoursWindow__Output | null);
}
