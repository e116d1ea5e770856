// Original file: packages/contracts/protos/delivery/v1/audit_log.proto


export interface ExportAuditEntriesRequest {
  'siteId'?: (string);
}

export interface ExportAuditEntriesRequest__Output {
  'siteId': (string);
}
