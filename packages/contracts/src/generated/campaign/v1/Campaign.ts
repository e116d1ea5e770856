// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Analytics as _campaign_v1_Analytics, Analytics__Output as _campaign_v1_Analytics__Output } from '../../campaign/v1/Analytics';
import type { Delivery as _campaign_v1_Delivery, Delivery__Output as _campaign_v1_Delivery__Output } from '../../campaign/v1/Delivery';
import type { Segment as _campaign_v1_Segment, Segment__Output as _campaign_v1_Segment__Output } from '../../campaign/v1/Segment';
import type { LocalTimePlan as _campaign_v1_LocalTimePlan, LocalTimePlan__Output as _campaign_v1_LocalTimePlan__Output } from '../../campaign/v1/LocalTimePlan';
import type { AbTest as _campaign_v1_AbTest, AbTest__Output as _campaign_v1_AbTest__Output } from '../../campaign/v1/AbTest';
import type { NotificationOptions as _campaign_v1_NotificationOptions, NotificationOptions__Output as _campaign_v1_NotificationOptions__Output } from '../../campaign/v1/NotificationOptions';
import type { SendTime as _campaign_v1_SendTime, SendTime__Output as _campaign_v1_SendTime__Output } from '../../campaign/v1/SendTime';
import type { Long } from '@grpc/proto-loader';

export interface Campaign {
  'id'?: (string);
  'title'?: (string);
  'body'?: (string);
  'link'?: (string);
  'topics'?: (string)[];
  'status'?: (string);
  'scheduleDate'?: (string);
  'scheduleMode'?: (string);
  'createdAt'?: (string);
  'totalUsers'?: (number | string | Long);
  'image'?: (string);
  'icon'?: (string);
  'callToAction'?: (string);
  'utmSource'?: (string);
  'utmMedium'?: (string);
  'utmCampaign'?: (string);
  'ttl'?: (number);
  'analytics'?: (_campaign_v1_Analytics | null);
  'delivery'?: (_campaign_v1_Delivery | null);
  'segment'?: (_campaign_v1_Segment | null);
  'throttlePerMinute'?: (number);
  'ignoreFrequencyCap'?: (boolean);
  'localTime'?: (_campaign_v1_LocalTimePlan | null);
  'abTest'?: (_campaign_v1_AbTest | null);
  'options'?: (_campaign_v1_NotificationOptions | null);
  'urgency'?: (string);
  'ignoreQuietHours'?: (boolean);
  'sendTime'?: (_campaign_v1_SendTime | null);
  '_image'?: "image";
  '_icon'?: "icon";
  '_throttlePerMinute'?: "throttlePerMinute";
}

export interface Campaign__Output {
  'id': (string);
  'title': (string);
  'body': (string);
  'link': (string);
  'topics': (string)[];
  'status': (string);
  'scheduleDate': (string);
  'scheduleMode': (string);
  'createdAt': (string);
  'totalUsers': (number);
  'image'?: (string);
  'icon'?: (string);
  'callToAction': (string);
  'utmSource': (string);
  'utmMedium': (string);
  'utmCampaign': (string);
  'ttl': (number);
  'analytics': (_campaign_v1_Analytics__Output | null);
  'delivery': (_campaign_v1_Delivery__Output | null);
  'segment': (_campaign_v1_Segment__Output | null);
  'throttlePerMinute'?: (number);
  'ignoreFrequencyCap': (boolean);
  'localTime': (_campaign_v1_LocalTimePlan__Output | null);
  'abTest': (_campaign_v1_AbTest__Output | null);
  'options': (_campaign_v1_NotificationOptions__Output | null);
  'urgency': (string);
  'ignoreQuietHours': (boolean);
  'sendTime': (_campaign_v1_SendTime__Output | null);
  '_image'?: "image";
  '_icon'?: "icon";
  '_throttlePerMinute'?: "throttlePerMinute";
}
