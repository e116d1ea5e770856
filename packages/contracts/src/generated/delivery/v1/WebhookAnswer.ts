// Original file: packages/contracts/protos/delivery/v1/webhooks.proto


export interface WebhookAnswer {
  'json'?: (string);
}

export interface WebhookAnswer__Output {
  'json': (string);
}
