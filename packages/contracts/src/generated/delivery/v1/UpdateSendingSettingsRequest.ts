// Original file: packages/contracts/protos/delivery/v1/console_data.proto

import type { FrequencyCapInput as _delivery_v1_FrequencyCapInput, FrequencyCapInput__Output as _delivery_v1_FrequencyCapInput__Output } from '../../delivery/v1/FrequencyCapInput';
import type { QuietHoursWindow as _delivery_v1_QuietHoursWindow, QuietHoursWindow__Output as _delivery_v1_QuietHoursWindow__Output } from '../../delivery/v1/QuietHoursWindow';

export interface UpdateSendingSettingsRequest {
  'siteId'?: (string);
  'setFrequencyCap'?: (boolean);
  'frequencyCap'?: (_delivery_v1_FrequencyCapInput | null);
  'setTimeZone'?: (boolean);
  'timeZone'?: (string);
  'validateOnly'?: (boolean);
  'setQuietHours'?: (boolean);
  'quietHours'?: (_delivery_v1_QuietHoursWindow | null);
  '_timeZone'?: "timeZone";
}

export interface UpdateSendingSettingsRequest__Output {
  'siteId': (string);
  'setFrequencyCap': (boolean);
  'frequencyCap': (_delivery_v1_FrequencyCapInput__Output | null);
  'setTimeZone': (boolean);
  'timeZone'?: (string);
  'validateOnly': (boolean);
  'setQuietHours': (boolean);
  'quietHours': (_delivery_v1_QuietHoursWindow__Output | null);
  '_timeZone'?: "timeZone";
}
