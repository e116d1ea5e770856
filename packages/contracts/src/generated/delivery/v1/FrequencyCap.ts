// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface FrequencyCap {
  'campaigns'?: (number);
  'hours'?: (number);
}

export interface FrequencyCap__Output {
  'campaigns': (number);
  'hours': (number);
}
