// Original file: packages/contracts/protos/delivery/v1/webhooks.proto

import type { WebhookEndpoint as _delivery_v1_WebhookEndpoint, WebhookEndpoint__Output as _delivery_v1_WebhookEndpoint__Output } from '../../delivery/v1/WebhookEndpoint';

export interface WebhookWithSecret {
  'endpoint'?: (_delivery_v1_WebhookEndpoint | null);
  'secret'?: (string);
}

export interface WebhookWithSecret__Output {
  'endpoint': (_delivery_v1_WebhookEndpoint__Output | null);
  'secret': (string);
}
