import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AppendAuditEntryRequest as _delivery_v1_AppendAuditEntryRequest, AppendAuditEntryRequest__Output as _delivery_v1_AppendAuditEntryRequest__Output } from './delivery/v1/AppendAuditEntryRequest';
import type { AppendAuditEntryResponse as _delivery_v1_AppendAuditEntryResponse, AppendAuditEntryResponse__Output as _delivery_v1_AppendAuditEntryResponse__Output } from './delivery/v1/AppendAuditEntryResponse';
import type { AuditActor as _delivery_v1_AuditActor, AuditActor__Output as _delivery_v1_AuditActor__Output } from './delivery/v1/AuditActor';
import type { AuditEntry as _delivery_v1_AuditEntry, AuditEntry__Output as _delivery_v1_AuditEntry__Output } from './delivery/v1/AuditEntry';
import type { AuditExportChunk as _delivery_v1_AuditExportChunk, AuditExportChunk__Output as _delivery_v1_AuditExportChunk__Output } from './delivery/v1/AuditExportChunk';
import type { AuditLogClient as _delivery_v1_AuditLogClient, AuditLogDefinition as _delivery_v1_AuditLogDefinition } from './delivery/v1/AuditLog';
import type { AuditSettings as _delivery_v1_AuditSettings, AuditSettings__Output as _delivery_v1_AuditSettings__Output } from './delivery/v1/AuditSettings';
import type { AuditSettingsRequest as _delivery_v1_AuditSettingsRequest, AuditSettingsRequest__Output as _delivery_v1_AuditSettingsRequest__Output } from './delivery/v1/AuditSettingsRequest';
import type { ExportAuditEntriesRequest as _delivery_v1_ExportAuditEntriesRequest, ExportAuditEntriesRequest__Output as _delivery_v1_ExportAuditEntriesRequest__Output } from './delivery/v1/ExportAuditEntriesRequest';
import type { ListAuditEntriesRequest as _delivery_v1_ListAuditEntriesRequest, ListAuditEntriesRequest__Output as _delivery_v1_ListAuditEntriesRequest__Output } from './delivery/v1/ListAuditEntriesRequest';
import type { ListAuditEntriesResponse as _delivery_v1_ListAuditEntriesResponse, ListAuditEntriesResponse__Output as _delivery_v1_ListAuditEntriesResponse__Output } from './delivery/v1/ListAuditEntriesResponse';
import type { UpdateAuditSettingsRequest as _delivery_v1_UpdateAuditSettingsRequest, UpdateAuditSettingsRequest__Output as _delivery_v1_UpdateAuditSettingsRequest__Output } from './delivery/v1/UpdateAuditSettingsRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  delivery: {
    v1: {
      AppendAuditEntryRequest: MessageTypeDefinition<_delivery_v1_AppendAuditEntryRequest, _delivery_v1_AppendAuditEntryRequest__Output>
      AppendAuditEntryResponse: MessageTypeDefinition<_delivery_v1_AppendAuditEntryResponse, _delivery_v1_AppendAuditEntryResponse__Output>
      AuditActor: MessageTypeDefinition<_delivery_v1_AuditActor, _delivery_v1_AuditActor__Output>
      AuditEntry: MessageTypeDefinition<_delivery_v1_AuditEntry, _delivery_v1_AuditEntry__Output>
      AuditExportChunk: MessageTypeDefinition<_delivery_v1_AuditExportChunk, _delivery_v1_AuditExportChunk__Output>
      AuditLog: SubtypeConstructor<typeof grpc.Client, _delivery_v1_AuditLogClient> & { service: _delivery_v1_AuditLogDefinition }
      AuditSettings: MessageTypeDefinition<_delivery_v1_AuditSettings, _delivery_v1_AuditSettings__Output>
      AuditSettingsRequest: MessageTypeDefinition<_delivery_v1_AuditSettingsRequest, _delivery_v1_AuditSettingsRequest__Output>
      ExportAuditEntriesRequest: MessageTypeDefinition<_delivery_v1_ExportAuditEntriesRequest, _delivery_v1_ExportAuditEntriesRequest__Output>
      ListAuditEntriesRequest: MessageTypeDefinition<_delivery_v1_ListAuditEntriesRequest, _delivery_v1_ListAuditEntriesRequest__Output>
      ListAuditEntriesResponse: MessageTypeDefinition<_delivery_v1_ListAuditEntriesResponse, _delivery_v1_ListAuditEntriesResponse__Output>
      UpdateAuditSettingsRequest: MessageTypeDefinition<_delivery_v1_UpdateAuditSettingsRequest, _delivery_v1_UpdateAuditSettingsRequest__Output>
    }
  }
}

