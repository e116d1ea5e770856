// Original file: packages/contracts/protos/delivery/v1/site_registry.proto

import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from '../../delivery/v1/QuietHoursWindow';

export interface SetQuietHoursRequest {
  'site'?: (string);
  'quietHours'?: (_delivery_v1_QuietHoursWindow | null);
}

export interface SetQuietHoursRequest__Output {
  'site': (string);
  'quietHours': (_delivery_v1_QuietHoursWindow__Output | null);
}
