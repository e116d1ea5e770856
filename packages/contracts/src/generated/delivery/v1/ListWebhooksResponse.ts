// Original file: packages/contracts/protos/delivery/v1/webhooks.proto

import type { WebhookEndpoint as _delivery_v1_WebhookEndpoint, WebhookEndpoint__Output as _delivery_v1_WebhookEndpoint__Output } from '../../delivery/v1/WebhookEndpoint';

export interface ListWebhooksResponse {
  'endpoints'?: (_delivery_v1_WebhookEndpoint)[];
}

export interface ListWebhooksResponse__Output {
  'endpoints': (_delivery_v1_WebhookEndpoint__Output)[];
}
