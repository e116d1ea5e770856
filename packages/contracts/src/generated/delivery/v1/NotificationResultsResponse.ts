// Original file: packages/contracts/protos/delivery/v1/runs.proto

import type { NotificationTargetResult as _delivery_v1_NotificationTargetResult, NotificationTargetResult__Output as _delivery_v1_NotificationTargetResult__Output } from '../../delivery/v1/NotificationTargetResult';

export interface NotificationResultsResponse {
  'found'?: (boolean);
  'state'?: (string);
  'sent'?: (number);
  'noSubscription'?: (number);
  'capped'?: (number);
  'failed'?: (number);
  'pending'?: (number);
  'results'?: (_delivery_v1_NotificationTargetResult)[];
  'hasMore'?: (boolean);
  'reason'?: (string);
}

export interface NotificationResultsResponse__Output {
  'found': (boolean);
  'state': (string);
  'sent': (number);
  'noSubscription': (number);
  'capped': (number);
  'failed': (number);
  'pending': (number);
  'results': (_delivery_v1_NotificationTargetResult__Output)[];
  'hasMore': (boolean);
  'reason': (string);
}
