// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface AutomationEnrolments {
  'active'?: (number);
  'completed'?: (number);
  'exited'?: (number);
  'exitReasons'?: ({[key: string]: number});
}

export interface AutomationEnrolments__Output {
  'active': (number);
  'completed': (number);
  'exited': (number);
  'exitReasons': ({[key: string]: number});
}
