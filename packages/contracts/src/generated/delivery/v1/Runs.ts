// Original file: packages/contracts/protos/delivery/v1/runs.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { PickWinnerRequest as _delivery_v1_PickWinnerRequest, PickWinnerRequest__Output as _delivery_v1_PickWinnerRequest__Output } from '../../delivery/v1/PickWinnerRequest';
import type { PickWinnerResponse as _delivery_v1_PickWinnerResponse, PickWinnerResponse__Output as _delivery_v1_PickWinnerResponse__Output } from '../../delivery/v1/PickWinnerResponse';

export interface RunsClient extends grpc.Client {
  PickWinner(argument: _delivery_v1_PickWinnerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  PickWinner(argument: _delivery_v1_PickWinnerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  PickWinner(argument: _delivery_v1_PickWinnerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  PickWinner(argument: _delivery_v1_PickWinnerRequest, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _delivery_v1_PickWinnerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _delivery_v1_PickWinnerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _delivery_v1_PickWinnerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  pickWinner(argument: _delivery_v1_PickWinnerRequest, callback: grpc.requestCallback<_delivery_v1_PickWinnerResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RunsHandlers extends grpc.UntypedServiceImplementation {
  PickWinner: grpc.handleUnaryCall<_delivery_v1_PickWinnerRequest__Output, _delivery_v1_PickWinnerResponse>;
  
}

export interface RunsDefinition extends grpc.ServiceDefinition {
  PickWinner: MethodDefinition<_delivery_v1_PickWinnerRequest, _delivery_v1_PickWinnerResponse, _delivery_v1_PickWinnerRequest__Output, _delivery_v1_PickWinnerResponse__Output>
}
