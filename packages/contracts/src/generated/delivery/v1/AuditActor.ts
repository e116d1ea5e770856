// Original file: packages/contracts/protos/delivery/v1/audit_log.proto


export interface AuditActor {
  'kind'?: (string);
  'id'?: (string);
  'prefix'?: (string);
  'label'?: (string);
}

export interface AuditActor__Output {
  'kind': (string);
  'id': (string);
  'prefix': (string);
  'label': (string);
}
