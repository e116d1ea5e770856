// Original file: protos/campaign/v1/campaign.proto

import type { Analytics as _campaign_v1_Analytics, Analytics__Output as _campaign_v1_Analytics__Output } from '../../campaign/v1/Analytics';
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
  'updatedAt'?: (string);
  'totalUsers'?: (number | string | Long);
  'image'?: (string);
  'icon'?: (string);
  'callToAction'?: (string);
  'utmSource'?: (string);
  'utmMedium'?: (string);
  'utmCampaign'?: (string);
  'ttl'?: (number);
  'ttlUnit'?: (string);
  'analytics'?: (_campaign_v1_Analytics | null);
  '_updatedAt'?: "updatedAt";
  '_image'?: "image";
  '_icon'?: "icon";
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
  'updatedAt'?: (string);
  'totalUsers': (number);
  'image'?: (string);
  'icon'?: (string);
  'callToAction': (string);
  'utmSource': (string);
  'utmMedium': (string);
  'utmCampaign': (string);
  'ttl': (number);
  'ttlUnit': (string);
  'analytics': (_campaign_v1_Analytics__Output | null);
  '_updatedAt'?: "updatedAt";
  '_image'?: "image";
  '_icon'?: "icon";
}
