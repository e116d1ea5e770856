// Original file: packages/contracts/protos/delivery/v1/audit_log.proto


export interface AuditSettings {
  'retentionDays'?: (number);
}

export interface AuditSettings__Output {
  'retentionDays': (number);
}
