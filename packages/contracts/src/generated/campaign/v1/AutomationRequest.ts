// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface AutomationRequest {
  'siteId'?: (string);
  'automationId'?: (string);
  'bodyJson'?: (string);
  'limit'?: (string);
  'cursor'?: (string);
  'idempotencyKey'?: (string);
}

export interface AutomationRequest__Output {
  'siteId': (string);
  'automationId': (string);
  'bodyJson': (string);
  'limit': (string);
  'cursor': (string);
  'idempotencyKey': (string);
}
