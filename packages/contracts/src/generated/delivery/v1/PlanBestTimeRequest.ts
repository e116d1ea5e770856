// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface PlanBestTimeRequest {
  'siteId'?: (string);
  'topics'?: (string)[];
  'countries'?: (string)[];
  'segmentJson'?: (string);
  'withinHours'?: (number);
  'holdoutPercent'?: (number);
  'start'?: (string);
}

export interface PlanBestTimeRequest__Output {
  'siteId': (string);
  'topics': (string)[];
  'countries': (string)[];
  'segmentJson': (string);
  'withinHours': (number);
  'holdoutPercent': (number);
  'start': (string);
}
