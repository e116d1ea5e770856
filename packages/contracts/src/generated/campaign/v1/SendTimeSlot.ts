// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface SendTimeSlot {
  'slot'?: (number);
  'sendAt'?: (string);
  'planned'?: (number | string | Long);
  'sent'?: (number | string | Long);
  'impressions'?: (number | string | Long);
  'clicks'?: (number | string | Long);
}

export interface SendTimeSlot__Output {
  'slot': (number);
  'sendAt': (string);
  'planned': (number);
  'sent': (number);
  'impressions': (number);
  'clicks': (number);
}
