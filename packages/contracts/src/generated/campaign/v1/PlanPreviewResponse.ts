// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { PlannedHour as _campaign_v1_PlannedHour, PlannedHour__Output as _campaign_v1_PlannedHour__Output } from '../../campaign/v1/PlannedHour';
import type { Long } from '@grpc/proto-loader';

export interface PlanPreviewResponse {
  'totalUsers'?: (number | string | Long);
  'withinHours'?: (number);
  'holdoutPercent'?: (number);
  'start'?: (string);
  'holdoutUsers'?: (number | string | Long);
  'hours'?: (_campaign_v1_PlannedHour)[];
  'sampled'?: (boolean);
  'sampleSize'?: (number | string | Long);
}

export interface PlanPreviewResponse__Output {
  'totalUsers': (number);
  'withinHours': (number);
  'holdoutPercent': (number);
  'start': (string);
  'holdoutUsers': (number);
  'hours': (_campaign_v1_PlannedHour__Output)[];
  'sampled': (boolean);
  'sampleSize': (number);
}
