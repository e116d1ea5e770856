// Original file: packages/contracts/protos/delivery/v1/site_registry.proto

import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from '../../delivery/v1/QuietHoursWindow';

export interface QuietHoursAnswer {
  'siteId'?: (string);
  'quietHours'?: (_delivery_v1_QuietHoursWindow | null);
}

export interface QuietHoursAnswer__Output {
  'siteId': (string);
  'quietHours': (_delivery_v1_QuietHoursWindow__Output | null);
}
