// Original file: packages/contracts/protos/delivery/v1/webhooks.proto


export interface WebhookEndpoint {
  'id'?: (string);
  'url'?: (string);
  'description'?: (string);
  'events'?: (string)[];
  'enabled'?: (boolean);
  'disabledAt'?: (string);
  'disabledReason'?: (string);
  'failingSince'?: (string);
  'previousSecretExpiresAt'?: (string);
  'createdAt'?: (string);
  '_disabledAt'?: "disabledAt";
  '_disabledReason'?: "disabledReason";
  '_failingSince'?: "failingSince";
  '_previousSecretExpiresAt'?: "previousSecretExpiresAt";
}

export interface WebhookEndpoint__Output {
  'id': (string);
  'url': (string);
  'description': (string);
  'events': (string)[];
  'enabled': (boolean);
  'disabledAt'?: (string);
  'disabledReason'?: (string);
  'failingSince'?: (string);
  'previousSecretExpiresAt'?: (string);
  'createdAt': (string);
  '_disabledAt'?: "disabledAt";
  '_disabledReason'?: "disabledReason";
  '_failingSince'?: "failingSince";
  '_previousSecretExpiresAt'?: "previousSecretExpiresAt";
}
