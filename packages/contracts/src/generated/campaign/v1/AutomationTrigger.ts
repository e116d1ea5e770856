// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface AutomationTrigger {
  'type'?: (string);
  'name'?: (string);
  'valueJson'?: (string);
}

export interface AutomationTrigger__Output {
  'type': (string);
  'name': (string);
  'valueJson': (string);
}
