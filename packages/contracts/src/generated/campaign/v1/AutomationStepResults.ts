// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface AutomationStepResults {
  'sent'?: (number);
  'exits'?: (number);
}

export interface AutomationStepResults__Output {
  'sent': (number);
  'exits': (number);
}
