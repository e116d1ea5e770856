// Original file: packages/contracts/protos/delivery/v1/audit_log.proto

import type { AuditActor as _delivery_v1_AuditActor, AuditActor__Output as _delivery_v1_AuditActor__Output } from '../../delivery/v1/AuditActor';
import type { Long } from '@grpc/proto-loader';

export interface AuditEntry {
  'id'?: (number | string | Long);
  'at'?: (string);
  'actor'?: (_delivery_v1_AuditActor | null);
  'action'?: (string);
  'target'?: (string);
  'status'?: (number);
  'clientAddress'?: (string);
  'requestId'?: (string);
}

export interface AuditEntry__Output {
  'id': (number);
  'at': (string);
  'actor': (_delivery_v1_AuditActor__Output | null);
  'action': (string);
  'target': (string);
  'status': (number);
  'clientAddress': (string);
  'requestId': (string);
}
