// Original file: packages/contracts/protos/delivery/v1/runs.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { NotificationResultsRequest as _delivery_v1_NotificationResultsRequest, NotificationResultsRequest__Output as _delivery_v1_NotificationResultsRequest__Output } from '../../delivery/v1/NotificationResultsRequest';
import type { NotificationResultsResponse as _delivery_v1_NotificationResultsResponse, NotificationResultsResponse__Output as _delivery_v1_NotificationResultsResponse__Output } from '../../delivery/v1/NotificationResultsResponse';
import type { PickWinnerRequest as _delivery_v1_PickWinnerRequest, PickWinnerRequest__Output as _delivery_v1_PickWinnerRequest__Output } from '../../delivery/v1/PickWinnerRequest';
import type { PickWinnerResponse as _delivery_v1_PickWinnerResponse, PickWinnerResponse__Output as _delivery_v1_PickWinnerResponse__Output } from '../../delivery/v1/PickWinnerResponse';

export interface RunsClient extends grpc.Client {
  NotificationResults(argument: _delivery_v1_NotificationResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  NotificationResults(argument: _delivery_v1_NotificationResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  NotificationResults(argument: _delivery_v1_NotificationResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  NotificationResults(argument: _delivery_v1_NotificationResultsRequest, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  notificationResults(argument: _delivery_v1_NotificationResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  notificationResults(argument: _delivery_v1_NotificationResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  notificationResults(argument: _delivery_v1_NotificationResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  notificationResults(argument: _delivery_v1_NotificationResultsRequest, callback: grpc.requestCallback<_delivery_v1_NotificationResultsResponse__Output>): grpc.ClientUnaryCall;
  
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
  NotificationResults: grpc.handleUnaryCall<_delivery_v1_NotificationResultsRequest__Output, _delivery_v1_NotificationResultsResponse>;
  
  PickWinner: grpc.handleUnaryCall<_delivery_v1_PickWinnerRequest__Output, _delivery_v1_PickWinnerResponse>;
  
}

export interface RunsDefinition extends grpc.ServiceDefinition {
  NotificationResults: MethodDefinition<_delivery_v1_NotificationResultsRequest, _delivery_v1_NotificationResultsResponse, _delivery_v1_NotificationResultsRequest__Output, _delivery_v1_NotificationResultsResponse__Output>
  PickWinner: MethodDefinition<_delivery_v1_PickWinnerRequest, _delivery_v1_PickWinnerResponse, _delivery_v1_PickWinnerRequest__Output, _delivery_v1_PickWinnerResponse__Output>
}
