// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface DeleteTopicRequest {
  'siteId'?: (string);
  'name'?: (string);
}

export interface DeleteTopicRequest__Output {
  'siteId': (string);
  'name': (string);
}
