// Original file: packages/contracts/protos/delivery/v1/audit_log.proto


export interface AuditExportChunk {
  'data'?: (Buffer | Uint8Array | string);
}

export interface AuditExportChunk__Output {
  'data': (Buffer);
}
