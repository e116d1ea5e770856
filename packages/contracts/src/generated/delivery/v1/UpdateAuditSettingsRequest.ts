// Original file: packages/contracts/protos/delivery/v1/audit_log.proto


export interface UpdateAuditSettingsRequest {
  'siteId'?: (string);
  'bodyJson'?: (string);
}

export interface UpdateAuditSettingsRequest__Output {
  'siteId': (string);
  'bodyJson': (string);
}
