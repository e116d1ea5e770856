// Original file: packages/contracts/protos/delivery/v1/webhooks.proto

import type { WebhookDelivery as _delivery_v1_WebhookDelivery, WebhookDelivery__Output as _delivery_v1_WebhookDelivery__Output } from '../../delivery/v1/WebhookDelivery';

export interface ListWebhookDeliveriesResponse {
  'deliveries'?: (_delivery_v1_WebhookDelivery)[];
}

export interface ListWebhookDeliveriesResponse__Output {
  'deliveries': (_delivery_v1_WebhookDelivery__Output)[];
}
