// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface MergeTopicsRequest {
  'siteId'?: (string);
  'from'?: (string)[];
  'to'?: (string);
}

export interface MergeTopicsRequest__Output {
  'siteId': (string);
  'from': (string)[];
  'to': (string);
}
