// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface AudienceBrowsersRequest {
  'siteId'?: (string);
}

export interface AudienceBrowsersRequest__Output {
  'siteId': (string);
}
