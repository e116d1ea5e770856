// Original file: packages/contracts/protos/delivery/v1/runs.proto


export interface PickWinnerResponse {
  'variant'?: (number);
  'decidedAt'?: (string);
  'by'?: (string);
}

export interface PickWinnerResponse__Output {
  'variant': (number);
  'decidedAt': (string);
  'by': (string);
}
