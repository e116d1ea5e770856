// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { FrequencyCap as _delivery_v1_FrequencyCap, FrequencyCap__Output as _delivery_v1_FrequencyCap__Output } from '../../delivery/v1/FrequencyCap';
import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from '../../delivery/v1/QuietHoursWindow';

export interface SiteSettingsResponse {
  'vapidPublicKey'?: (string);
  'publicId'?: (string);
  'frequencyCap'?: (_delivery_v1_FrequencyCap | null);
  'timeZone'?: (string);
  'quietHours'?: (_delivery_v1_QuietHoursWindow | null);
}

export interface SiteSettingsResponse__Output {
  'vapidPublicKey': (string);
  'publicId': (string);
  'frequencyCap': (_delivery_v1_FrequencyCap__Output | null);
  'timeZone': (string);
  'quietHours': (_delivery_v1_QuietHoursWindow__Output | null);
}
