// Original file: packages/contracts/protos/delivery/v1/audit_log.proto

import type { Long } from '@grpc/proto-loader';

export interface AppendAuditEntryResponse {
  'id'?: (number | string | Long);
}

export interface AppendAuditEntryResponse__Output {
  'id': (number);
}
