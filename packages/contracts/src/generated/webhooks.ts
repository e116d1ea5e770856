import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { WebhookAnswer as _delivery_v1_WebhookAnswer, WebhookAnswer__Output as _delivery_v1_WebhookAnswer__Output } from './delivery/v1/WebhookAnswer';
import type { WebhookRequest as _delivery_v1_WebhookRequest, WebhookRequest__Output as _delivery_v1_WebhookRequest__Output } from './delivery/v1/WebhookRequest';
import type { WebhooksClient as _delivery_v1_WebhooksClient, WebhooksDefinition as _delivery_v1_WebhooksDefinition } from './delivery/v1/Webhooks';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      WebhookAnswer: MessageTypeDefinition<_delivery_v1_WebhookAnswer, _delivery_v1_WebhookAnswer__Output>
      WebhookRequest: MessageTypeDefinition<_delivery_v1_WebhookRequest, _delivery_v1_WebhookRequest__Output>
      Webhooks: SubtypeConstructor<typeof grpc.Client, _delivery_v1_WebhooksClient> & { service: _delivery_v1_WebhooksDefinition }
    }
  }
}

