// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { DayCount as _delivery_v1_DayCount, DayCount__Output as _delivery_v1_DayCount__Output } from '../../delivery/v1/DayCount';

export interface AudienceDailyResponse {
  'days'?: (_delivery_v1_DayCount)[];
}

export interface AudienceDailyResponse__Output {
  'days': (_delivery_v1_DayCount__Output)[];
}
