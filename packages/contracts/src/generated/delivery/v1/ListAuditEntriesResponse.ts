// Original file: packages/contracts/protos/delivery/v1/audit_log.proto

import type { AuditEntry as _delivery_v1_AuditEntry, AuditEntry__Output as _delivery_v1_AuditEntry__Output } from '../../delivery/v1/AuditEntry';
import type { Long } from '@grpc/proto-loader';

export interface ListAuditEntriesResponse {
  'entries'?: (_delivery_v1_AuditEntry)[];
  'nextBefore'?: (number | string | Long);
}

export interface ListAuditEntriesResponse__Output {
  'entries': (_delivery_v1_AuditEntry__Output)[];
  'nextBefore': (number);
}
