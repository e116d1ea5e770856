// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface RenameTopicRequest {
  'siteId'?: (string);
  'from'?: (string);
  'to'?: (string);
}

export interface RenameTopicRequest__Output {
  'siteId': (string);
  'from': (string);
  'to': (string);
}
