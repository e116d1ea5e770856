// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { AutomationStepResults as _campaign_v1_AutomationStepResults, AutomationStepResults__Output as _campaign_v1_AutomationStepResults__Output } from '../../campaign/v1/AutomationStepResults';

export interface AutomationStep {
  'delaySeconds'?: (number);
  'templateId'?: (string);
  'variablesJson'?: (string);
  'results'?: (_campaign_v1_AutomationStepResults | null);
}

export interface AutomationStep__Output {
  'delaySeconds': (number);
  'templateId': (string);
  'variablesJson': (string);
  'results': (_campaign_v1_AutomationStepResults__Output | null);
}
