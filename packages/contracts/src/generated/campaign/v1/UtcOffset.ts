// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface UtcOffset {
  'min'?: (number);
  'max'?: (number);
}

export interface UtcOffset__Output {
  'min': (number);
  'max': (number);
}
