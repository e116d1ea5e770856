// Original file: packages/contracts/protos/delivery/v1/audit_log.proto


export interface AuditSettingsRequest {
  'siteId'?: (string);
}

export interface AuditSettingsRequest__Output {
  'siteId': (string);
}
