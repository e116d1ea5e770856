import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { NotificationResultsRequest as _delivery_v1_NotificationResultsRequest, NotificationResultsRequest__Output as _delivery_v1_NotificationResultsRequest__Output } from './delivery/v1/NotificationResultsRequest';
import type { NotificationResultsResponse as _delivery_v1_NotificationResultsResponse, NotificationResultsResponse__Output as _delivery_v1_NotificationResultsResponse__Output } from './delivery/v1/NotificationResultsResponse';
import type { NotificationTargetResult as _delivery_v1_NotificationTargetResult, NotificationTargetResult__Output as _delivery_v1_NotificationTargetResult__Output } from './delivery/v1/NotificationTargetResult';
import type { PickWinnerRequest as _delivery_v1_PickWinnerRequest, PickWinnerRequest__Output as _delivery_v1_PickWinnerRequest__Output } from './delivery/v1/PickWinnerRequest';
import type { PickWinnerResponse as _delivery_v1_PickWinnerResponse, PickWinnerResponse__Output as _delivery_v1_PickWinnerResponse__Output } from './delivery/v1/PickWinnerResponse';
import type { RunsClient as _delivery_v1_RunsClient, RunsDefinition as _delivery_v1_RunsDefinition } from './delivery/v1/Runs';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      NotificationResultsRequest: MessageTypeDefinition<_delivery_v1_NotificationResultsRequest, _delivery_v1_NotificationResultsRequest__Output>
      NotificationResultsResponse: MessageTypeDefinition<_delivery_v1_NotificationResultsResponse, _delivery_v1_NotificationResultsResponse__Output>
      NotificationTargetResult: MessageTypeDefinition<_delivery_v1_NotificationTargetResult, _delivery_v1_NotificationTargetResult__Output>
      PickWinnerRequest: MessageTypeDefinition<_delivery_v1_PickWinnerRequest, _delivery_v1_PickWinnerRequest__Output>
      PickWinnerResponse: MessageTypeDefinition<_delivery_v1_PickWinnerResponse, _delivery_v1_PickWinnerResponse__Output>
      Runs: SubtypeConstructor<typeof grpc.Client, _delivery_v1_RunsClient> & { service: _delivery_v1_RunsDefinition }
    }
  }
}

