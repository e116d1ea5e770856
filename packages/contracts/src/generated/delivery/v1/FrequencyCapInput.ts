// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface FrequencyCapInput {
  'campaigns'?: (number | string);
  'hours'?: (number | string);
}

export interface FrequencyCapInput__Output {
  'campaigns': (number);
  'hours': (number);
}
