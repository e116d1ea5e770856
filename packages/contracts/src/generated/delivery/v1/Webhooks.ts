// Original file: packages/contracts/protos/delivery/v1/webhooks.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { WebhookAnswer as _delivery_v1_WebhookAnswer, WebhookAnswer__Output as _delivery_v1_WebhookAnswer__Output } from '../../delivery/v1/WebhookAnswer';
import type { WebhookRequest as _delivery_v1_WebhookRequest, WebhookRequest__Output as _delivery_v1_WebhookRequest__Output } from '../../delivery/v1/WebhookRequest';

export interface WebhooksClient extends grpc.Client {
  CreateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  GetWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  ListWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  PingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  PingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  PingWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  PingWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  pingWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  RedeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  redeliverWebhookEvent(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _delivery_v1_WebhookRequest, callback: grpc.requestCallback<_delivery_v1_WebhookAnswer__Output>): grpc.ClientUnaryCall;
  
}

export interface WebhooksHandlers extends grpc.UntypedServiceImplementation {
  CreateWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  DeleteWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  GetWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  ListWebhookDeliveries: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  ListWebhooks: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  PingWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  RedeliverWebhookEvent: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  RotateWebhookSecret: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
  UpdateWebhook: grpc.handleUnaryCall<_delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer>;
  
}

export interface WebhooksDefinition extends grpc.ServiceDefinition {
  CreateWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  DeleteWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  GetWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  ListWebhookDeliveries: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  ListWebhooks: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  PingWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  RedeliverWebhookEvent: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  RotateWebhookSecret: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
  UpdateWebhook: MethodDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookAnswer, _delivery_v1_WebhookRequest__Output, _delivery_v1_WebhookAnswer__Output>
}
