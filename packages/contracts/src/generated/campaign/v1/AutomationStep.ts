// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { AutomationStepResults as _campaign_v1_AutomationStepResults, AutomationStepResults__Output as _campaign_v1_AutomationStepResults__Output } from '../../campaign/v1/AutomationStepResults';
import type { SendTime as _campaign_v1_SendTime, SendTime__Output as _campaign_v1_SendTime__Output } from '../../campaign/v1/SendTime';

export interface AutomationStep {
  'delaySeconds'?: (number);
  'templateId'?: (string);
  'variablesJson'?: (string);
  'results'?: (_campaign_v1_AutomationStepResults | null);
  'sendTime'?: (_campaign_v1_SendTime | null);
  'respectQuietHours'?: (boolean);
}

export interface AutomationStep__Output {
  'delaySeconds': (number);
  'templateId': (string);
  'variablesJson': (string);
  'results': (_campaign_v1_AutomationStepResults__Output | null);
  'sendTime': (_campaign_v1_SendTime__Output | null);
  'respectQuietHours': (boolean);
}
