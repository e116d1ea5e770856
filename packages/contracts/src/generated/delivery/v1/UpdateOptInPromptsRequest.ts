// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface UpdateOptInPromptsRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
}

export interface UpdateOptInPromptsRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
}
