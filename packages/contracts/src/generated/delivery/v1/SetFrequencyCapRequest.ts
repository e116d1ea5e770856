// Original file: packages/contracts/protos/delivery/v1/site_registry.proto

import type { FrequencyCap as _delivery_v1_FrequencyCap, FrequencyCap__Output as _delivery_v1_FrequencyCap__Output } from '../../delivery/v1/FrequencyCap';

export interface SetFrequencyCapRequest {
  'site'?: (string);
  'cap'?: (_delivery_v1_FrequencyCap | null);
}

export interface SetFrequencyCapRequest__Output {
  'site': (string);
  'cap': (_delivery_v1_FrequencyCap__Output | null);
}
