// Original file: packages/contracts/protos/delivery/v1/console_data.proto


export interface OptInPromptsResponse {
  'promptsJson'?: (string);
}

export interface OptInPromptsResponse__Output {
  'promptsJson': (string);
}
