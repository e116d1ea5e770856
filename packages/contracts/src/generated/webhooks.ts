import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { DeleteWebhookResponse as _delivery_v1_DeleteWebhookResponse, DeleteWebhookResponse__Output as _delivery_v1_DeleteWebhookResponse__Output } from './delivery/v1/DeleteWebhookResponse';
import type { ListWebhookDeliveriesResponse as _delivery_v1_ListWebhookDeliveriesResponse, ListWebhookDeliveriesResponse__Output as _delivery_v1_ListWebhookDeliveriesResponse__Output } from './delivery/v1/ListWebhookDeliveriesResponse';
import type { ListWebhooksResponse as _delivery_v1_ListWebhooksResponse, ListWebhooksResponse__Output as _delivery_v1_ListWebhooksResponse__Output } from './delivery/v1/ListWebhooksResponse';
import type { WebhookDelivery as _delivery_v1_WebhookDelivery, WebhookDelivery__Output as _delivery_v1_WebhookDelivery__Output } from './delivery/v1/WebhookDelivery';
import type { WebhookEndpoint as _delivery_v1_WebhookEndpoint, WebhookEndpoint__Output as _delivery_v1_WebhookEndpoint__Output } from './delivery/v1/WebhookEndpoint';
import type { WebhookRequest as _delivery_v1_WebhookRequest, WebhookRequest__Output as _delivery_v1_WebhookRequest__Output } from './delivery/v1/WebhookRequest';
import type { WebhookWithSecret as _delivery_v1_WebhookWithSecret, WebhookWithSecret__Output as _delivery_v1_WebhookWithSecret__Output } from './delivery/v1/WebhookWithSecret';
import type { WebhooksClient as _delivery_v1_WebhooksClient, WebhooksDefinition as _delivery_v1_WebhooksDefinition } from './delivery/v1/Webhooks';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      DeleteWebhookResponse: MessageTypeDefinition<_delivery_v1_DeleteWebhookResponse, _delivery_v1_DeleteWebhookResponse__Output>
      ListWebhookDeliveriesResponse: MessageTypeDefinition<_delivery_v1_ListWebhookDeliveriesResponse, _delivery_v1_ListWebhookDeliveriesResponse__Output>
      ListWebhooksResponse: MessageTypeDefinition<_delivery_v1_ListWebhooksResponse, _delivery_v1_ListWebhooksResponse__Output>
      WebhookDelivery: MessageTypeDefinition<_delivery_v1_WebhookDelivery, _delivery_v1_WebhookDelivery__Output>
      WebhookEndpoint: MessageTypeDefinition<_delivery_v1_WebhookEndpoint, _delivery_v1_WebhookEndpoint__Output>
      WebhookRequest: MessageTypeDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookRequest__Output>
      WebhookWithSecret: MessageTypeDefinition<_delivery_v1_WebhookWithSecret, _delivery_v1_WebhookWithSecret__Output>
      Webhooks: SubtypeConstructor<typeof grpc.Client, _delivery_v1_WebhooksClient> & { service: _delivery_v1_WebhooksDefinition }
    }
  }
}

