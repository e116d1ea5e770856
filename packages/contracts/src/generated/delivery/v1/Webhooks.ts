// Original file: packages/contracts/protos/delivery/v1/webhooks.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DeleteWebhookResponse as _delivery_v1_DeleteWebhookResponse, DeleteWebhookResponse__Output as _delivery_v1_DeleteWebhookResponse__Output } from '../../delivery/v1/DeleteWebhookResponse';
import type { ListWebhookDeliveriesResponse as _delivery_v1_ListWebhookDeliveriesResponse, ListWebhookDeliveriesResponse__Output as _delivery_v1_ListWebhookDeliveriesResponse__Output } from '../../delivery/v1/ListWebhookDeliveriesResponse';
import type { ListWebhooksResponse as _delivery_v1_ListWebhooksResponse, ListWebhooksResponse__Output as _delivery_v1_ListWebhooksResponse__Output } from '../../delivery/v1/ListWebhooksResponse';
import type { WebhookDelivery as _delivery_v1_WebhookDelivery, WebhookDelivery__Output as _delivery_v1_WebhookDelivery__Output } from '../../delivery/v1/WebhookDelivery';
import type { WebhookEndpoint as _delivery_v1_WebhookEndpoint, WebhookEndpoint__Output as _delivery_v1_WebhookEndpoint__Output } from '../../delivery/v1/WebhookEndpoint';
import type { WebhookRequest as _delivery_v1_WebhookRequest, WebhookRequest__Output as _delivery_v1_WebhookRequest__Output } from '../../delivery/v1/WebhookRequest';
import type { WebhookWithSecret as _delivery_v1_WebhookWithSecret, WebhookWithSecret__Output as _delivery_v1_WebhookWithSecret__Output } from '../../delivery/v1/WebhookWithSecret';

export interface WebhooksClient extends grpc.Client {
  CreateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_DeleteWebhookResponse__Output>): grpc.ClientUnaryCall;
  
  GetWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  
  ListWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  
  PingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  PingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  PingWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  PingWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookEndpoint__Output>): grpc.ClientUnaryCall;
  
}

export interface WebhooksHandlers extends grpc.UntypedServiceImplementation {
  CreateWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookWithSecret>;
  
  DeleteWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_DeleteWebhookResponse>;
  
  GetWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookEndpoint>;
  
  ListWebhookDeliveries: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_ListWebhookDeliveriesResponse>;
  
  ListWebhooks: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_ListWebhooksResponse>;
  
  PingWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookDelivery>;
  
  RedeliverWebhookEvent: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookDelivery>;
  
  RotateWebhookSecret: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookWithSecret>;
  
  UpdateWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookEndpoint>;
  
}

export interface WebhooksDefinition extends grpc.ServiceDefinition {
  CreateWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookWithSecret, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookWithSecret__Output>
  DeleteWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_DeleteWebhookResponse, _delivery_v1_WebhookRequest__Output, _delivery_v1_DeleteWebhookResponse__Output>
  GetWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookEndpoint, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookEndpoint__Output>
  ListWebhookDeliveries: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_ListWebhookDeliveriesResponse, _delivery_v1_WebhookRequest__Output, _delivery_v1_ListWebhookDeliveriesResponse__Output>
  ListWebhooks: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_ListWebhooksResponse, _delivery_v1_WebhookRequest__Output, _delivery_v1_ListWebhooksResponse__Output>
  PingWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookDelivery, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookDelivery__Output>
  RedeliverWebhookEvent: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookDelivery, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookDelivery__Output>
  RotateWebhookSecret: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookWithSecret, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookWithSecret__Output>
  UpdateWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookEndpoint, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookEndpoint__Output>
}
