// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { NotificationCounts as _campaign_v1_NotificationCounts, NotificationCounts__Output as _campaign_v1_NotificationCounts__Output } from '../../campaign/v1/NotificationCounts';
import type { NotificationResult as _campaign_v1_NotificationResult, NotificationResult__Output as _campaign_v1_NotificationResult__Output } from '../../campaign/v1/NotificationResult';
import type { SendTime as _campaign_v1_SendTime, SendTime__Output as _campaign_v1_SendTime__Output } from '../../campaign/v1/SendTime';
import type { Long } from '@grpc/proto-loader';

export interface Notification {
  'id'?: (string);
  'createdAt'?: (string);
  'transactional'?: (boolean);
  'targets'?: (number);
  'status'?: (string);
  'contentJson'?: (string);
  'counts'?: (_campaign_v1_NotificationCounts | null);
  'results'?: (_campaign_v1_NotificationResult)[];
  'nextCursor'?: (string);
  'reason'?: (string);
  'sendTime'?: (_campaign_v1_SendTime | null);
  'respectQuietHours'?: (boolean);
  'impressions'?: (number | string | Long);
  'clicks'?: (number | string | Long);
}

export interface Notification__Output {
  'id': (string);
  'createdAt': (string);
  'transactional': (boolean);
  'targets': (number);
  'status': (string);
  'contentJson': (string);
  'counts': (_campaign_v1_NotificationCounts__Output | null);
  'results': (_campaign_v1_NotificationResult__Output)[];
  'nextCursor': (string);
  'reason': (string);
  'sendTime': (_campaign_v1_SendTime__Output | null);
  'respectQuietHours': (boolean);
  'impressions': (number);
  'clicks': (number);
}
