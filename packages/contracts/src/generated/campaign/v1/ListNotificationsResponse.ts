// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Notification as _campaign_v1_Notification, Notification__Output as _campaign_v1_Notification__Output } from '../../campaign/v1/Notification';

export interface ListNotificationsResponse {
  'items'?: (_campaign_v1_Notification)[];
  'nextCursor'?: (string);
}

export interface ListNotificationsResponse__Output {
  'items': (_campaign_v1_Notification__Output)[];
  'nextCursor': (string);
}
