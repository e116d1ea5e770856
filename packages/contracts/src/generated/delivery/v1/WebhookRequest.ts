// Original file: packages/contracts/protos/delivery/v1/webhooks.proto


export interface WebhookRequest {
  'siteId'?: (string);
  'webhookId'?: (string);
  'eventId'?: (string);
  'bodyJson'?: (string);
}

export interface WebhookRequest__Output {
  'siteId': (string);
  'webhookId': (string);
  'eventId': (string);
  'bodyJson': (string);
}
