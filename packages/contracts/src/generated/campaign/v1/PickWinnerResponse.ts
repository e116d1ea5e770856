// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface PickWinnerResponse {
  'id'?: (string);
  'variant'?: (number);
  'decidedAt'?: (string);
  'by'?: (string);
}

export interface PickWinnerResponse__Output {
  'id': (string);
  'variant': (number);
  'decidedAt': (string);
  'by': (string);
}
