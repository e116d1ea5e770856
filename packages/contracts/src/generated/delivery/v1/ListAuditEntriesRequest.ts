// Original file: packages/contracts/protos/delivery/v1/audit_log.proto

import type { Long } from '@grpc/proto-loader';

export interface ListAuditEntriesRequest {
  'siteId'?: (string);
  'before'?: (number | string | Long);
  'limit'?: (number);
}

export interface ListAuditEntriesRequest__Output {
  'siteId': (string);
  'before': (number);
  'limit': (number);
}
