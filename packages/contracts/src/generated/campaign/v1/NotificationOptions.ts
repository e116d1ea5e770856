// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { NotificationAction as _campaign_v1_NotificationAction, NotificationAction__Output as _campaign_v1_NotificationAction__Output } from '../../campaign/v1/NotificationAction';

export interface NotificationOptions {
  'actions'?: (_campaign_v1_NotificationAction)[];
  'badge'?: (string);
  'requireInteraction'?: (boolean);
  'renotify'?: (boolean);
  'silent'?: (boolean);
  'vibrate'?: (number)[];
  'timestamp'?: (string);
  'dir'?: (string);
  'lang'?: (string);
  '_badge'?: "badge";
  '_timestamp'?: "timestamp";
}

export interface NotificationOptions__Output {
  'actions': (_campaign_v1_NotificationAction__Output)[];
  'badge'?: (string);
  'requireInteraction': (boolean);
  'renotify': (boolean);
  'silent': (boolean);
  'vibrate': (number)[];
  'timestamp'?: (string);
  'dir': (string);
  'lang': (string);
  '_badge'?: "badge";
  '_timestamp'?: "timestamp";
}
