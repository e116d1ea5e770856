// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { Long } from '@grpc/proto-loader';

export interface AutomationStepResults {
  'sent'?: (number);
  'exits'?: (number);
  'impressions'?: (number | string | Long);
  'clicks'?: (number | string | Long);
}

export interface AutomationStepResults__Output {
  'sent': (number);
  'exits': (number);
  'impressions': (number);
  'clicks': (number);
}
