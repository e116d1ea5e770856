// Original file: packages/contracts/protos/delivery/v1/audit_log.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AppendAuditEntryRequest as _delivery_v1_AppendAuditEntryRequest, AppendAuditEntryRequest__Output as _delivery_v1_AppendAuditEntryRequest__Output } from '../../delivery/v1/AppendAuditEntryRequest';
import type { AppendAuditEntryResponse as _delivery_v1_AppendAuditEntryResponse, AppendAuditEntryResponse__Output as _delivery_v1_AppendAuditEntryResponse__Output } from '../../delivery/v1/AppendAuditEntryResponse';
import type { AuditExportChunk as _delivery_v1_AuditExportChunk, AuditExportChunk__Output as _delivery_v1_AuditExportChunk__Output } from '../../delivery/v1/AuditExportChunk';
import type { AuditSettings as _delivery_v1_AuditSettings, AuditSettings__Output as _delivery_v1_AuditSettings__Output } from '../../delivery/v1/AuditSettings';
import type { AuditSettingsRequest as _delivery_v1_AuditSettingsRequest, AuditSettingsRequest__Output as _delivery_v1_AuditSettingsRequest__Output } from '../../delivery/v1/AuditSettingsRequest';
import type { ExportAuditEntriesRequest as _delivery_v1_ExportAuditEntriesRequest, ExportAuditEntriesRequest__Output as _delivery_v1_ExportAuditEntriesRequest__Output } from '../../delivery/v1/ExportAuditEntriesRequest';
import type { ListAuditEntriesRequest as _delivery_v1_ListAuditEntriesRequest, ListAuditEntriesRequest__Output as _delivery_v1_ListAuditEntriesRequest__Output } from '../../delivery/v1/ListAuditEntriesRequest';
import type { ListAuditEntriesResponse as _delivery_v1_ListAuditEntriesResponse, ListAuditEntriesResponse__Output as _delivery_v1_ListAuditEntriesResponse__Output } from '../../delivery/v1/ListAuditEntriesResponse';
import type { UpdateAuditSettingsRequest as _delivery_v1_UpdateAuditSettingsRequest, UpdateAuditSettingsRequest__Output as _delivery_v1_UpdateAuditSettingsRequest__Output } from '../../delivery/v1/UpdateAuditSettingsRequest';

export interface AuditLogClient extends grpc.Client {
  Append(argument: _delivery_v1_AppendAuditEntryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  Append(argument: _delivery_v1_AppendAuditEntryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  Append(argument: _delivery_v1_AppendAuditEntryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  Append(argument: _delivery_v1_AppendAuditEntryRequest, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  append(argument: _delivery_v1_AppendAuditEntryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  append(argument: _delivery_v1_AppendAuditEntryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  append(argument: _delivery_v1_AppendAuditEntryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  append(argument: _delivery_v1_AppendAuditEntryRequest, callback: grpc.requestCallback<_delivery_v1_AppendAuditEntryResponse__Output>): grpc.ClientUnaryCall;
  
  ExportAuditEntries(argument: _delivery_v1_ExportAuditEntriesRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_AuditExportChunk__Output>;
  ExportAuditEntries(argument: _delivery_v1_ExportAuditEntriesRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_AuditExportChunk__Output>;
  exportAuditEntries(argument: _delivery_v1_ExportAuditEntriesRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_AuditExportChunk__Output>;
  exportAuditEntries(argument: _delivery_v1_ExportAuditEntriesRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_delivery_v1_AuditExportChunk__Output>;
  
  GetAuditSettings(argument: _delivery_v1_AuditSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  GetAuditSettings(argument: _delivery_v1_AuditSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  GetAuditSettings(argument: _delivery_v1_AuditSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  GetAuditSettings(argument: _delivery_v1_AuditSettingsRequest, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  getAuditSettings(argument: _delivery_v1_AuditSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  getAuditSettings(argument: _delivery_v1_AuditSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  getAuditSettings(argument: _delivery_v1_AuditSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  getAuditSettings(argument: _delivery_v1_AuditSettingsRequest, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  
  ListAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  ListAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  listAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  listAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  listAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  listAuditEntries(argument: _delivery_v1_ListAuditEntriesRequest, callback: grpc.requestCallback<_delivery_v1_ListAuditEntriesResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  UpdateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  UpdateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  UpdateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  updateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  updateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  updateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  updateAuditSettings(argument: _delivery_v1_UpdateAuditSettingsRequest, callback: grpc.requestCallback<_delivery_v1_AuditSettings__Output>): grpc.ClientUnaryCall;
  
}

export interface AuditLogHandlers extends grpc.UntypedServiceImplementation {
  Append: grpc.handleUnaryCall<_delivery_v1_AppendAuditEntryRequest__Output, _delivery_v1_AppendAuditEntryResponse>;
  
  ExportAuditEntries: grpc.handleServerStreamingCall<_delivery_v1_ExportAuditEntriesRequest__Output, _delivery_v1_AuditExportChunk>;
  
  GetAuditSettings: grpc.handleUnaryCall<_delivery_v1_AuditSettingsRequest__Output, _delivery_v1_AuditSettings>;
  
  ListAuditEntries: grpc.handleUnaryCall<_delivery_v1_ListAuditEntriesRequest__Output, _delivery_v1_ListAuditEntriesResponse>;
  
  UpdateAuditSettings: grpc.handleUnaryCall<_delivery_v1_UpdateAuditSettingsRequest__Output, _delivery_v1_AuditSettings>;
  
}

export interface AuditLogDefinition extends grpc.ServiceDefinition {
  Append: MethodDefinition<_delivery_v1_AppendAuditEntryRequest, _delivery_v1_AppendAuditEntryResponse, _delivery_v1_AppendAuditEntryRequest__Output, _delivery_v1_AppendAuditEntryResponse__Output>
  ExportAuditEntries: MethodDefinition<_delivery_v1_ExportAuditEntriesRequest, _delivery_v1_AuditExportChunk, _delivery_v1_ExportAuditEntriesRequest__Output, _delivery_v1_AuditExportChunk__Output>
  GetAuditSettings: MethodDefinition<_delivery_v1_AuditSettingsRequest, _delivery_v1_AuditSettings, _delivery_v1_AuditSettingsRequest__Output, _delivery_v1_AuditSettings__Output>
  ListAuditEntries: MethodDefinition<_delivery_v1_ListAuditEntriesRequest, _delivery_v1_ListAuditEntriesResponse, _delivery_v1_ListAuditEntriesRequest__Output, _delivery_v1_ListAuditEntriesResponse__Output>
  UpdateAuditSettings: MethodDefinition<_delivery_v1_UpdateAuditSettingsRequest, _delivery_v1_AuditSettings, _delivery_v1_UpdateAuditSettingsRequest__Output, _delivery_v1_AuditSettings__Output>
}
