// Original file: packages/contracts/protos/delivery/v1/runs.proto


export interface NotificationTargetResult {
  'position'?: (number);
  'subscriptionId'?: (string);
  'outcome'?: (string);
  'reason'?: (string);
  'externalId'?: (string);
}

export interface NotificationTargetResult__Output {
  'position': (number);
  'subscriptionId': (string);
  'outcome': (string);
  'reason': (string);
  'externalId': (string);
}
