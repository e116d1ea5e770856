// Original file: packages/contracts/protos/delivery/v1/runs.proto


export interface PickWinnerRequest {
  'siteId'?: (string);
  'campaignId'?: (string);
  'variant'?: (number);
}

export interface PickWinnerRequest__Output {
  'siteId': (string);
  'campaignId': (string);
  'variant': (number);
}
