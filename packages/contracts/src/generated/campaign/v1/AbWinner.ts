// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface AbWinner {
  'variant'?: (number);
  'decidedAt'?: (string);
  'by'?: (string);
}

export interface AbWinner__Output {
  'variant': (number);
  'decidedAt': (string);
  'by': (string);
}
