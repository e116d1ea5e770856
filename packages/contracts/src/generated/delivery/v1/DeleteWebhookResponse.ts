// Original file: packages/contracts/protos/delivery/v1/webhooks.proto


export interface DeleteWebhookResponse {
  'id'?: (string);
  'deleted'?: (boolean);
}

export interface DeleteWebhookResponse__Output {
  'id': (string);
  'deleted': (boolean);
}
