// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { PlannedSend as _campaign_v1_PlannedSend, PlannedSend__Output as _campaign_v1_PlannedSend__Output } from '../../campaign/v1/PlannedSend';

export interface LocalTimePlan {
  'date'?: (string);
  'time'?: (string);
  'ifPassed'?: (string);
  'firstSendAt'?: (string);
  'lastSendAt'?: (string);
  'sends'?: (_campaign_v1_PlannedSend)[];
}

export interface LocalTimePlan__Output {
  'date': (string);
  'time': (string);
  'ifPassed': (string);
  'firstSendAt': (string);
  'lastSendAt': (string);
  'sends': (_campaign_v1_PlannedSend__Output)[];
}
