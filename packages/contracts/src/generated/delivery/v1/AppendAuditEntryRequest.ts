// Original file: packages/contracts/protos/delivery/v1/audit_log.proto

import type { AuditActor as _delivery_v1_AuditActor, AuditActor__Output as _delivery_v1_AuditActor__Output } from '../../delivery/v1/AuditActor';

export interface AppendAuditEntryRequest {
  'siteId'?: (string);
  'actor'?: (_delivery_v1_AuditActor | null);
  'action'?: (string);
  'target'?: (string);
  'status'?: (number);
  'clientAddress'?: (string);
  'requestId'?: (string);
}

export interface AppendAuditEntryRequest__Output {
  'siteId': (string);
  'actor': (_delivery_v1_AuditActor__Output | null);
  'action': (string);
  'target': (string);
  'status': (number);
  'clientAddress': (string);
  'requestId': (string);
}
