// Original file: packages/contracts/protos/delivery/v1/site_registry.proto

import type { FrequencyCap as _delivery_v1_FrequencyCap, FrequencyCap__Output as _delivery_v1_FrequencyCap__Output } from '../../delivery/v1/FrequencyCap';

export interface FrequencyCapAnswer {
  'siteId'?: (string);
  'frequencyCap'?: (_delivery_v1_FrequencyCap | null);
}

export interface FrequencyCapAnswer__Output {
  'siteId': (string);
  'frequencyCap': (_delivery_v1_FrequencyCap__Output | null);
}
