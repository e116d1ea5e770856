// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { SendTimeSlot as _campaign_v1_SendTimeSlot, SendTimeSlot__Output as _campaign_v1_SendTimeSlot__Output } from '../../campaign/v1/SendTimeSlot';

export interface SendTime {
  'mode'?: (string);
  'withinHours'?: (number);
  'holdoutPercent'?: (number);
  'slots'?: (_campaign_v1_SendTimeSlot)[];
}

export interface SendTime__Output {
  'mode': (string);
  'withinHours': (number);
  'holdoutPercent': (number);
  'slots': (_campaign_v1_SendTimeSlot__Output)[];
}
