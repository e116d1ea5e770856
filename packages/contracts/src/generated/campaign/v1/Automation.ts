// Original file: packages/contracts/protos/campaign/v1/campaign.proto

import type { AutomationTrigger as _campaign_v1_AutomationTrigger, AutomationTrigger__Output as _campaign_v1_AutomationTrigger__Output } from '../../campaign/v1/AutomationTrigger';
import type { AutomationStep as _campaign_v1_AutomationStep, AutomationStep__Output as _campaign_v1_AutomationStep__Output } from '../../campaign/v1/AutomationStep';
import type { AutomationEnrolments as _campaign_v1_AutomationEnrolments, AutomationEnrolments__Output as _campaign_v1_AutomationEnrolments__Output } from '../../campaign/v1/AutomationEnrolments';

export interface Automation {
  'id'?: (string);
  'name'?: (string);
  'status'?: (string);
  'trigger'?: (_campaign_v1_AutomationTrigger | null);
  'steps'?: (_campaign_v1_AutomationStep)[];
  'exitEvents'?: (string)[];
  'enrolments'?: (_campaign_v1_AutomationEnrolments | null);
  'createdAt'?: (string);
  'updatedAt'?: (string);
  'exitOnClick'?: (boolean);
  'throttlePerMinute'?: (number);
  '_throttlePerMinute'?: "throttlePerMinute";
}

export interface Automation__Output {
  'id': (string);
  'name': (string);
  'status': (string);
  'trigger': (_campaign_v1_AutomationTrigger__Output | null);
  'steps': (_campaign_v1_AutomationStep__Output)[];
  'exitEvents': (string)[];
  'enrolments': (_campaign_v1_AutomationEnrolments__Output | null);
  'createdAt': (string);
  'updatedAt': (string);
  'exitOnClick': (boolean);
  'throttlePerMinute'?: (number);
  '_throttlePerMinute'?: "throttlePerMinute";
}
