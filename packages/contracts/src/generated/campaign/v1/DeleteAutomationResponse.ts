// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface DeleteAutomationResponse {
  'id'?: (string);
}

export interface DeleteAutomationResponse__Output {
  'id': (string);
}
