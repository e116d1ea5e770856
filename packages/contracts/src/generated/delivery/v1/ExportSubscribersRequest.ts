// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface ExportSubscribersRequest {
  'siteId'?: (string);
  'format'?: (string);
  'topics'?: (string);
  'countries'?: (string);
}

export interface ExportSubscribersRequest__Output {
  'siteId': (string);
  'format': (string);
  'topics': (string);
  'countries': (string);
}
