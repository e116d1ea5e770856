// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface CreateNotificationRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
  'idempotencyKey'?: (string);
}

export interface CreateNotificationRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
  'idempotencyKey': (string);
}
